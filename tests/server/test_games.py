"""Every registered game through the API: a whole game, watching, resigning, rematch, takeback,
and the refusals of stale moves and wrong tokens."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

import sansu
from tests.server.conftest import GAME_OPTIONS, SOLUTION, Api, bearer, legal, pick

GAMES = sansu.game_ids()


def wait_for_human(api: Api, gid: str, token: str, humans: set[int], timeout: float = 20) -> dict:
    """Polls until a human seat is to move or the game is over (computers think meanwhile)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        game = api.get(gid, token)
        if game["status"] != "active" or game["view"]["to_move"] in humans:
            return game
        time.sleep(0.01)
    raise AssertionError("the computer did not move")


def drain(ws: Any, until: str) -> list[dict[str, Any]]:
    """Messages from a test WebSocket up to and including the first of type ``until``."""
    out = []
    while True:
        message = ws.receive_json()
        out.append(message)
        if message["type"] == until:
            return out


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_online_with_a_spectator(api: Api, game: str) -> None:
    gid, tokens = api.two_players(game)
    with api.client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        hello = watcher.receive_json()
        assert hello["type"] == "hello" and hello["you"] == [] and hello["view"]["ply"] == 0
        final = api.play_random(gid, tokens, random.Random(game))
        messages = drain(watcher, "game_over")
    assert final["status"] == "finished" and final["termination"] == "rules"
    moves = [m["move"] for m in final["moves"]]
    replayed = sansu.load_game(game, **GAME_OPTIONS.get(game, {})).play_moves(moves)
    assert final["result"] == replayed.result.to_dict()
    assert final["view"] == json.loads(json.dumps(replayed.view(0)))
    events = [m for m in messages if "seq" in m]
    assert [e["seq"] for e in events] == list(range(events[0]["seq"], events[-1]["seq"] + 1))
    assert [e["move"] for e in events if e["type"] == "move"] == moves
    last = [e for e in events if e["type"] == "move"][-1]
    assert last["view"]["result"] == final["result"] and last["status"] == "finished"
    # the finished game is in the archive and its record replays
    listed = api.client.get("/api/games", params={"status": "finished", "game": game}).json()
    assert gid in [g["id"] for g in listed["games"]]
    record = api.client.get(f"/api/games/{gid}/record").json()
    assert sansu.GameRecord.from_dict(record).moves == moves


@pytest.mark.parametrize("game", GAMES)
def test_resign_then_rematch_with_seats_turned(api: Api, game: str) -> None:
    gid, tokens = api.two_players(game)
    api.play_random(gid, tokens, random.Random(1), stop_after=2)
    state = api.get(gid)["state"]
    r = api.post(gid, "resign", tokens[1], state=state)
    assert r.status_code == 200, r.text
    over = api.get(gid)
    assert over["status"] == "finished" and over["termination"] == "resignation"
    assert 1 not in over["result"]["winners"] and over["result"]["winners"]
    to_move = over["view"]["to_move"]
    r = api.move(gid, tokens.get(to_move, tokens[0]), "r1c1", over["state"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_over"
    first = api.post(gid, "rematch", tokens[0]).json()
    assert first == {"offers": [0], "game_id": None}
    second = api.post(gid, "rematch", tokens[1]).json()
    new_id = second["game_id"]
    assert new_id and new_id != gid
    players = len(tokens)
    for seat, token in tokens.items():
        again = api.get(new_id, token)
        assert again["you"] == [(seat + 1) % players]
        assert again["rematch_of"] == gid and again["status"] == "active"
    assert api.get(gid)["rematch"]["game_id"] == new_id


@pytest.mark.parametrize("game", GAMES)
def test_takeback_against_the_computer(api: Api, game: str) -> None:
    created = api.create(game, seats=[{"kind": "human"}, {"kind": "computer", "level": "beginner"}])
    gid, token = created["id"], created["token"]
    rng = random.Random(3)
    now = created["game"]
    history = [now]
    while not any(m["seat"] == 1 for m in now["moves"]):  # until the computer answered
        assert now["status"] == "active"
        r = api.move(gid, token, pick(legal(now), rng), now["state"])
        assert r.status_code == 200, r.text
        now = wait_for_human(api, gid, token, {0})
        history.append(now)
    assert now["can_take_back"]
    r = api.post(gid, "takeback", token, state=now["state"])
    assert r.status_code == 200, r.text
    back = api.get(gid, token)
    before = history[-2]  # just before the human's last move
    assert back["moves"] == before["moves"] and back["status"] == "active"
    assert back["view"]["cells"] == before["view"]["cells"]
    assert back["view"]["to_move"] == 0 and back["state"] > now["state"]
    # a takeback needs a computer opponent and a casual game
    gid2, tokens = api.two_players(game)
    r = api.post(gid2, "takeback", tokens[0])
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_takeback"


@pytest.mark.parametrize("game", GAMES)
def test_stale_moves_and_wrong_tokens_change_nothing(api: Api, game: str) -> None:
    gid, tokens = api.two_players(game)
    start = api.get(gid, tokens[0])
    move = pick(legal(start), random.Random(5))
    assert api.move(gid, tokens[0], move, start["state"]).status_code == 200
    now = api.get(gid, tokens[0])
    mover = now["view"]["to_move"]
    other = next(s for s in tokens if s != mover)
    chosen = pick(legal(now), random.Random(6))
    refusals = {
        "stale_state": api.move(gid, tokens[mover], chosen, start["state"]),
        "wrong_token": api.move(gid, "not-a-token", chosen, now["state"]),
        "token_required": api.move(gid, None, chosen, now["state"]),
        "not_your_turn": api.move(gid, tokens[other], chosen, now["state"]),
    }
    for code, r in refusals.items():
        assert r.json()["error"]["code"] == code, r.text
    assert refusals["stale_state"].status_code == 409
    assert refusals["stale_state"].json()["error"]["detail"]["state"] == now["state"]
    assert refusals["wrong_token"].status_code == 403
    assert refusals["token_required"].status_code == 401
    assert api.get(gid, tokens[0]) == now


def test_the_challenge_solution_never_leaves_the_server(api: Api) -> None:
    created = api.create("challenge", options={})  # a generated puzzle from a server-drawn seed
    gid = created["id"]
    tokens = {0: created["token"], 1: api.join(gid)["token"]}
    game = sansu.load_game("challenge", **api.client.app.state.service.rounds.games[gid].options)
    solution = game.initial_state().hidden_json()["solution"]
    seen: list[str] = []
    with (
        api.client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as player,
        api.client.websocket_connect(f"/api/games/{gid}/ws") as watcher,
    ):
        api.play_random(gid, tokens, random.Random(9), stop_after=6)
        state = api.get(gid)["state"]
        api.post(gid, "resign", tokens[0], state=state)
        for ws in (player, watcher):
            seen += [json.dumps(m) for m in drain(ws, "game_over")]
    assert created["game"]["options"]["seed"] is None
    seen.append(json.dumps(created))
    for token in (None, tokens[0], tokens[1]):
        seen.append(api.client.get(f"/api/games/{gid}", headers=bearer(token)).text)
    seen.append(api.client.get(f"/api/games/{gid}/positions/3").text)
    seen.append(api.client.get("/api/games", params={"game": "challenge"}).text)
    for text in seen:
        assert solution not in text
        assert '"solution"' not in text
    givens = game.initial_state().to_dict()["givens"]
    assert any(givens in text for text in seen)  # the puzzle itself is public


def test_an_active_challenge_record_is_withheld(api: Api) -> None:
    gid, _tokens = api.two_players("challenge", options={})
    r = api.client.get(f"/api/games/{gid}/record")
    assert r.status_code == 409 and r.json()["error"]["code"] == "hidden_information"
    assert SOLUTION not in r.text
