"""With one computer worker busy with reviews and analysis boards, a computer's move still
goes to the worker before every analysis job queued: moves of games in play come first."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from sansu.server.play.computer import ANALYSIS, MOVE, ComputerRunner
from tests.server.conftest import Api, legal, make_client, pick

REVIEW = 20_000
"""Simulations per reviewed position: a tenth of a second or so."""
STEPS = (10_000, 80_000)
"""The analysis board's first and largest step: up to half a second or so."""
REPLIES = 5


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


def dispatches(runner: ComputerRunner) -> list[tuple[str, str, int]]:
    """Records, in order, each search queued (``("queued", kind, analysis jobs waiting
    then)``) and each handed to a worker (``("started", kind, 0)``), through the runner's
    own hooks."""
    log: list[tuple[str, str, int]] = []
    run, told = runner.run, runner.on_wait

    async def queued(fn: Any, request: Any, *, priority: int = ANALYSIS) -> Any:
        waiting = runner.queued(ANALYSIS)
        log.append(("queued", "move" if priority == MOVE else "analysis", waiting))
        return await run(fn, request, priority=priority)

    def started(kind: str, seconds: float) -> None:
        log.append(("started", kind, 0))
        if told is not None:
            told(kind, seconds)

    runner.run = queued  # type: ignore[method-assign]
    runner.on_wait = started
    return log


def test_a_computer_move_goes_to_the_worker_before_every_queued_review_and_analysis(
    tmp_path: Path,
) -> None:
    """One worker, four reviews and four analysis boards keep it busy: every computer move
    is the next search the worker gets, whatever analysis jobs wait, so it waits for the
    one job under way at most. (The order is asserted, not times: on a busy machine every
    search takes longer, and a move's place in the queue is what the server decides.)"""
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
        # the first reply loads the worker's compiled code, before any other work
        assert reply_seconds(api, gid, token, random.Random(1)) is not None
        log = dispatches(state.computer)
        for review in finished:
            assert client.post(f"/api/games/{review}/review").status_code == 202
        boards: list[str] = []
        replies = 0
        rng = random.Random(2)
        for _ in range(REPLIES):
            keep_boards_thinking(client, boards, 4)
            assert len(state.reviews.running) == 4, "the reviews ended before the replies"
            if reply_seconds(api, gid, token, rng) is None:
                break
            replies += 1
        assert replies
        moves = [k for k, entry in enumerate(log) if entry[:2] == ("queued", "move")]
        assert len(moves) == replies, log
        for k in moves:
            assert log[k][2] > 0, "no analysis job waited when the move was queued"
            handed = next(entry for entry in log[k + 1 :] if entry[0] == "started")
            assert handed == ("started", "move", 0), log[k : k + 5]
