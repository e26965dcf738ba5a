"""With one computer worker busy with reviews and analysis boards, a computer still replies
within its budget plus one analysis step: moves of games in play come first."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from sansu.server.analysis.board import StepRequest, analyse_step
from tests.server.conftest import Api, legal, make_client, pick

REVIEW = 20_000
"""Simulations per reviewed position: a tenth of a second or so."""
STEPS = (10_000, 80_000)
"""The analysis board's first and largest step: up to half a second or so."""
REPLIES = 5


def longest_step() -> float:
    """Seconds the largest analysis step takes here, now (after one to load the code): on
    a machine slowed by other work, steps and replies are slowed alike."""
    request = StepRequest("uttt", {}, ("r5c5",), STEPS[1])
    analyse_step(StepRequest("uttt", {}, (), 100))
    start = time.monotonic()
    analyse_step(request)
    return time.monotonic() - start


def keep_boards_thinking(client: TestClient, boards: list[str], count: int) -> None:
    """Asks after every board (so none goes idle) and starts new ones for those done."""
    thinking = []
    for sid in boards:
        news = client.get(f"/api/analysis/{sid}", params={"wait": 0}).json()
        if not news.get("done", True):
            thinking.append(sid)
    while len(thinking) < count:
        moves = [f"r{len(thinking) + 1}c{random.randint(1, 9)}"]
        r = client.post("/api/analysis", json={"game": "uttt", "moves": moves})
        assert r.status_code == 201, r.text
        thinking.append(r.json()["id"])
    boards[:] = thinking


def reply_seconds(api: Api, gid: str, token: str, rng: random.Random) -> float | None:
    """Plays a move and answers how long the computer took to reply (None: game over)."""
    game = api.get(gid, token)
    if game["status"] != "active":
        return None
    played = api.move(gid, token, pick(legal(game), rng), game["state"])
    assert played.status_code == 200, played.text
    start, after = time.monotonic(), played.json()["state"]
    if played.json()["status"] != "active":
        return None
    while time.monotonic() - start < 120:
        game = api.get(gid, token)
        if game["state"] > after or game["status"] != "active":
            return time.monotonic() - start
        time.sleep(0.01)
    raise AssertionError("the computer never replied")


def test_a_computer_replies_within_its_budget_plus_one_step_under_reviews_and_analyses(
    tmp_path: Path,
) -> None:
    step = longest_step()
    with make_client(
        str(tmp_path / "s.db"),
        computer_workers=1,
        computer_time_ms=None,
        review_simulations=REVIEW,
        analysis_simulations=STEPS,
    ) as client:
        api = Api(client)
        state: Any = client.app.state  # type: ignore[attr-defined]
        state.reviews.per_client = 4
        finished = []
        for seed in range(4):
            gid, tokens = api.two_players("uttt")
            api.play_random(gid, tokens, random.Random(seed))
            finished.append(gid)
        created = api.create(
            "uttt", seats=[{"kind": "human"}, {"kind": "computer", "level": "beginner"}]
        )
        gid, token = created["id"], created["token"]
        budget = state.computer.budget("uttt", "beginner", None) / 1000
        # the first reply loads the worker's compiled code, before any other work
        assert reply_seconds(api, gid, token, random.Random(1)) is not None
        for review in finished:
            assert client.post(f"/api/games/{review}/review").status_code == 202
        boards: list[str] = []
        replies = []
        rng = random.Random(2)
        for _ in range(REPLIES):
            keep_boards_thinking(client, boards, 4)
            assert len(state.reviews.running) == 4, "the reviews ended before the replies"
            seconds = reply_seconds(api, gid, token, rng)
            if seconds is None:
                break
            replies.append(seconds)
        assert replies
        step = max(step, longest_step())  # a step as long as the machine makes it now too
        bound = budget + 2 * step + 1.0
        assert max(replies) <= bound, (replies, f"budget {budget} s, a step {step:.2f} s")
