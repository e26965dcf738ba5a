"""The computer players' process pool: closing it ends the searches under way for good."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from pathlib import Path

import pytest

from sansu.server.play.computer import ComputerClosed, ComputerRunner


def announce_and_sleep(path: str) -> None:
    """A search that says when it runs, then takes a minute (in a worker)."""
    Path(path).touch()
    time.sleep(60)


async def until(done: Path, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not done.exists():
        assert time.monotonic() < end, "the worker never ran the search"
        await asyncio.sleep(0.05)


def test_a_search_under_way_when_the_pool_closes_fails_and_starts_no_new_pool(
    tmp_path: Path,
) -> None:
    """The server closes its pool last as it stops. A search that was waiting then
    finds its pool broken; taking that for a crashed worker, it once started a new pool,
    whose workers and semaphores nobody ended."""
    started = tmp_path / "started"

    async def main() -> None:
        runner = ComputerRunner(1)
        search = asyncio.create_task(runner.run(announce_and_sleep, str(started)))
        try:
            await until(started, 180)  # the worker loads the compiled players first
            runner.close()
            with pytest.raises(ComputerClosed):
                await asyncio.wait_for(search, 30)
        finally:
            search.cancel()
            runner.close()

    asyncio.run(main())
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert multiprocessing.active_children() == []
