"""Lessons over HTTP: the steps without their solutions, the judge of a learner's moves
(the engine's reason for an illegal move, the step's hint for a miss, the scripted
replies), and each account's progress: saved per account, bad input refused and
changing nothing, no way to write another account's progress."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

import sansu
from sansu.learn import lesson
from sansu.server.accounts.routes import CSRF_HEADER
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import make_client

PASSWORD = "Tr0ub4dor&3-unique-secret"


@pytest.fixture
def web(db_path: str, fast_hashing: None) -> Iterator[TestClient]:
    with make_client(db_path) as c:
        yield c


def sign_up(c: TestClient, name: str) -> str:
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return str(r.json()["csrf_token"])


def test_the_lessons_list_every_game_without_solutions(web: TestClient) -> None:
    games = [entry["game"] for entry in web.get("/api/lessons").json()["lessons"]]
    assert sorted(games) == sorted(sansu.game_ids())
    body = web.get("/api/lessons/35").json()
    assert body["game"] == "thirtyfive"
    assert [s["id"] for s in body["steps"]] == [s.id for s in lesson("thirtyfive").steps]
    for shown, step in zip(body["steps"], lesson("thirtyfive").steps, strict=True):
        assert shown["moves"] == list(step.moves)
        assert "solution" not in shown and "wrong" not in shown
        assert all("moves" not in task["goal"] for task in shown["tasks"])
    assert web.get("/api/lessons/chess").status_code == 422


def test_a_step_is_judged_move_by_move(web: TestClient) -> None:
    url = "/api/lessons/uttt/sending/check"
    start = web.post(url, json={"moves": []}).json()
    assert start["status"] == "play" and start["position"]["moves"] == ["r5c5", "r4c4"]
    view = sansu.load_game("uttt").play_moves(["r5c5", "r4c4"]).view(None)
    assert start["position"]["view"] == view
    refused = web.post(url, json={"moves": ["r5c6"]}).json()
    try:
        sansu.load_game("uttt").play_moves(["r5c5", "r4c4"]).play("r5c6")
    except sansu.IllegalMove as error:
        reason = str(error)
    assert refused["status"] == "illegal" and refused["message"] == reason
    assert refused["position"]["moves"] == ["r5c5", "r4c4"]
    missed = web.post(url, json={"moves": ["r1c1"]}).json()
    assert missed["status"] == "missed" and missed["message"].startswith("That cell sends O")
    assert missed["position"]["moves"][-1] == "r1c1"
    first = web.post(url, json={"moves": ["r1c3"]}).json()
    assert first["status"] == "play" and first["replies"] == ["r1c8"] and first["task"] == 1
    assert first["position"]["to_move"] == 0
    done = web.post(url, json={"moves": ["r1c3", "r1c6"]}).json()
    assert done["status"] == "done" and done["accepted"] == 2


def test_bad_checks_are_refused(web: TestClient) -> None:
    r = web.post("/api/lessons/uttt/nope/check", json={"moves": []})
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_step"
    assert "first-mark" in r.json()["error"]["message"]
    r = web.post("/api/lessons/uttt/first-mark/check", json={"moves": ["r5c5", "r1c1"]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "step_finished"
    r = web.post("/api/lessons/uttt/first-mark/check", json={"moves": "r5c5"})
    assert r.status_code == 422
    r = web.post("/api/lessons/uttt/first-mark/check", json={"moves": [], "extra": 1})
    assert r.status_code == 422


def test_progress_is_kept_per_account(web: TestClient) -> None:
    assert web.get("/api/account/lessons").status_code == 401
    csrf = sign_up(web, "Alice")
    assert web.get("/api/account/lessons").json() == {"lessons": {}}
    headers = {CSRF_HEADER: csrf}
    r = web.put("/api/account/lessons/uttt/sending", headers=headers)
    assert r.status_code == 200 and r.json() == {"game": "uttt", "step": "sending", "new": True}
    r = web.put("/api/account/lessons/uttt/first-mark", headers=headers)
    again = web.put("/api/account/lessons/uttt/first-mark", headers=headers)
    assert again.json()["new"] is False
    web.put("/api/account/lessons/35/conversion", headers=headers)
    mine = {"uttt": ["first-mark", "sending"], "thirtyfive": ["conversion"]}
    assert web.get("/api/account/lessons").json() == {"lessons": mine}
    web.post("/api/account/logout", headers=headers)
    sign_up(web, "Bob")
    assert web.get("/api/account/lessons").json() == {"lessons": {}}


def test_bad_writes_are_refused_and_change_nothing(web: TestClient) -> None:
    assert web.put("/api/account/lessons/uttt/first-mark").status_code == 401
    csrf = sign_up(web, "Carol")
    headers = {CSRF_HEADER: csrf}
    refusals = [
        (web.put("/api/account/lessons/uttt/first-mark"), 403, "csrf_failed"),
        (web.put("/api/account/lessons/uttt/flying", headers=headers), 404, "no_step"),
        (web.put("/api/account/lessons/chess/first-mark", headers=headers), 422, None),
        (web.put("/api/account/lessons/uttt/" + "x" * 65, headers=headers), 422, None),
    ]
    for r, status, code in refusals:
        assert r.status_code == status, r.text
        if code:
            assert r.json()["error"]["code"] == code
    assert web.get("/api/account/lessons").json() == {"lessons": {}}


def test_another_account_cannot_write_yours(web: TestClient, db_path: str) -> None:
    csrf_alice = sign_up(web, "Alice")
    web.put("/api/account/lessons/uttt/first-mark", headers={CSRF_HEADER: csrf_alice})
    with make_client(db_path) as other:
        csrf_bob = sign_up(other, "Bob")
        # Bob's session writes Bob's progress only, whatever header he sends.
        r = other.put("/api/account/lessons/uttt/sending", headers={CSRF_HEADER: csrf_alice})
        assert r.status_code == 403
        other.put("/api/account/lessons/uttt/win-game", headers={CSRF_HEADER: csrf_bob})
        assert other.get("/api/account/lessons").json() == {"lessons": {"uttt": ["win-game"]}}
    assert web.get("/api/account/lessons").json() == {"lessons": {"uttt": ["first-mark"]}}
