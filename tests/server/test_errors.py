"""Every bad request gets a clear JSON error and changes nothing."""

from __future__ import annotations

import pytest

from tests.server.conftest import Api, bearer


def error(r, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    body = r.json()["error"]
    assert body["code"] == code, body
    assert body["message"]
    return body["message"]


@pytest.mark.parametrize(
    ("body", "status", "code", "says"),
    [
        ({"game": "chess"}, 422, "unknown_game", "unknown game 'chess'"),
        ({"game": "uttt", "options": {"size": 3}}, 422, "bad_options", "unknown option 'size'"),
        ({"game": "thirtyfive", "options": {"rows": 99}}, 422, "bad_options", "rows"),
        ({"game": "uttt", "seats": [{"kind": "human"}]}, 422, "bad_seats", "2 seats"),
        (
            {"game": "uttt", "seats": [{"kind": "human"}, {"kind": "computer", "level": "god"}]},
            422,
            "bad_seats",
            "unknown level 'god'",
        ),
        ({"game": "uttt", "take": [1], "seats": [{}, {"kind": "computer"}]}, 422, "bad_seat", ""),
        ({"game": "uttt", "colour": "red"}, 422, "invalid_request", "colour"),
        ({"game": "uttt", "time_control": {"initial_seconds": 0}}, 422, "invalid_request", ""),
        ({"options": {}}, 422, "invalid_request", "game"),
        # a value of another JSON type than the schema's, which lax parsing once converted
        ({"game": "uttt", "watchable": "yes"}, 422, "invalid_request", "watchable"),
        ({"game": "uttt", "watchable": 1}, 422, "invalid_request", "watchable"),
        ({"game": "uttt", "time_control": {"initial_seconds": True}}, 422, "invalid_request", ""),
        ({"game": "uttt", "time_control": {"initial_seconds": "60"}}, 422, "invalid_request", ""),
    ],
)
def test_bad_games_are_refused(api: Api, body: dict, status: int, code: str, says: str) -> None:
    message = error(api.client.post("/api/games", json=body), status, code)
    assert says in message
    assert api.client.get("/api/games").json()["total"] == 0


def test_malformed_and_oversized_bodies(api: Api) -> None:
    c = api.client
    headers = {"content-type": "application/json"}
    error(c.post("/api/games", content=b'{"game": "uttt"', headers=headers), 400, "malformed_json")
    error(c.post("/api/games", content=b"[1, 2]", headers=headers), 422, "invalid_request")
    big = b'{"game": "uttt", "name": "' + b"x" * 100_000 + b'"}'
    error(c.post("/api/games", content=big, headers=headers), 413, "too_large")
    error(c.post("/api/records", content=b"{nope", headers=headers), 400, "malformed_json")
    assert c.get("/api/games").json()["total"] == 0


def test_unknown_things(api: Api) -> None:
    c = api.client
    error(c.get("/api/games/nosuchgame"), 404, "no_such_game")
    error(
        c.post("/api/games/nosuchgame/moves", json={"move": "r1c1", "state": 0}),
        404,
        "no_such_game",
    )
    error(c.get("/api/nothing-here"), 404, "not_found")
    error(c.put("/api/games"), 405, "method_not_allowed")
    error(c.get("/api/games", params={"game": "chess"}), 422, "unknown_game")
    error(c.get("/api/games", params={"limit": 0}), 422, "invalid_request")


def test_illegal_moves_name_the_rule_and_change_nothing(api: Api) -> None:
    gid, tokens = api.two_players("sansumoku")
    before = api.get(gid)
    for move, says in (
        ("r10c1", "no cell r10c1"),
        ("hello", "not a move"),
        ("", "a move is text"),
    ):
        message = error(api.move(gid, tokens[0], move, 0), 422, "illegal_move")
        assert says in message, message
    assert api.move(gid, tokens[0], "r5c5", 0).status_code == 200
    message = error(api.move(gid, tokens[1], "r5c5", 1), 422, "illegal_move")
    assert message.startswith("r5c5:")
    assert api.get(gid)["ply"] == 1 and before["ply"] == 0


def test_numbers_and_flags_of_another_json_type_are_refused_and_change_nothing(api: Api) -> None:
    """``false`` is no state number and ``true`` no seat (lax parsing read them as 0 and 1)."""
    gid, tokens = api.two_players("uttt")
    c = api.client
    error(api.move(gid, tokens[0], "r5c5", False), 422, "invalid_request")  # type: ignore[arg-type]
    error(api.move(gid, tokens[0], "r5c5", "0"), 422, "invalid_request")  # type: ignore[arg-type]
    assert api.get(gid)["ply"] == 0
    created = api.create("uttt")
    error(c.post(f"/api/games/{created['id']}/join", json={"seat": True}), 422, "invalid_request")
    assert [s["taken"] for s in api.get(created["id"])["seats"]] == [True, False]


def test_seat_refusals(api: Api) -> None:
    created = api.create("uttt", seats=[{"kind": "human"}, {"kind": "computer"}])
    gid = created["id"]
    c = api.client
    error(c.post(f"/api/games/{gid}/join", json={"seat": 1}), 409, "seat_taken")
    error(c.post(f"/api/games/{gid}/join", json={"seat": 0}), 409, "seat_taken")
    error(c.post(f"/api/games/{gid}/join", json={}), 409, "no_free_seat")
    error(c.post(f"/api/games/{gid}/join", json={"seat": 5}), 422, "bad_seat")
    error(c.get(f"/api/games/{gid}", headers=bearer("forged")), 403, "wrong_token")
    error(c.get(f"/api/games/{gid}", headers={"Authorization": "Basic abc"}), 401, "token_required")
    error(c.post(f"/api/games/{gid}/resign"), 401, "token_required")
    error(
        c.post(f"/api/games/{gid}/rematch", headers=bearer(created["token"])), 409, "game_not_over"
    )


def test_one_device_may_hold_both_seats(api: Api) -> None:
    created = api.create("uttt", take=[0, 1])
    gid, token = created["id"], created["token"]
    assert created["seats"] == [0, 1]
    assert api.move(gid, token, "r5c5", 0).status_code == 200
    assert api.move(gid, token, "r4c4", 1).status_code == 200
    solo = api.create("uttt")
    joined = api.join(solo["id"], solo["token"], seat=1)
    assert joined["token"] == solo["token"] and joined["seats"] == [0, 1]
