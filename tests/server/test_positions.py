"""``POST /api/positions``: a position set up by moves, judged by the engine."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

import sansu


def test_a_position_answers_the_engines_view_and_whose_move_it_is(client: TestClient) -> None:
    moves = ["r5c5", "r4c4"]
    r = client.post("/api/positions", json={"game": "uttt", "moves": moves})
    assert r.status_code == 200, r.text
    body = r.json()
    state = sansu.load_game("uttt").play_moves(moves)
    assert body["view"] == state.view(None)
    assert body["to_move"] == state.to_move == 0
    assert body["ply"] == 2 and body["over"] is False and body["result"] is None
    assert body["moves"] == moves


def test_an_illegal_move_is_refused_with_the_engines_reason(client: TestClient) -> None:
    r = client.post("/api/positions", json={"game": "uttt", "moves": ["r5c5", "r1c1"]})
    assert r.status_code == 422
    body = r.json()["error"]
    try:
        sansu.load_game("uttt").play_moves(["r5c5"]).play("r1c1")
    except sansu.IllegalMove as error:
        reason = str(error)
    assert body["code"] == "illegal_move" and body["detail"]["number"] == 2
    assert body["detail"]["reason"] == reason and reason in body["message"]


def test_a_finished_game_names_its_result(client: TestClient) -> None:
    rng = random.Random(7)
    state = sansu.load_game("uttt").initial_state()
    moves = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    body = client.post("/api/positions", json={"game": "uttt", "moves": moves}).json()
    assert body["over"] is True and body["to_move"] is None
    assert body["result"] == state.result.to_dict() and body["ply"] == len(moves)


def test_bad_options_and_seats_are_refused(client: TestClient) -> None:
    r = client.post("/api/positions", json={"game": "uttt", "options": {"nope": 1}})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_options"
    r = client.post("/api/positions", json={"game": "uttt", "viewer": 5})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_viewer"
    r = client.post("/api/positions", json={"game": "chess"})
    assert r.status_code == 422
