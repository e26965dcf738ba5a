"""Seeks in the lobby: posted, listed, accepted by someone else (never by the poster),
cancelled, gone when the poster leaves; a game with everyone seated."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from sansu.server.base.ratelimit import RateLimits
from sansu.server.lobby.seeks import MAX_SEEKS_PER_ADDRESS, SEEN_TIMEOUT
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import Api, bearer, make_client
from tests.server.test_seat_accounts import Browser


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(name="clock")
def clock_fixture(client: TestClient) -> Clock:
    clock = Clock()
    client.app.state.seeks.time = clock  # type: ignore[attr-defined]
    client.app.state.desk.time = clock  # type: ignore[attr-defined]
    return clock


def post(client: TestClient, expect: int = 201, **body: Any) -> dict[str, Any]:
    r = client.post("/api/lobby/seeks", json={"game": "uttt", **body})
    assert r.status_code == expect, r.text
    return r.json()


def listed(client: TestClient) -> list[str]:
    r = client.get("/api/lobby/seeks")
    assert r.status_code == 200
    return [s["id"] for s in r.json()["seeks"]]


def look(client: TestClient, seek_id: str, ticket: str | None) -> Any:
    return client.get(f"/api/lobby/seeks/{seek_id}", headers=bearer(ticket))


def test_a_seek_is_listed_accepted_and_both_are_seated(client: TestClient, api: Api) -> None:
    posted = post(client, name="Ann", time_control={"initial_seconds": 300})
    seek = posted["seek"]
    assert seek["status"] == "open" and seek["poster"] == {"name": "Ann", "account": False}
    assert listed(client) == [seek["id"]]
    r = client.post(f"/api/lobby/seeks/{seek['id']}/accept", json={"name": "Ben"})
    assert r.status_code == 200, r.text
    accepted = r.json()
    mine = accepted["seek"]["seat"]
    assert accepted["seek"]["status"] == "started" and mine["id"] == accepted["seek"]["game_id"]
    assert listed(client) == []
    theirs = look(client, seek["id"], posted["ticket"]).json()["seek"]["seat"]
    assert theirs["id"] == mine["id"] and {theirs["seats"][0], mine["seats"][0]} == {0, 1}
    game = api.get(mine["id"], mine["token"])
    assert game["you"] == mine["seats"] and game["time_control"]["initial_seconds"] == 300
    assert {s["name"] for s in game["seats"]} == {"Ann", "Ben"}
    assert api.get(mine["id"], theirs["token"])["you"] == theirs["seats"]
    assert game["casual"] is True and game["private"] is False
    assert game["clock"]["running"] == 0  # both seated: the clock runs


def test_the_poster_cannot_accept_their_own_seek(client: TestClient) -> None:
    posted = post(client)
    seek_id = posted["seek"]["id"]
    r = client.post(f"/api/lobby/seeks/{seek_id}/accept", headers=bearer(posted["ticket"]))
    assert r.status_code == 409 and r.json()["error"]["code"] == "own_seek"
    assert listed(client) == [seek_id]


def test_a_signed_in_poster_cannot_accept_their_seek_from_another_browser(
    client: TestClient, fast_hashing: None
) -> None:
    alice = Browser(client).sign("Alice", new=True)
    alice2 = Browser(client).sign("alice", new=False)
    r = alice.post("/api/lobby/seeks", json={"game": "uttt", "casual": False})
    assert r.status_code == 201, r.text
    seek = r.json()["seek"]
    assert seek["rated"] is True and seek["poster"] == {"name": "Alice", "account": True}
    r = alice2.post(f"/api/lobby/seeks/{seek['id']}/accept")
    assert r.status_code == 409 and r.json()["error"]["code"] == "own_seek"
    assert listed(client) == [seek["id"]]


def test_rated_seeks_are_for_signed_in_players(client: TestClient, fast_hashing: None) -> None:
    r = client.post("/api/lobby/seeks", json={"game": "uttt", "casual": False})
    assert r.status_code == 403 and r.json()["error"]["code"] == "sign_in_required"
    alice = Browser(client).sign("Alice", new=True)
    seek = alice.post("/api/lobby/seeks", json={"game": "uttt", "casual": False}).json()["seek"]
    r = Browser(client).post(f"/api/lobby/seeks/{seek['id']}/accept")
    assert r.status_code == 403 and r.json()["error"]["code"] == "sign_in_required"
    bob = Browser(client).sign("Bob", new=True)
    r = bob.post(f"/api/lobby/seeks/{seek['id']}/accept")
    assert r.status_code == 200, r.text
    seat = r.json()["seek"]["seat"]
    game = bob.get(f"/api/games/{seat['id']}").json()
    assert game["casual"] is False and game["you"] == seat["seats"]  # bound to Bob's account
    assert alice.get(f"/api/games/{seat['id']}").json()["you"] == [1 - seat["seats"][0]]
    mine = alice.get("/api/account/games").json()["games"]
    assert [g["id"] for g in mine] == [seat["id"]]


def test_the_poster_cancels_and_nobody_else_can(client: TestClient) -> None:
    posted = post(client)
    other = post(client)
    seek_id = posted["seek"]["id"]
    for ticket, status in ((None, 401), (other["ticket"], 403), ("forged", 403)):
        r = client.delete(f"/api/lobby/seeks/{seek_id}", headers=bearer(ticket))
        assert r.status_code == status, r.text
    assert seek_id in listed(client)
    assert client.delete(f"/api/lobby/seeks/{seek_id}", headers=bearer(posted["ticket"])).json()
    assert listed(client) == [other["seek"]["id"]]
    r = client.post(f"/api/lobby/seeks/{seek_id}/accept")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_seek"


def test_a_seek_goes_when_its_poster_stops_looking(client: TestClient, clock: Clock) -> None:
    kept = post(client)
    left = post(client)
    clock.now += SEEN_TIMEOUT * 0.8
    assert look(client, kept["seek"]["id"], kept["ticket"]).status_code == 200
    clock.now += SEEN_TIMEOUT * 0.8
    assert listed(client) == [kept["seek"]["id"]]
    r = look(client, left["seek"]["id"], left["ticket"])
    assert r.status_code == 404


def test_a_challenge_seek_for_three_fills_up_before_starting(client: TestClient, api: Api) -> None:
    posted = post(client, game="challenge", options={"players": 3, "difficulty": "easy"})
    seek_id = posted["seek"]["id"]
    assert posted["seek"]["players"] == 3
    first = client.post(f"/api/lobby/seeks/{seek_id}/accept", json={"name": "B"}).json()
    assert first["seek"]["status"] == "open" and first["seek"]["seated"] == 2
    assert first["seek"]["seat"] is None
    r = client.post(f"/api/lobby/seeks/{seek_id}/accept", headers=bearer(first["ticket"]))
    assert r.status_code == 409  # already in it
    last = client.post(f"/api/lobby/seeks/{seek_id}/accept", json={"name": "C"}).json()
    assert last["seek"]["status"] == "started"
    seats = [
        look(client, seek_id, posted["ticket"]).json()["seek"]["seat"],
        look(client, seek_id, first["ticket"]).json()["seek"]["seat"],
        last["seek"]["seat"],
    ]
    assert sorted(s["seats"][0] for s in seats) == [0, 1, 2]
    game = api.get(seats[0]["id"], seats[0]["token"])
    assert len(game["seats"]) == 3 and all(s["taken"] for s in game["seats"])


def test_a_joiner_of_a_seek_may_leave_it(client: TestClient) -> None:
    posted = post(client, game="challenge", options={"players": 3})
    seek_id = posted["seek"]["id"]
    joined = client.post(f"/api/lobby/seeks/{seek_id}/accept").json()
    r = client.delete(f"/api/lobby/seeks/{seek_id}", headers=bearer(joined["ticket"]))
    assert r.status_code == 200
    assert look(client, seek_id, posted["ticket"]).json()["seek"]["seated"] == 1
    assert look(client, seek_id, joined["ticket"]).status_code == 403


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "nope"}, 422, "unknown_game"),
        ({"game": "challenge", "options": {"players": 9}}, 422, "bad_options"),
        ({"game": "uttt", "options": {"colour": 3}}, 422, "bad_options"),
        ({"game": "uttt", "time_control": {"initial_seconds": 0}}, 422, "invalid_request"),
        # JSON booleans and strings are not seconds (they once passed as 1, 0 or 60 s)
        ({"game": "uttt", "time_control": {"initial_seconds": True}}, 422, "invalid_request"),
        (
            {"game": "uttt", "time_control": {"initial_seconds": 60, "increment_seconds": False}},
            422,
            "invalid_request",
        ),
        ({"game": "uttt", "time_control": {"initial_seconds": "60"}}, 422, "invalid_request"),
        ({"game": "uttt", "extra": 1}, 422, "invalid_request"),
    ],
)
def test_bad_seeks_are_refused_and_nothing_is_listed(
    client: TestClient, body: dict, status: int, code: str
) -> None:
    r = client.post("/api/lobby/seeks", json=body)
    assert r.status_code == status and r.json()["error"]["code"] == code, r.text
    assert listed(client) == []


def test_seeks_count_against_the_limit_of_games_created(db_path: str) -> None:
    limits = RateLimits(requests=None, creates="3/minute", accounts=None)
    with make_client(db_path, rate_limits=limits) as client:
        posted = post(client)
        client.post(f"/api/lobby/seeks/{posted['seek']['id']}/accept")
        assert client.post("/api/lobby/pairing", json={"game": "uttt"}).status_code == 201
        r = client.post("/api/lobby/seeks", json={"game": "uttt"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert listed(client) == []


def test_anonymous_seeks_are_capped_per_address(client: TestClient) -> None:
    """One address cannot fill the lobby with anonymous seeks: past its share it is
    refused, and everyone else can still post."""
    for _ in range(MAX_SEEKS_PER_ADDRESS):
        post(client)
    refused = post(client, 409)["error"]
    assert refused["code"] == "too_many_seeks"
    assert f"at most {MAX_SEEKS_PER_ADDRESS}" in refused["message"]
    assert len(listed(client)) == MAX_SEEKS_PER_ADDRESS
    other = TestClient(client.app, client=("192.0.2.7", 40000))
    post(other)
    assert len(listed(client)) == MAX_SEEKS_PER_ADDRESS + 1
