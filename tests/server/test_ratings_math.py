"""Properties of the rating math and of racing ratings of one game."""

from __future__ import annotations

import threading
import time

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from sansu.server.ratings import table as ratings
from sansu.server.ratings.rating_math import Rating, glicko2_pair, openskill_teams
from tests.server.accounts_fixtures import (  # noqa: F401
    engine_fixture,
    fast_hashing_fixture,
    sign_up,
)

plausible = st.builds(
    Rating,
    st.floats(600, 2800),
    st.floats(45, 350),
    st.floats(0.04, 0.09),
)


@given(plausible, plausible, st.sampled_from([0.0, 0.5, 1.0]))
def test_glicko2_moves_ratings_the_way_the_result_went(a: Rating, b: Rating, score: float):
    new_a, new_b = glicko2_pair(a, b, score)
    if score == 1.0:
        assert new_a.rating > a.rating and new_b.rating < b.rating
    elif score == 0.0:
        assert new_a.rating < a.rating and new_b.rating > b.rating
    for old, new in ((a, new_a), (b, new_b)):
        assert 0 < new.deviation <= (old.deviation**2 + (173.7178 * new.volatility) ** 2) ** 0.5
    swapped_b, swapped_a = glicko2_pair(b, a, 1.0 - score)
    assert (swapped_a, swapped_b) == (new_a, new_b)


@given(plausible, st.sampled_from([0.0, 1.0]))
def test_glicko2_between_equals_is_zero_sum(a: Rating, score: float) -> None:
    new_a, new_b = glicko2_pair(a, a, score)
    assert new_a.rating - a.rating == pytest.approx(a.rating - new_b.rating, abs=1e-6)


@given(st.lists(st.lists(plausible, min_size=1, max_size=3), min_size=2, max_size=5), st.data())
def test_openskill_keeps_the_shape_and_rewards_the_sole_winner(teams, data) -> None:
    ranks = data.draw(st.permutations(list(range(1, len(teams) + 1))))
    after = openskill_teams(teams, ranks)
    assert [len(t) for t in after] == [len(t) for t in teams]
    winner = ranks.index(1)
    loser = ranks.index(len(teams))
    assert all(n.rating > o.rating for n, o in zip(after[winner], teams[winner], strict=True))
    assert all(n.rating < o.rating for n, o in zip(after[loser], teams[loser], strict=True))
    assert all(n.deviation <= max(o.deviation + 1e-9, 350)
               for t, ot in zip(after, teams, strict=True)
               for n, o in zip(t, ot, strict=True))  # fmt: skip


def test_two_racing_ratings_of_one_game_rate_it_once(engine: Engine) -> None:
    alice, bob = sign_up(engine, "Alice"), sign_up(engine, "Bob")
    players = {"game": "uttt", "speed": "timed", "players": [alice.id, bob.id], "ranks": [1, 2]}
    errors: list[BaseException] = []
    first = engine.connect()
    transaction = first.begin()
    first.execute(sa.select(ratings.rated_games)).all()
    second_started = threading.Event()

    def second() -> None:
        try:
            with engine.begin() as c:
                c.execute(sa.select(ratings.rated_games)).all()  # its snapshot: not rated yet
                second_started.set()
                ratings.rate_game(c, "g1", now=2.0, **players)
        except BaseException as error:
            errors.append(error)
        finally:
            second_started.set()

    assert ratings.rate_game(first, "g1", now=1.0, **players) is not None
    thread = threading.Thread(target=second)
    thread.start()
    second_started.wait(10)
    time.sleep(0.3)  # let the second transaction reach its write
    transaction.commit()
    first.close()
    thread.join(60)
    with engine.connect() as c:
        rated = c.execute(sa.select(ratings.rated_games.c.rated_at)).scalars().all()
        history = c.execute(sa.select(sa.func.count()).select_from(ratings.rating_history))
        assert rated == [1.0] and history.scalar() == 2
    # the second either saw the first's row (nothing to do) or failed and rolled back
    assert not errors or isinstance(errors[0], DBAPIError)
