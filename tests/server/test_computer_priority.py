"""Moves of games in play come first in the computer workers: a queued move is dispatched
before every queued review or analysis job, and those never hold every worker."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from sansu.server.play.computer import ComputerRequest, ComputerRunner

MOVE = ComputerRequest("uttt", {}, (), "beginner", seed=1, time_ms=50)


def held_step(paths: tuple[str, str]) -> str:
    """An analysis job (in a worker) that says when it starts and runs until released."""
    started, release = paths
    Path(started).touch()
    while not Path(release).exists():
        time.sleep(0.01)
    return started


async def until(path: Path, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < end, f"{path.name} never started"
        await asyncio.sleep(0.02)


def steps(tmp_path: Path, count: int) -> list[tuple[Path, Path]]:
    return [(tmp_path / f"started{k}", tmp_path / f"release{k}") for k in range(count)]


async def queue_steps(runner: ComputerRunner, jobs: list[tuple[Path, Path]]) -> list[Any]:
    """Starts the workers, queues every held step, and waits until the first runs."""
    await runner.start()
    tasks = [asyncio.create_task(runner.run(held_step, (str(s), str(r)))) for s, r in jobs]
    await until(jobs[0][0], 60)
    return tasks


def test_with_one_worker_a_move_waits_for_the_analysis_step_under_way_only(
    tmp_path: Path,
) -> None:
    jobs = steps(tmp_path, 5)

    async def main() -> None:
        runner = ComputerRunner(1)
        tasks = []
        try:
            tasks = await queue_steps(runner, jobs)
            move = asyncio.create_task(runner.choose(MOVE))
            jobs[0][1].touch()  # the step under way ends: the move is next, not the others
            await asyncio.wait_for(move, 60)
            assert not jobs[2][0].exists()
            for _, release in jobs:
                release.touch()
            await asyncio.wait_for(asyncio.gather(*tasks), 60)
        finally:
            for _, release in jobs:
                release.touch()
            for task in tasks:
                task.cancel()
            runner.close()

    asyncio.run(main())


def test_with_two_workers_analysis_never_holds_both_and_a_move_runs_at_once(
    tmp_path: Path,
) -> None:
    jobs = steps(tmp_path, 3)

    async def main() -> None:
        runner = ComputerRunner(2)
        tasks = []
        try:
            tasks = await queue_steps(runner, jobs)
            await asyncio.wait_for(runner.choose(MOVE), 60)  # every step still held
            assert not jobs[1][0].exists()
            jobs[0][1].touch()
            await until(jobs[1][0], 60)
            assert not jobs[2][0].exists()
        finally:
            for _, release in jobs:
                release.touch()
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
            runner.close()

    asyncio.run(main())


def test_a_queued_job_whose_caller_gives_up_never_runs_and_close_fails_the_rest(
    tmp_path: Path,
) -> None:
    jobs = steps(tmp_path, 3)

    async def main() -> None:
        runner = ComputerRunner(0)
        runner.slots = runner.analysis_slots = 1
        first = asyncio.create_task(runner.run(held_step, tuple(map(str, jobs[0]))))
        second = asyncio.create_task(runner.run(held_step, tuple(map(str, jobs[1]))))
        third = asyncio.create_task(runner.run(held_step, tuple(map(str, jobs[2]))))
        await until(jobs[0][0], 30)
        assert runner.queued() == 2
        second.cancel()
        jobs[0][1].touch()
        jobs[2][1].touch()
        assert await asyncio.wait_for(third, 30) == str(jobs[2][0])
        assert await first == str(jobs[0][0]) and not jobs[1][0].exists()
        runner.close()

    asyncio.run(main())
