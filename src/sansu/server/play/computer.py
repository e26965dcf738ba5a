"""Computer moves, computed off the event loop so that no game waits on another's search.

A request is plain data (game id, options, the moves so far, level, seed,
time budget); the worker rebuilds the position and asks :mod:`sansu.ai` for
a move. Searches run in a process pool sized to the cores, so they use
every core and never hold the server's event loop or its GIL.

Moves of games in play come first. The pool is fed from a priority queue
here, one job per free worker, never ahead: a queued move is always handed
out before any queued analysis job (a review's position, an analysis
board's step), and analysis jobs never hold every worker when there are two
or more, so a computer to move waits at most for one analysis job (one
worker) or for none.

No player waits for compiled code: :meth:`ComputerRunner.start` builds it in the
background (:mod:`sansu.warmup`: numba compiles it once, then loads it from its
cache), the server answers at once, and a worker loads each game's code as soon
as it is built; until then that game's computer plays by the generic search,
within the same time. Workers
leave with the server: :meth:`ComputerRunner.close` ends them, and a worker
whose server died without closing it (``kill -9``) notices and exits.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import multiprocessing
import os
import queue
import shutil
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sansu.warmup import stop_pool
from sansu.worker import HOST_MOVES as HOST_MOVES
from sansu.worker import ComputerRequest as ComputerRequest
from sansu.worker import cached_game as cached_game
from sansu.worker import choose_move as choose_move
from sansu.worker import random_move as random_move
from sansu.worker import warm_up
from sansu.worker import worker_pid as _pid
from sansu.worker import worker_start as _worker_start

log = logging.getLogger("sansu.server")
T = TypeVar("T")


def levels() -> tuple[str, ...]:
    try:
        from sansu.ai import LEVELS
    except ImportError:  # pragma: no cover - the computer players ship with sansu
        return ("beginner", "easy", "medium", "hard", "max")
    return tuple(LEVELS)


def default_time_ms(game: str, level: str) -> int:
    """The level's own thinking time per move in ``game``."""
    try:
        from sansu.ai.levels import level_for
    except ImportError:  # pragma: no cover
        return 0
    return level_for(game, level).time_ms


def _quiet(future: asyncio.Future[Any]) -> None:
    """Takes a start-up call's outcome (a pool closed at once is no error to report)."""
    if not future.cancelled():
        future.exception()


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


MOVE = 0
"""The priority of a computer's move in a game being played: always dispatched first."""
ANALYSIS = 1
"""The priority of engine work nobody plays by: reviews and the analysis board."""


@dataclass(order=True)
class _Job:
    priority: int
    seq: int
    fn: Callable[[Any], Any] = field(compare=False)
    request: Any = field(compare=False)
    future: asyncio.Future[Any] = field(compare=False)
    queued_at: float = field(compare=False, default_factory=time.perf_counter)


class ComputerClosed(RuntimeError):
    """A search asked of, or waiting on, computer players that :meth:`ComputerRunner.close`
    has stopped."""


class ComputerRunner:
    """Runs computer searches: in a process pool (``workers`` > 0) or in threads (0).

    Threads are for tests and tiny machines: the searches then share the
    server's process, as many at once as there are cores.

    Jobs wait here, in priority order (:data:`MOVE` before :data:`ANALYSIS`,
    first come first served within each), and go to the pool only when a
    worker is free, so the pool's own queue never holds a job a move would
    wait behind. Analysis jobs hold at most ``slots - 1`` workers (at least one).
    """

    def __init__(self, workers: int | None = None, *, time_ms_cap: int | None = None) -> None:
        self.workers = cores() if workers is None else workers
        self.time_ms_cap = time_ms_cap
        self._pool: Executor | None = None
        self._ready: Any = None
        self._closes = 0
        """How many times :meth:`close` ran: a search that sees it change while it waits was
        ended by close(), not by a broken worker."""
        self.slots = self.workers if self.workers > 0 else max(1, cores())
        """Jobs running at once: one per worker process (threads: one per core)."""
        self.analysis_slots = max(1, self.slots - 1)
        """Analysis jobs running at once: one worker stays free for moves when there are two."""
        self._queue: list[_Job] = []
        self._busy = {MOVE: 0, ANALYSIS: 0}
        self._seq = itertools.count()
        self._running: set[asyncio.Task[None]] = set()
        self.warmup: Any = None
        """The background build of the compiled code (:meth:`start`), if any."""
        self._marks: str | None = None
        self.on_wait: Callable[[str, float], None] | None = None
        """Told how long each search (``move`` or ``analysis``) waited for a worker."""

    def _executor(self) -> Executor | None:
        if self.workers <= 0:
            return None
        if self._pool is None:
            context = multiprocessing.get_context("spawn")
            self._ready = context.Queue()
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=_worker_start,
                initargs=(os.getpid(), self._ready, self._marks),
            )
        return self._pool

    async def start(self, timeout: float = 600.0, *, background: bool = True) -> None:
        """Starts every worker. With ``background``, returns at once: the compiled code is
        built in processes of its own (:class:`~sansu.warmup.Warmup`) and the workers play
        by the generic search until each game's is; else (or when a finished build's stamp
        says it is all cached: :func:`sansu.warmup.built`) waits until every worker has
        loaded it (threads: loads it here)."""
        from sansu.warmup import built

        if background and self.warmup is None and not await asyncio.to_thread(built):
            from sansu.warmup import Loader, Warmup

            self._marks = tempfile.mkdtemp(prefix="sansu-warmup-")
            stamp = os.environ.get("SANSU_KERNEL_STAMP")
            self.warmup = Warmup(
                Path(self._marks), processes=cores(), stamp=Path(stamp) if stamp else None
            )
            self.warmup.start()
            if self.workers <= 0:
                Loader(Path(self._marks)).start()
        executor = self._executor()
        if executor is None:
            if self.warmup is None:
                await asyncio.to_thread(warm_up)
            return
        loop = asyncio.get_running_loop()
        # One call per worker makes the pool start them all (each warms up first).
        calls = [loop.run_in_executor(executor, _pid) for _ in range(self.workers)]
        if self.warmup is not None:  # they start meanwhile: nothing to wait for here
            for call in calls:
                call.add_done_callback(_quiet)
            return
        ready = self._ready
        deadline = time.monotonic() + timeout
        try:
            for _ in range(self.workers):
                left = max(0.1, deadline - time.monotonic())
                await asyncio.to_thread(ready.get, True, left)
        except queue.Empty:
            log.warning("the computer players were not ready within %.0f s", timeout)
        await asyncio.gather(*calls)

    def warmup_status(self) -> dict[str, Any]:
        """How far the background build of the compiled code is (see
        :meth:`sansu.warmup.Warmup.status`); ready when none runs."""
        if self.warmup is None:
            return {"ready": True, "done": 0, "total": 0, "games": [], "seconds": 0.0}
        status: dict[str, Any] = self.warmup.status()
        return status

    def budget(self, game: str, level: str, seconds_left: float | None) -> int | None:
        """Thinking time for one move: the level's, capped by the server and the clock."""
        time_ms: int | None = default_time_ms(game, level) or None
        if self.time_ms_cap is not None:
            time_ms = self.time_ms_cap if time_ms is None else min(time_ms, self.time_ms_cap)
        if seconds_left is not None:
            share = max(10, int(seconds_left * 1000 / 20))
            time_ms = share if time_ms is None else min(time_ms, share)
        return time_ms

    async def choose(self, request: ComputerRequest) -> str:
        """The computer's move: queued ahead of every analysis job."""
        return await self.run(choose_move, request, priority=MOVE)

    async def run(self, fn: Callable[[Any], T], request: Any, *, priority: int = ANALYSIS) -> T:
        """Runs ``fn(request)`` in a worker (a module-level function, plain-data request),
        once every job of a higher priority (a lower number) queued before it has started.

        Cancelling the caller drops a job still queued; one already in a worker
        runs to its end and holds its worker until then."""
        job = _Job(
            priority, next(self._seq), fn, request, asyncio.get_running_loop().create_future()
        )
        heapq.heappush(self._queue, job)
        self._dispatch()
        result: T = await job.future
        return result

    def queued(self, priority: int | None = None) -> int:
        """Jobs waiting for a worker (of ``priority``, or all)."""
        return sum(1 for j in self._queue if not j.future.done() and priority in (None, j.priority))

    def queue_lengths(self) -> dict[str, float]:
        """Searches waiting for a worker, by kind (``move``, ``analysis``)."""
        return {"move": self.queued(MOVE), "analysis": self.queued(ANALYSIS)}

    def _dispatch(self) -> None:
        while self._queue and sum(self._busy.values()) < self.slots:
            job = self._queue[0]
            if job.future.done():  # its caller gave up while it waited
                heapq.heappop(self._queue)
                continue
            if job.priority != MOVE and self._busy[ANALYSIS] >= self.analysis_slots:
                return  # the head is an analysis job, so no move waits
            heapq.heappop(self._queue)
            self._busy[job.priority] += 1
            if self.on_wait is not None:
                kind = "move" if job.priority == MOVE else "analysis"
                self.on_wait(kind, time.perf_counter() - job.queued_at)
            task = asyncio.get_running_loop().create_task(self._execute(job))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _execute(self, job: _Job) -> None:
        try:
            result = await self._call(job.fn, job.request)
        except asyncio.CancelledError:
            job.future.cancel()
            raise
        except Exception as error:
            if not job.future.done():
                job.future.set_exception(error)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self._busy[job.priority] -= 1
            self._dispatch()

    async def _call(self, fn: Callable[[Any], T], request: Any) -> T:
        loop = asyncio.get_running_loop()
        executor = self._executor()
        if executor is None:
            return await asyncio.to_thread(fn, request)
        closes = self._closes
        try:
            return await loop.run_in_executor(executor, fn, request)
        except BrokenProcessPool:
            if self._closes != closes:  # close() ended the workers: no new pool for this
                raise ComputerClosed("the computer players were stopped") from None
            log.warning("the computer players' pool broke; starting a new one")
            self._end_pool()
            return await loop.run_in_executor(self._executor(), fn, request)

    def close(self) -> None:
        """Ends the workers now, searches under way included; nothing is left behind.

        A search that was waiting fails with :class:`ComputerClosed`, rather than
        taking its broken pool for a crash and starting a new one that nobody would
        end (the server stops its workers last, as it stops)."""
        self._closes += 1
        waiting, self._queue = self._queue, []
        for job in waiting:
            if not job.future.done():
                job.future.set_exception(ComputerClosed("the computer players were stopped"))
        self._end_pool()
        if self.warmup is not None:
            self.warmup.close()
        if self._marks is not None:
            shutil.rmtree(self._marks, ignore_errors=True)

    def _end_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        stop_pool(pool)
        if self._ready is not None:
            self._ready.close()
            self._ready.join_thread()
            self._ready = None
