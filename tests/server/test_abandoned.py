"""Abandoned games: in play, but no player moved or had the page open for a while.

They leave the list of games to watch for a list of their own, and stay whole:
they load by their link and go on at their player's next move.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.conftest import Api, make_client

AFTER = 1.0
"""Seconds of silence after which these tests' server calls a game abandoned."""


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Api]:
    with make_client(str(tmp_path / "sansu.db"), abandon_after=AFTER) as client:
        yield Api(client)


def listed(api: Api, status: str) -> dict[str, dict]:
    r = api.client.get("/api/games", params={"status": status})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["total"] == len(body["games"])
    return {g["id"]: g for g in body["games"]}


def human_to_move(api: Api, gid: str, token: str) -> dict:
    for _ in range(500):
        game = api.get(gid, token)
        if game["status"] != "active" or game["view"]["to_move"] == 0:
            return game
        time.sleep(0.02)
    raise AssertionError("the computer did not move")


def against_the_computer(api: Api) -> tuple[str, str]:
    created = api.create(
        "uttt", seats=[{"kind": "human"}, {"kind": "computer", "level": "beginner"}]
    )
    gid, token = created["id"], created["token"]
    game = api.get(gid, token)
    assert api.move(gid, token, game["view"]["legal_moves"][0], game["state"]).status_code == 200
    human_to_move(api, gid, token)
    return gid, token


def test_a_left_computer_game_is_listed_apart_and_still_plays(quick: Api) -> None:
    gid, token = against_the_computer(quick)
    assert gid in listed(quick, "active")
    assert gid not in listed(quick, "abandoned")
    time.sleep(AFTER + 0.3)
    assert gid not in listed(quick, "active")
    abandoned = listed(quick, "abandoned")
    assert abandoned[gid]["abandoned"] is True
    assert abandoned[gid]["status"] == "active"
    # never lost: it loads by its link, and its player's move brings it back
    game = human_to_move(quick, gid, token)
    assert game["status"] == "active" and game["moves"]
    r = quick.move(gid, token, game["view"]["legal_moves"][0], game["state"])
    assert r.status_code == 200, r.text
    again = listed(quick, "active")
    assert again[gid]["abandoned"] is False
    assert gid not in listed(quick, "abandoned")


def test_a_player_with_the_page_open_is_not_abandoned(quick: Api) -> None:
    gid, token = against_the_computer(quick)
    with quick.client.websocket_connect(
        f"/api/games/{gid}/ws", subprotocols=["sansu", f"token.{token}"]
    ) as ws:
        assert ws.receive_json()["type"] == "hello"
        time.sleep(AFTER + 0.3)
        assert gid in listed(quick, "active")  # thinking long, but here
        assert gid not in listed(quick, "abandoned")
    # the page closed just now: still counted as played until AFTER has passed again
    assert gid in listed(quick, "active")
    time.sleep(AFTER + 0.3)
    assert gid in listed(quick, "abandoned")


def test_spectators_do_not_keep_a_game_alive(quick: Api) -> None:
    gid, _token = against_the_computer(quick)
    with quick.client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["type"] == "hello"
        time.sleep(AFTER + 0.3)
        assert gid in listed(quick, "abandoned")
        assert gid not in listed(quick, "active")


def test_finished_games_are_never_abandoned(quick: Api) -> None:
    gid, token = against_the_computer(quick)
    assert quick.post(gid, "resign", token).status_code == 200
    time.sleep(AFTER + 0.3)
    assert gid not in listed(quick, "abandoned")
    assert listed(quick, "finished")[gid]["abandoned"] is False


def test_an_unknown_status_is_refused(quick: Api) -> None:
    r = quick.client.get("/api/games", params={"status": "left"})
    assert r.status_code == 422
