"""The archive: list and filter games, replay them move by move, export and import records."""

from __future__ import annotations

import random

import sansu
from tests.server.conftest import Api


def test_list_filter_replay_export_import(api: Api) -> None:
    gid, tokens = api.two_players("uttt")
    final = api.play_random(gid, tokens, random.Random(11))
    other, other_tokens = api.two_players("sansumoku")
    c = api.client
    assert [g["id"] for g in c.get("/api/games", params={"game": "uttt"}).json()["games"]] == [gid]
    active = c.get("/api/games", params={"status": "active"}).json()
    assert [g["id"] for g in active["games"]] == [other] and active["total"] == 1
    page = c.get("/api/games", params={"limit": 1, "offset": 1}).json()
    assert page["total"] == 2 and len(page["games"]) == 1
    summary = c.get("/api/games", params={"status": "archive"}).json()["games"][0]
    assert summary["result"] == final["result"] and summary["seats"][0]["taken"]
    assert "token_hash" not in str(summary)

    moves = [m["move"] for m in final["moves"]]
    for ply in (0, 1, len(moves)):
        position = c.get(f"/api/games/{gid}/positions/{ply}").json()
        expected = sansu.load_game("uttt").play_moves(moves[:ply])
        assert position["view"] == expected.view(None)
        assert position["move"] == (moves[ply - 1] if ply else None)
    assert c.get(f"/api/games/{gid}/positions/{len(moves) + 1}").status_code == 404

    record = c.get(f"/api/games/{gid}/record").json()
    assert record["format"] == "sansu-record" and record["moves"] == moves
    assert record["metadata"]["server_game"] == gid
    r = c.post("/api/records", json=record)
    assert r.status_code == 201, r.text
    imported = api.get(r.json()["id"])
    assert imported["status"] == "finished" and imported["result"] == final["result"]
    assert [m["move"] for m in imported["moves"]] == moves
    assert c.get(f"/api/games/{imported['id']}/record").json()["moves"] == moves

    # a resigned game keeps its result through export and import
    api.post(other, "resign", other_tokens[1])
    resigned = c.get(f"/api/games/{other}/record").json()
    assert resigned["result"] is None and resigned["metadata"]["termination"] == "resignation"
    back = api.get(c.post("/api/records", json=resigned).json()["id"])
    assert back["result"]["winners"] == [0] and back["termination"] == "resignation"


def test_unfinished_and_bad_records(api: Api) -> None:
    c = api.client
    r = c.post("/api/records", json={"game": "uttt", "moves": ["r5c5", "r4c4"]})
    assert r.status_code == 201
    game = api.get(r.json()["id"])
    assert game["status"] == "imported" and game["ply"] == 2
    bad = {
        "not a record": ([1, 2], "a game record is a JSON object"),
        "illegal": ({"game": "uttt", "moves": ["r5c5", "r5c5"]}, "move 2"),
        "unknown game": ({"game": "go", "moves": []}, "unknown game"),
        "wrong result": (
            {
                "game": "uttt",
                "moves": ["r5c5"],
                "result": {"winners": [0], "draw": False, "scores": None, "reason": "x"},
            },
            "stored result",
        ),
    }
    for name, (body, says) in bad.items():
        r = c.post("/api/records", json=body)
        assert r.status_code == 422, name
        assert r.json()["error"]["code"] == "bad_record" and says in r.json()["error"]["message"]
    assert c.get("/api/games").json()["total"] == 1


def test_finished_games_leave_memory_but_not_the_store(api: Api) -> None:
    gid, tokens = api.two_players("uttt")
    active = api.get(gid)
    service = api.client.app.state.service
    assert not service.rounds.evict(gid)  # a game in play stays
    api.post(gid, "resign", tokens[0])
    before = api.get(gid)
    assert service.rounds.evict(gid) and gid not in service.rounds.games
    after = api.get(gid)
    assert after == before and after["state"] == active["state"] + 1


def test_an_imported_records_moves_are_their_movers(api: Api) -> None:
    rng = random.Random(3)
    state = sansu.load_game("sumodoku").initial_state()
    moves, movers = [], []
    while not state.is_over and len(moves) < 40:
        move = rng.choice(state.legal_moves())
        movers.append(state.to_move)
        moves.append(str(move))
        state = state.play(move)
    record = sansu.GameRecord("sumodoku", dict(state.game.options), moves, {}).to_dict()
    r = api.client.post("/api/records", json=record)
    assert r.status_code == 201, r.text
    game = api.client.get(f"/api/games/{r.json()['id']}").json()
    assert [m["seat"] for m in game["moves"]] == movers
    assert [m["move"] for m in game["moves"]] == moves
