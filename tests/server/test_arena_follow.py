"""Arenas: the first-move deadline (a player who lets a new game go by without a move loses
it and is paused, never farmed), joining again after a pause, and the tournament's news
that tells a waiting page of each new pairing at once."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from sansu.server.tournaments.formats import arena
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.test_seat_accounts import SITE, Browser
from tests.server.test_tournaments_api import (
    act,
    create,
    finished,
    look,
    open_games,
    people,
    resign,
    wait_for,
)


@pytest.fixture
def duo(client: TestClient, fast_hashing: None) -> dict[str, Browser]:
    return people(client, "Alice", "Bob")


def arena_of(ps: dict[str, Browser], **body: Any) -> dict[str, Any]:
    """A running arena of Alice and Bob."""
    tid = create(ps["Alice"], format="arena", minutes=10, **body)["id"]
    act(ps["Alice"], tid, "join")
    act(ps["Bob"], tid, "join")
    return act(ps["Alice"], tid, "start")


def line(t: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in t["standings"] if s["name"] == name)


def test_first_move_seconds_follow_lichess_speeds() -> None:
    assert arena.first_move_seconds({"initial_seconds": 60, "increment_seconds": 0}) == 20
    assert arena.first_move_seconds({"initial_seconds": 180, "increment_seconds": 2}) == 25
    assert arena.first_move_seconds({"initial_seconds": 600, "increment_seconds": 5}) == 30
    assert arena.idle_losers({1}, ["loss", "win"], "no_start") == [0]
    assert arena.idle_losers({1}, ["loss", "win"], "no_start", absent=()) == [0]  # present or not
    assert arena.idle_losers(set(), ["loss", "win"], "time", absent={0, 1}) == [0]
    assert arena.idle_losers(set(), ["loss", "win"], "time", absent={1}) == []  # slow, not gone
    assert arena.idle_losers(set(), ["loss", "win"], "resignation") == []  # a choice, not absence
    assert arena.idle_losers({0}, ["loss", "win"], "time") == []  # played, then flagged


@pytest.mark.parametrize("idle_seat", [0, 1])
def test_a_player_who_does_not_move_loses_once_and_is_paused(
    client: TestClient,
    duo: dict[str, Browser],
    monkeypatch: pytest.MonkeyPatch,
    idle_seat: int,
) -> None:
    # Long enough for the first seat to move on a busy machine, short for a test.
    monkeypatch.setattr(arena, "first_move_seconds", lambda tc: 2.0)
    t = arena_of(duo)
    (p,) = open_games(t)
    names = [x["name"] for x in p["players"]]
    idle, mover = names[idle_seat], names[1 - idle_seat]
    game = client.get(f"/api/games/{p['game_id']}").json()
    if idle_seat == 1:  # the first seat moves; the second lets its first move go by
        r = duo[mover].post(
            f"/api/games/{p['game_id']}/moves", json={"move": "r5c5", "state": game["state"]}
        )
        assert r.status_code == 200, r.text
    t = wait_for(client, t["id"], lambda t: finished(t) == 1)
    game = client.get(f"/api/games/{p['game_id']}").json()
    assert game["termination"] == "no_start"
    assert game["result"]["winners"] == [1 - idle_seat]
    assert line(t, idle)["paused"] and not line(t, idle)["withdrawn"]
    assert not line(t, mover)["paused"]
    assert line(t, mover)["score"] == 2 and line(t, idle)["score"] == 0
    # Not paired again while paused: the mover is not farmed a second win.
    time.sleep(1.0)
    t = look(client, t["id"])
    assert not open_games(t) and finished(t) == 1 and line(t, mover)["score"] == 2
    # Joining again brings the player back: paired at once.
    t = act(duo[idle], t["id"], "join")
    assert not line(t, idle)["paused"]
    assert len(open_games(t)) == 1


def test_a_player_who_moved_is_not_paused_by_the_deadline(
    client: TestClient, duo: dict[str, Browser], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(arena, "first_move_seconds", lambda tc: 2.0)
    t = arena_of(duo)
    (p,) = open_games(t)
    gid = p["game_id"]
    first, second = (duo[x["name"]] for x in p["players"])
    game = client.get(f"/api/games/{gid}").json()
    r = first.post(f"/api/games/{gid}/moves", json={"move": "r5c5", "state": game["state"]})
    assert r.status_code == 200, r.text
    r = second.post(f"/api/games/{gid}/moves", json={"move": "r4c4", "state": r.json()["state"]})
    assert r.status_code == 200, r.text
    time.sleep(2.5)  # past both deadlines: every seat moved, the game goes on
    assert client.get(f"/api/games/{gid}").json()["status"] == "active"
    t = look(client, t["id"])
    assert not any(s["paused"] for s in t["standings"])


@pytest.mark.parametrize("game_open", [False, True])
def test_losing_on_time_without_a_move_pauses_only_an_absent_player(
    client: TestClient, duo: dict[str, Browser], game_open: bool
) -> None:
    """A clock shorter than the deadline: a player whose seat nobody had open is paused; a
    slow first move with the game open (a bot loading its engine) is only a lost game."""
    t = arena_of(duo, time_control={"initial_seconds": 1, "increment_seconds": 0})
    (p,) = open_games(t)
    first = p["players"][0]["name"]
    if game_open:
        with duo[first].websocket(f"/api/games/{p['game_id']}/ws", SITE) as ws:
            assert ws.receive_json()["you"] == [0]
            while ws.receive_json()["type"] != "game_over":
                pass
    t = wait_for(client, t["id"], lambda t: finished(t) == 1)
    assert client.get(f"/api/games/{p['game_id']}").json()["termination"] == "time"
    assert line(t, first)["paused"] is not game_open


def test_resigning_does_not_pause(client: TestClient, duo: dict[str, Browser]) -> None:
    t = arena_of(duo)
    (p,) = open_games(t)
    resign(duo[p["players"][0]["name"]], p["game_id"])
    t = wait_for(client, t["id"], lambda t: finished(t) == 1 and len(open_games(t)) == 1)
    assert not any(s["paused"] for s in t["standings"])


def test_news_answers_at_once_with_each_new_pairing(
    client: TestClient, duo: dict[str, Browser]
) -> None:
    t = arena_of(duo)
    (p,) = open_games(t)
    assert look(client, t["id"])["version"] == t["version"]
    # A version the page has not seen: answered at once.
    r = client.get(f"/api/tournaments/{t['id']}/news", params={"since": "old"})
    assert r.status_code == 200 and r.json()["version"] == t["version"]
    # The current version: the answer waits for the next change, the new pairing.
    answers: list[tuple[float, dict[str, Any]]] = []

    def wait() -> None:
        began = time.monotonic()
        r = client.get(f"/api/tournaments/{t['id']}/news", params={"since": t["version"]})
        answers.append((time.monotonic() - began, r.json()))

    waiting = threading.Thread(target=wait)
    waiting.start()
    time.sleep(0.5)
    assert not answers  # nothing changed yet
    resign(duo[p["players"][1]["name"]], p["game_id"])
    waiting.join(15)
    ((took, news),) = answers
    assert took < 10 and news["version"] != t["version"]
    news = wait_for(client, t["id"], lambda t: len(open_games(t)) == 1)
    (q,) = open_games(news)
    assert q["game_id"] != p["game_id"]
    assert {x["name"] for x in q["players"]} == {"Alice", "Bob"}


def test_news_of_an_unknown_tournament_is_refused(client: TestClient) -> None:
    r = client.get("/api/tournaments/nosuch/news")
    assert r.status_code == 404
    r = client.get("/api/tournaments/nosuch/news", params={"since": "x" * 40})
    assert r.status_code == 422
