"""The technique trainer's routes: the list, exercises by seed, verdicts, and refusals."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

from sansu.server.learn import trainer as service
from sansu.sudoku import trainer
from sansu.sudoku.logic.board import BIT


@pytest.fixture(autouse=True)
def patient_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's cap is wall time: on a busy machine (the test suite on two cores) an
    exercise that takes milliseconds alone can take seconds, so the tests that are not
    about the cap give it room; the cap's own test sets it small again."""
    monkeypatch.setattr(service, "TIME_CAP", 120.0)


def test_the_list_is_the_ladder_with_levels(client: TestClient) -> None:
    r = client.get("/api/trainer")
    assert r.status_code == 200, r.text
    body = r.json()
    assert [t["id"] for t in body["techniques"]] == [t.id for t in trainer.techniques()]
    first = body["techniques"][0]
    assert first["name"] == "naked single" and first["kind"] == "place"
    assert first["level"] in body["levels"] and first["description"]


def test_an_exercise_is_the_toolkits_and_its_check_explains_the_step(client: TestClient) -> None:
    r = client.post("/api/trainer/x-wing", json={"seed": 9})
    assert r.status_code == 200, r.text
    body = r.json()
    drill = trainer.exercise("x-wing", 9)
    assert body["seed"] == 9 and body["values"] == list(drill.values)
    assert body["givens"] == list(drill.givens)
    assert body["candidates"][0] == [d for d in range(1, 10) if drill.candidates[0] & BIT[d]]
    assert "solution" not in body and "step" not in body  # nothing gives the answer away
    cell, digit = drill.answers[0]
    r = client.post("/api/trainer/x-wing/check", json={"seed": 9, "cell": cell, "digit": digit})
    assert r.status_code == 200, r.text
    verdict = r.json()
    assert verdict["right"] is True and verdict["explanation"] == drill.step.description
    assert verdict["pattern"] == list(drill.step.pattern)
    assert {"index": cell, "digit": digit} in verdict["eliminations"]
    keep = drill.solution[cell]
    name = trainer.NAMES[cell]
    r = client.post("/api/trainer/x-wing/check", json={"seed": 9, "cell": name, "digit": keep})
    assert r.status_code == 200 and r.json()["right"] is False
    assert r.json()["message"] == f"Not so: {keep} belongs on {name}, so it cannot be removed."


def test_without_a_seed_the_server_picks_one(client: TestClient) -> None:
    body = client.post("/api/trainer/hidden-single-box", json={}).json()
    assert 0 <= body["seed"] <= trainer.MAX_SEED
    again = client.post("/api/trainer/hidden-single-box", json={"seed": body["seed"]}).json()
    assert again == body
    assert client.post("/api/trainer/hidden-single-box").status_code == 200


def test_bad_input_is_refused_clearly(client: TestClient) -> None:
    r = client.post("/api/trainer/chess", json={"seed": 1})
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_technique"
    assert "x-wing" in r.json()["error"]["message"]
    for body in ({"seed": -1}, {"seed": 2**31}, {"seed": "x"}, {"seed": 1, "extra": 2}):
        r = client.post("/api/trainer/x-wing", json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request", body
    drill = trainer.exercise("x-wing", 1)
    filled = next(c for c in range(81) if drill.values[c])
    for answer, words in (
        ({"cell": filled, "digit": 1}, "already filled"),
        ({"cell": "r10c1", "digit": 1}, "r1c1 to r9c9"),
    ):
        r = client.post("/api/trainer/x-wing/check", json={"seed": 1, **answer})
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_answer"
        assert words in r.json()["error"]["message"]
    for answer in ({"cell": 81, "digit": 1}, {"cell": 3, "digit": 0}, {"cell": 3}):
        r = client.post("/api/trainer/x-wing/check", json={"seed": 1, **answer})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_request"


def test_a_slow_exercise_is_refused_past_the_cap(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def stuck(technique_id: str, seed: int) -> trainer.Exercise:
        release.wait(10)
        return trainer.exercise(technique_id, seed)

    monkeypatch.setattr(service, "_make", stuck)
    monkeypatch.setattr(service, "TIME_CAP", 0.2)
    try:
        r = client.post("/api/trainer/x-wing", json={"seed": 4})
    finally:
        release.set()
    assert r.status_code == 503 and r.json()["error"]["code"] == "too_slow"
    assert "x-wing" in r.json()["error"]["message"]


def test_a_seed_that_reaches_no_exercise_is_refused_with_the_reason(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def nothing(technique_id: str, seed: int) -> trainer.Exercise:
        raise ValueError(f"no {technique_id} found from seed {seed}: try another seed")

    monkeypatch.setattr(service, "_make", nothing)
    r = client.post("/api/trainer/x-wing/check", json={"seed": 4, "cell": 0, "digit": 1})
    assert r.status_code == 422 and r.json()["error"]["code"] == "no_exercise"
    assert r.json()["error"]["message"] == "no x-wing found from seed 4: try another seed"
