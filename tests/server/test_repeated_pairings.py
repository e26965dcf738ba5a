"""Repeated pairings count for less: the n-th rated game of the same two accounts within
24 hours moves their ratings by a falling share of a full game, from the sixth not at all."""

from __future__ import annotations

import random

import glicko2
import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from sansu.server.ratings import repeat_weight
from sansu.server.ratings.rating_math import Rating, glicko2_pair, weighted
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.test_aborts_claims import move
from tests.server.test_rated_games import library_after, profile, rated_game
from tests.server.test_seat_accounts import Browser


@given(st.integers(min_value=0, max_value=1000))
def test_the_weight_falls_with_each_earlier_game_and_ends_at_zero(n: int) -> None:
    w = repeat_weight(n)
    assert 0.0 <= w <= 1.0
    assert repeat_weight(n + 1) <= w
    assert (w == 1.0) == (n < 2)
    assert (w == 0.0) == (n >= 5)
    # whatever the number of games a pair plays in a day, at most 2.875 games' worth count
    assert sum(repeat_weight(k) for k in range(n + 1)) <= 2.875


ratings = st.builds(
    Rating,
    st.floats(min_value=400, max_value=2800),
    st.floats(min_value=45, max_value=350),
    st.floats(min_value=0.04, max_value=0.09),
)


@given(ratings, ratings, st.sampled_from([0.0, 0.5, 1.0]), st.integers(0, 8))
def test_a_weighted_game_moves_a_rating_by_its_share_of_a_full_game(
    me: Rating, other: Rating, score: float, n: int
) -> None:
    full, _ = glicko2_pair(me, other, score)
    w = repeat_weight(n)
    got = weighted(me, full, w)
    assert got.rating - me.rating == pytest.approx(w * (full.rating - me.rating), abs=1e-9)
    assert got.deviation == pytest.approx(me.deviation + w * (full.deviation - me.deviation))
    if w == 0.0:
        assert got == me


def opened_resigned(loser: Browser, winner: Browser, first: Browser, second: Browser) -> dict:
    """A rated game in which each side moved once, then ``loser`` resigns."""
    gid = rated_game(first, second)
    rng = random.Random(0)
    move(first, gid, rng)
    move(second, gid, rng)
    r = loser.post(f"/api/games/{gid}/resign", json={})
    assert r.status_code == 200, r.text
    return {e["name"]: e for e in r.json()["ratings"]}


def test_farming_one_account_counts_less_and_then_not_at_all(
    client: TestClient, fast_hashing: None
) -> None:
    alice, bob, carol = (Browser(client).sign(n, new=True) for n in ("Alice", "Bob", "Carol"))
    gains = []
    for _ in range(7):
        shown = opened_resigned(bob, alice, alice, bob)
        gains.append((shown["Alice"]["after"] - shown["Alice"]["before"], shown["Alice"]["weight"]))
    assert [w for _, w in gains] == [1.0, 1.0, 0.5, 0.25, 0.125, 0.0, 0.0]
    assert gains[0][0] == round(library_after(1500, 1500, 1.0) - 1500)
    assert gains[5][0] == gains[6][0] == 0
    alice_now = profile(alice, "alice")["ratings"][0]
    assert alice_now["games"] == 5  # the games that counted for nothing are not counted
    assert alice_now["rating"] < 1500 + 2.875 * (library_after(1500, 1500, 1.0) - 1500)
    fresh = opened_resigned(carol, alice, alice, carol)  # another pair counts in full
    assert fresh["Carol"]["weight"] == 1.0
    full = glicko2.Player(1500.0, 350.0, 0.06)
    full.update_player([alice_now["rating"]], [alice_now["deviation"]], [0.0])
    assert fresh["Carol"]["after"] == round(full.getRating())
