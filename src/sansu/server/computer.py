"""Computer moves, computed off the event loop so that no game waits on another's search.

A request is plain data (game id, options, the moves so far, level, seed,
time budget); the worker rebuilds the position and asks :mod:`sansu.ai` for
a move. Searches run in a process pool sized to the cores, so they use
every core and never hold the server's event loop or its GIL.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

log = logging.getLogger("sansu.server")

HOST_MOVES = frozenset({"timeout"})
"""Moves a host applies; a computer plays them only when nothing else is legal."""


@dataclass(frozen=True)
class ComputerRequest:
    game: str
    options: dict[str, Any] = field(hash=False)
    moves: tuple[str, ...]
    level: str
    seed: int
    time_ms: int | None = None
    version: int = 0
    """The state number the move is for (a move for an older state is dropped)."""
    seat: int = 0


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


@lru_cache(maxsize=32)
def _game(game: str, options_key: tuple[tuple[str, Any], ...]) -> Any:
    import sansu

    return sansu.load_game(game, **dict(options_key))


def choose_move(request: ComputerRequest) -> str:
    """The computer's move in the position of ``request`` (runs in a worker)."""
    game = _game(request.game, tuple(sorted(request.options.items())))
    state = game.play_moves(list(request.moves))
    try:
        from sansu.ai import get_player
    except ImportError:  # pragma: no cover - fallback kept for a tree without players
        return random_move(state, request.seed)
    player = get_player(request.game, request.level, seed=request.seed, **request.options)
    analysis = player.choose(state, time_ms=request.time_ms)
    return str(analysis.move)


def random_move(state: Any, seed: int) -> str:
    """A seeded random legal move, host moves only when nothing else is legal."""
    moves = [str(m) for m in state.legal_moves()]
    playable = [m for m in moves if m not in HOST_MOVES] or moves
    return random.Random(seed).choice(playable)


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class ComputerRunner:
    """Runs computer searches: in a process pool (``workers`` > 0) or in threads (0).

    Threads are for tests and tiny machines: the searches then share the
    server's process.
    """

    def __init__(self, workers: int | None = None, *, time_ms_cap: int | None = None) -> None:
        self.workers = cores() if workers is None else workers
        self.time_ms_cap = time_ms_cap
        self._pool: Executor | None = None

    def _executor(self) -> Executor | None:
        if self.workers <= 0:
            return None
        if self._pool is None:
            import multiprocessing

            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

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
        loop = asyncio.get_running_loop()
        executor = self._executor()
        if executor is None:
            return await asyncio.to_thread(choose_move, request)
        try:
            return await loop.run_in_executor(executor, choose_move, request)
        except BrokenProcessPool:
            log.warning("the computer players' pool broke; starting a new one")
            self._pool = None
            executor = self._executor()
            return await loop.run_in_executor(executor, choose_move, request)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
