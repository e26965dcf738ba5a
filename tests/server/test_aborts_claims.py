"""Rated games that never started, and rated games left hanging: aborts and claims.

A rated game is aborted (unrated, without a result) when it ends before every seat
has moved: by an abort, a resignation, a fallen flag or a claim. A player whose
opponent left (no socket, no move) may claim the game once the grace period passed.
"""

from __future__ import annotations

import random
import time

import pytest
from fastapi.testclient import TestClient

from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import FEW_BLANKS, pick
from tests.server.test_rated_games import profile, rated_game
from tests.server.test_seat_accounts import Browser


@pytest.fixture
def two(client: TestClient, fast_hashing: None) -> tuple[Browser, Browser]:
    return Browser(client).sign("Alice", new=True), Browser(client).sign("Bob", new=True)


def game_of(browser: Browser, gid: str) -> dict:
    r = browser.get(f"/api/games/{gid}")
    assert r.status_code == 200, r.text
    return r.json()


def move(browser: Browser, gid: str, rng: random.Random | None = None) -> dict:
    game = game_of(browser, gid)
    legal = game["view"]["legal_moves"]
    chosen = pick(legal, rng) if rng else legal[0]
    r = browser.post(f"/api/games/{gid}/moves", json={"move": chosen, "state": game["state"]})
    assert r.status_code == 200, r.text
    return r.json()


def assert_aborted(browser: Browser, gid: str, *names: str) -> dict:
    game = game_of(browser, gid)
    assert (game["status"], game["result"], game["termination"]) == ("aborted", None, "aborted")
    assert all("change" not in s["rating"] for s in game["seats"])
    for name in names:
        assert profile(browser, name)["ratings"] == []
    listed = browser.get("/api/games", params={"status": "aborted"}).json()["games"]
    assert gid in [g["id"] for g in listed]
    return game


@pytest.mark.parametrize("moves_before", [0, 1])
def test_an_instant_resignation_aborts_a_rated_game(two, moves_before: int) -> None:
    alice, bob = two
    gid = rated_game(alice, bob)
    for _ in range(moves_before):
        move(alice, gid)
    r = alice.post(f"/api/games/{gid}/resign", json={})
    assert r.status_code == 200, r.text
    assert r.json()["ratings"] is None and r.json()["result"] is None
    assert_aborted(alice, gid, "alice", "bob")


def test_a_flag_before_the_first_move_aborts_a_rated_game(two) -> None:
    alice, bob = two
    gid = rated_game(alice, bob, time_control={"initial_seconds": 1})
    deadline = time.monotonic() + 30
    while game_of(alice, gid)["status"] == "active":
        assert time.monotonic() < deadline, "the flag never fell"
        time.sleep(0.05)
    assert_aborted(alice, gid, "alice", "bob")


def test_either_side_aborts_before_every_seat_moved_and_not_after(two, client) -> None:
    alice, bob = two
    gid = rated_game(alice, bob)
    r = bob.post(f"/api/games/{gid}/abort", json={})  # not his turn: he may abort all the same
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "aborted"
    assert_aborted(alice, gid)
    again = alice.post(f"/api/games/{gid}/abort", json={})
    assert again.status_code == 409 and again.json()["error"]["code"] == "game_over"

    gid = rated_game(alice, bob)
    move(alice, gid)  # Bob has not moved yet: Alice may still abort
    with alice.websocket(f"/api/games/{gid}/ws", "http://testserver") as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_json({"type": "abort", "id": 1})
        seen = []
        while (message := ws.receive_json())["type"] != "ack":
            seen.append(message)
    kinds = [m["type"] for m in seen]
    assert "abort" in kinds and "game_over" in kinds
    over = next(m for m in seen if m["type"] == "game_over")
    assert over["result"] is None and over["termination"] == "aborted"
    assert_aborted(alice, gid)

    gid = rated_game(alice, bob)
    move(alice, gid)
    move(bob, gid)
    late = alice.post(f"/api/games/{gid}/abort", json={})
    assert late.status_code == 409 and late.json()["error"]["code"] == "no_abort"
    assert client.post(f"/api/games/{gid}/abort", json={}).status_code == 401
    casual = rated_game(alice, bob, casual=True)
    refused = alice.post(f"/api/games/{casual}/abort", json={})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "no_abort"
    assert game_of(alice, gid)["status"] == "active"
    assert game_of(alice, casual)["status"] == "active"


def test_a_sudoku_challenge_is_aborted_until_every_seat_moved(client, fast_hashing) -> None:
    players = [Browser(client).sign(n, new=True) for n in ("Ann", "Ben", "Cat")]
    body = {"game": "challenge", "casual": False, "options": {"players": 3, "puzzle": FEW_BLANKS}}
    gid = players[0].post("/api/games", json=body).json()["id"]
    for p in players[1:]:
        assert p.post(f"/api/games/{gid}/join", json={}).status_code == 200
    rng = random.Random(1)
    moved: set[int] = set()
    while len(moved) < 2:  # two seats move (a right digit may keep the turn)
        seat = game_of(players[0], gid)["view"]["to_move"]
        move(players[seat], gid, rng)
        moved.add(seat)
    (last,) = {0, 1, 2} - moved
    r = players[last].post(f"/api/games/{gid}/resign", json={})
    assert r.status_code == 200 and r.json()["result"] is None
    assert_aborted(players[0], gid, "ann", "ben", "cat")


def left_by_bob(alice: Browser, bob: Browser) -> str:
    """A rated game where both moved and Bob, to move, has no page open."""
    gid = rated_game(alice, bob)
    move(alice, gid)
    move(bob, gid)
    move(alice, gid)
    return gid


def later(client: TestClient, seconds: float) -> None:
    """The claims' clock runs ``seconds`` ahead from now on."""
    client.app.state.service.moves.time = lambda: time.time() + seconds


def test_a_claim_is_refused_in_the_grace_period_and_wins_after_it(two, client) -> None:
    alice, bob = two
    gid = left_by_bob(alice, bob)
    early = alice.post(f"/api/games/{gid}/claim", json={})
    assert early.status_code == 409, early.text
    error = early.json()["error"]
    assert error["code"] == "too_early" and 0 < error["detail"]["retry_after"] <= 60
    assert game_of(alice, gid)["status"] == "active"
    later(client, 61)
    mine = bob.post(f"/api/games/{gid}/claim", json={})  # his own turn: nothing to claim
    assert mine.status_code == 409 and mine.json()["error"]["code"] == "not_their_turn"
    with bob.websocket(f"/api/games/{gid}/ws", "http://testserver") as ws:
        assert ws.receive_json()["type"] == "hello"
        here = alice.post(f"/api/games/{gid}/claim", json={})
        assert here.status_code == 409 and here.json()["error"]["code"] == "opponent_present"
    later(client, 30)
    left = alice.post(f"/api/games/{gid}/claim", json={})  # he just left: grace again
    assert left.status_code == 409 and left.json()["error"]["code"] == "too_early"
    later(client, 122)
    with alice.websocket(f"/api/games/{gid}/ws", "http://testserver") as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_json({"type": "claim", "id": "c"})
        while (message := ws.receive_json())["type"] != "game_over":
            pass
    assert message["result"]["winners"] == [0] and message["termination"] == "abandonment"
    assert {e["name"]: e["change"][0] for e in message["ratings"]} == {"Alice": "+", "Bob": "-"}
    game = game_of(alice, gid)
    assert (game["status"], game["termination"]) == ("finished", "abandonment")


def test_a_claim_before_every_seat_moved_aborts(two, client) -> None:
    alice, bob = two
    gid = rated_game(alice, bob)
    move(alice, gid)
    later(client, 3600)
    r = alice.post(f"/api/games/{gid}/claim", json={})
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "aborted"
    assert_aborted(alice, gid, "alice", "bob")
