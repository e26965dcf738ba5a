"""Quick pairing: the matching rule on its own (properties), and the waiting room over HTTP."""

from __future__ import annotations

import math

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import insert

from sansu.server.lobby import pairing
from sansu.server.lobby.desk import ANONYMOUS_RATING
from sansu.server.lobby.pairing import OPEN_AFTER, Waiting, fits, pairs, rating_range
from sansu.server.ratings.table import ratings
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import Api, bearer
from tests.server.test_seat_accounts import Browser
from tests.server.test_seeks import Clock, clock_fixture  # noqa: F401

entries = st.lists(
    st.tuples(
        st.integers(0, 5),  # person
        st.sampled_from(["uttt", "sansumoku"]),  # pool
        st.floats(800, 2400, allow_nan=False),  # rating
        st.floats(0, 120, allow_nan=False),  # waited
    ),
    max_size=24,
)


def waiting_list(data: list[tuple[int, str, float, float]], now: float) -> list[Waiting]:
    return [
        Waiting(f"k{i}", person, pool, rating, now - waited)
        for i, (person, pool, rating, waited) in enumerate(data)
    ]


@settings(max_examples=300, deadline=None)
@given(entries, st.floats(0, 200, allow_nan=False))
def test_pairs_are_of_two_people_of_one_pool_within_both_ranges(data, later) -> None:
    now = 10_000.0
    waiting = waiting_list(data, now)
    found = pairs(waiting, now + later)
    keys = [w.key for pair in found for w in pair]
    assert len(keys) == len(set(keys))  # nobody twice
    for a, b in found:
        assert a.person != b.person and a.pool == b.pool
        gap = abs(a.rating - b.rating)
        assert gap <= rating_range(now + later - a.since)
        assert gap <= rating_range(now + later - b.since)
    left = [w for w in waiting if w.key not in set(keys)]
    for i, a in enumerate(left):  # nobody left over who could have been paired
        for b in left[i + 1 :]:
            assert not fits(a, b, now + later)


@settings(max_examples=200, deadline=None)
@given(entries)
def test_everyone_is_paired_once_they_waited_long_enough(data) -> None:
    now = 10_000.0
    distinct = {}
    for person, pool, rating, waited in data:
        distinct.setdefault(person, (person, pool, rating, waited))
    waiting = waiting_list(list(distinct.values()), now)
    found = pairs(waiting, now + OPEN_AFTER)
    paired = {w.key for pair in found for w in pair}
    for pool in {w.pool for w in waiting}:
        in_pool = [w for w in waiting if w.pool == pool]
        assert len([w for w in in_pool if w.key not in paired]) == len(in_pool) % 2


def test_the_range_widens_by_the_documented_schedule() -> None:
    assert rating_range(0) == pairing.RANGE_START == 100
    assert rating_range(4.9) == 100 and rating_range(5) == 150 and rating_range(20) == 300
    assert rating_range(59.9) == 100 + 50 * 11
    assert rating_range(OPEN_AFTER) == math.inf
    assert [rating_range(t) for t in range(0, 60)] == sorted(rating_range(t) for t in range(60))


def test_the_closest_rating_is_chosen_for_the_longest_waiting() -> None:
    w = [
        Waiting("a", 1, "p", 1500, 0),
        Waiting("b", 2, "p", 1580, 1),
        Waiting("c", 3, "p", 1510, 2),
    ]
    assert [(x.key, y.key) for x, y in pairs(w, 3)] == [("a", "c")]


def wait(client: TestClient, **body) -> dict:
    r = client.post("/api/lobby/pairing", json={"game": "uttt", **body})
    assert r.status_code == 201, r.text
    return r.json()


def look(client: TestClient, ticket: str | None):
    return client.get("/api/lobby/pairing", headers=bearer(ticket))


def test_two_anonymous_players_are_paired_at_once(client: TestClient, api: Api) -> None:
    first = wait(client, name="Ann")
    assert first["wait"]["status"] == "waiting" and first["wait"]["range"] == 100
    assert first["wait"]["rating"] == ANONYMOUS_RATING
    second = wait(client, name="Ben")
    assert second["wait"]["status"] == "paired"
    mine = second["wait"]["seat"]
    theirs = look(client, first["ticket"]).json()["wait"]["seat"]
    assert mine["id"] == theirs["id"]
    game = api.get(mine["id"], mine["token"])
    assert sorted([*mine["seats"], *theirs["seats"]]) == [0, 1]
    assert {s["name"] for s in game["seats"]} == {"Ann", "Ben"}


def test_other_pools_are_not_paired_and_cancel_stops_waiting(client: TestClient) -> None:
    a = wait(client)
    b = wait(client, game="sansumoku")
    c = wait(client, time_control={"initial_seconds": 60})
    for w in (a, b, c):
        assert look(client, w["ticket"]).json()["wait"]["status"] == "waiting"
    assert client.delete("/api/lobby/pairing", headers=bearer(a["ticket"])).status_code == 200
    assert look(client, a["ticket"]).status_code == 404
    assert look(client, None).status_code == 401
    assert client.delete("/api/lobby/pairing", headers=bearer("forged")).status_code == 404


def test_ratings_far_apart_wait_until_the_range_reaches(
    client: TestClient, fast_hashing: None, clock: Clock
) -> None:
    alice = Browser(client).sign("Alice", new=True)
    store = client.app.state.store  # type: ignore[attr-defined]
    me = alice.get("/api/account").json()["user"]["id"]
    store.write_now(
        lambda c: c.execute(
            insert(ratings).values(
                user_id=me,
                game="uttt",
                speed="untimed",
                rating=1800.0,
                deviation=60.0,
                volatility=0.06,
                games=30,
                wins=20,
                draws=0,
                losses=10,
                updated_at=0.0,
            )
        )
    )
    r = alice.post("/api/lobby/pairing", json={"game": "uttt"})
    assert r.status_code == 201, r.text
    mine = r.json()
    assert mine["wait"]["rating"] == 1800
    other = wait(client)  # 1500: 300 points apart
    for seconds, status in ((5, "waiting"), (15, "waiting"), (20, "paired")):
        clock.now = 1000.0 + seconds
        r = alice.get("/api/lobby/pairing", headers=bearer(mine["ticket"]))
        assert r.json()["wait"]["status"] == status, seconds
        assert look(client, other["ticket"]).status_code == 200
    seat = r.json()["wait"]["seat"]
    assert alice.get(f"/api/games/{seat['id']}").json()["you"] == seat["seats"]


def test_a_player_never_plays_themselves(client: TestClient, fast_hashing: None) -> None:
    alice = Browser(client).sign("Alice", new=True)
    alice2 = Browser(client).sign("alice", new=False)
    first = alice.post("/api/lobby/pairing", json={"game": "uttt"}).json()
    second = alice2.post("/api/lobby/pairing", json={"game": "uttt"}).json()
    assert second["wait"]["status"] == "waiting"
    # the newer wait replaced the older one
    assert alice.get("/api/lobby/pairing", headers=bearer(first["ticket"])).status_code == 404


@pytest.mark.parametrize(
    "body",
    [{"game": "nope"}, {"game": "uttt", "casual": "maybe"}, {"game": "uttt", "x": 1}],
)
def test_bad_waits_are_refused(client: TestClient, body: dict) -> None:
    r = client.post("/api/lobby/pairing", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] in ("unknown_game", "invalid_request")
    assert client.app.state.desk.entries == {}  # type: ignore[attr-defined]


def test_rated_waits_need_an_account(client: TestClient) -> None:
    r = client.post("/api/lobby/pairing", json={"game": "uttt", "casual": False})
    assert r.status_code == 403 and r.json()["error"]["code"] == "sign_in_required"
