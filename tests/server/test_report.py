"""Sumodoku's honour variant: a duplicate may be reported by any seat's holder or a spectator.

The rules give the report to the "third-party observer"; the server accepts
it from anyone, in any turn, and the event says who reported.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from sansu.server.play import computer
from tests.server.conftest import Api

HONOUR = {"honour": True}


def play(api: Api, gid: str, token: str | None, move: str) -> dict[str, Any]:
    r = api.move(gid, token, move, api.get(gid)["state"])
    assert r.status_code == 200, r.text
    return r.json()


def with_a_duplicate(api: Api) -> tuple[str, dict[int, str]]:
    """An honour game where seat 0's 1 on r1c5 repeats the 1 on r1c1; seat 1 to move."""
    gid, tokens = api.two_players("sumodoku", options=HONOUR)
    for seat, move in ((0, "r1c1=1"), (1, "r9c9=5"), (0, "r1c5=1")):
        play(api, gid, tokens[seat], move)
    assert api.get(gid)["view"]["to_move"] == 1
    return gid, tokens


def test_a_spectator_reports_a_duplicate(api: Api) -> None:
    gid, _tokens = with_a_duplicate(api)
    before = api.get(gid)
    answer = play(api, gid, None, "Report R1C5")
    assert answer["move"]["move"] == "report r1c5"
    assert answer["move"]["seat"] is None
    after = api.get(gid)
    assert after["state"] == before["state"] + 1
    assert after["view"]["to_move"] == 1  # a report uses nobody's turn
    assert after["view"]["cells"][4] is None and after["status"] == "active"
    assert after["moves"][-1]["move"] == "report r1c5"
    events = api.client.get(f"/api/games/{gid}/record").json()["moves"]
    assert events[-1] == "report r1c5"


def test_any_seat_may_report_in_any_turn(api: Api) -> None:
    gid, tokens = with_a_duplicate(api)
    play(api, gid, tokens[1], "r9c5=5")  # a duplicate of seat 1's, in row 9
    assert api.get(gid)["view"]["to_move"] == 0
    answer = play(api, gid, tokens[1], "report r9c5")  # not their turn: still accepted
    assert answer["move"]["seat"] == 1
    answer = play(api, gid, tokens[0], "report r1c5")  # the mover's own piece
    assert answer["move"]["seat"] == 0
    game = api.get(gid)
    assert game["view"]["to_move"] == 0
    assert game["view"]["cells"][4] is None and game["view"]["cells"][76] is None


def test_the_event_says_who_reported(api: Api) -> None:
    gid, tokens = with_a_duplicate(api)
    with api.client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        assert watcher.receive_json()["type"] == "hello"
        watcher.receive_json()  # presence
        state = api.get(gid)["state"]
        watcher.send_json({"type": "move", "move": "report r1c5", "state": state, "id": 1})
        seen = []
        while not seen or seen[-1]["type"] != "ack":
            seen.append(watcher.receive_json())
        move = next(m for m in seen if m["type"] == "move")
        assert move["move"] == "report r1c5"
        assert move["seat"] is None and move["by"] == "spectator"
        assert move["view"]["to_move"] == 1
    play(api, gid, tokens[1], "r9c5=5")
    with api.client.websocket_connect(f"/api/games/{gid}/ws?since=0") as watcher:
        hello = watcher.receive_json()
        reports = [
            e for e in hello["missed"] if e["type"] == "move" and e["move"].startswith("report")
        ]
        assert [(e["seat"], e["by"]) for e in reports] == [(None, "spectator")]


def test_refused_reports_change_nothing(api: Api) -> None:
    gid, _tokens = with_a_duplicate(api)
    before = api.get(gid)
    for token, move, code, status in (
        (None, "report r1c1", "illegal_move", 422),  # the first of the two 1s came first
        (None, "report r2c2", "illegal_move", 422),  # empty
        (None, "report r9c9", "illegal_move", 422),  # breaks no rule
        ("not-a-token", "report r1c5", "wrong_token", 403),
        (None, "r2c2=5", "token_required", 401),  # a spectator places nothing
    ):
        r = api.move(gid, token, move, before["state"])
        assert r.status_code == status, r.text
        assert r.json()["error"]["code"] == code
    stale = api.move(gid, None, "report r1c5", before["state"] - 1)
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale_state"
    assert api.get(gid) == before


def test_no_report_without_the_honour_variant(api: Api) -> None:
    gid, tokens = api.two_players("sumodoku")
    play(api, gid, tokens[0], "r1c1=1")
    r = api.move(gid, None, "report r1c1", api.get(gid)["state"])
    assert r.status_code == 422
    assert "honour" in r.json()["error"]["message"]


def test_a_report_keeps_the_clocks_of_the_turn(api: Api) -> None:
    gid, tokens = api.two_players(
        "sumodoku",
        options=HONOUR,
        time_control={"initial_seconds": 60, "increment_seconds": 30},
    )
    for seat, move in ((0, "r1c1=1"), (1, "r9c9=5"), (0, "r1c5=1")):
        play(api, gid, tokens[seat], move)
    before = api.get(gid)["clock"]
    assert before["running"] == 1
    play(api, gid, tokens[1], "report r1c5")  # the player to move reports: no increment
    after = api.get(gid)["clock"]
    assert after["running"] == 1
    assert after["remaining"][1] <= before["remaining"][1]
    assert after["remaining"][0] == before["remaining"][0]


def test_the_computer_answers_after_a_report(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    # The computer challenges a duplicate at once (a win); here it waits a second
    # before each move, so that the spectator's report comes first.
    choose = computer.choose_move

    def slow(request: computer.ComputerRequest) -> str:
        time.sleep(1.0)
        return choose(request)

    monkeypatch.setattr(computer, "choose_move", slow)
    created = api.create(
        "sumodoku",
        options=HONOUR,
        seats=[{"kind": "human"}, {"kind": "computer", "level": "beginner"}],
    )
    gid, token = created["id"], created["token"]
    play(api, gid, token, "r1c1=1")
    game = wait_for_seat(api, gid, 0)
    empty = next(f"r1c{c}" for c in range(2, 10) if game["view"]["cells"][c - 1] is None)
    play(api, gid, token, f"{empty}=1")  # a duplicate in row 1; the computer is to move
    for _ in range(20):  # the computer may move between reading the state and the report
        r = api.move(gid, None, f"report {empty}", api.get(gid)["state"])
        if r.status_code != 409:
            break
    assert r.status_code == 200, r.text
    game = wait_for_seat(api, gid, 0)
    texts = [m["move"] for m in game["moves"]]
    assert f"report {empty}" in texts and len(texts) == 5
    assert game["status"] == "active"


def wait_for_seat(api: Api, gid: str, seat: int) -> dict[str, Any]:
    for _ in range(1000):
        game = api.get(gid)
        if game["view"]["to_move"] == seat:
            return game
        time.sleep(0.01)
    raise AssertionError("the computer did not move")


def test_a_report_needs_the_right_to_watch(api: Api) -> None:
    """With watching off a stranger's report is refused before anything is judged: no
    state number, no verdict on the cell."""
    gid, tokens = api.two_players("sumodoku", options=HONOUR, watchable=False)
    for seat, move in ((0, "r1c1=1"), (1, "r9c9=5"), (0, "r1c5=1")):
        r = api.move(gid, tokens[seat], move, api.get(gid, tokens[seat])["state"])
        assert r.status_code == 200, r.text
    state = api.get(gid, tokens[0])["state"]
    for cell in ("r1c5", "r1c1", "r5c5"):
        for seen in (state, state - 1):
            r = api.move(gid, None, f"report {cell}", seen)
            assert r.status_code == 403, r.text
            assert r.json()["error"]["code"] == "not_watchable"
    assert api.get(gid, tokens[0])["state"] == state
    assert api.get(gid, tokens[0])["view"]["cells"][4] is not None


@pytest.mark.parametrize("cell", ["r1c1", "r9c9", "r5c5"])
def test_a_refused_report_tells_nothing_of_the_piece(api: Api, cell: str) -> None:
    """The refusal is the same for a first piece, a clean piece and an empty cell: it
    names no colour."""
    gid, _tokens = with_a_duplicate(api)
    r = api.move(gid, None, f"report {cell}", api.get(gid)["state"])
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "illegal_move"
    assert error["message"] == (f"report {cell}: no piece there broke a rule when it was placed")
