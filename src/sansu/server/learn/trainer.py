"""The technique trainer behind its routes: exercises made off the event loop, under a cap.

An exercise is a pure function of its technique and seed
(:func:`sansu.sudoku.trainer.exercise`), so nothing is stored: the page keeps the
seed and sends it back with its answer, and the same exercise is made again to
judge it. Recent exercises are kept in a small cache, so a check right after
its exercise costs nothing. Making one runs in a worker thread under
:data:`TIME_CAP`, and at most :data:`WORKERS` at once, so a slow search can
neither block the server nor take every core.
"""

from __future__ import annotations

import asyncio
import secrets
from functools import lru_cache

from sansu.server.base import ApiError
from sansu.sudoku import trainer
from sansu.sudoku.trainer import Exercise, Technique, Verdict

TIME_CAP = 5.0
"""Seconds an exercise may take to make before the request is refused (503)."""
WORKERS = 2
"""Exercises made at the same time; more requests wait their turn (within the cap)."""

_busy: asyncio.Semaphore | None = None


def find(technique_id: str) -> Technique:
    """The technique of an address; 404 ``unknown_technique`` names the offered ones."""
    try:
        return trainer.technique(technique_id)
    except ValueError as error:
        raise ApiError(404, "unknown_technique", str(error)) from None


@lru_cache(maxsize=256)
def _make(technique_id: str, seed: int) -> Exercise:
    return trainer.exercise(technique_id, seed)


def new_seed() -> int:
    return secrets.randbelow(trainer.MAX_SEED + 1)


async def exercise(technique: Technique, seed: int) -> Exercise:
    """The exercise of ``technique`` and ``seed``, made in a thread; 503 ``too_slow`` past
    the cap, 422 ``no_exercise`` when no puzzle tried from this seed reaches it."""
    global _busy
    if _busy is None:
        _busy = asyncio.Semaphore(WORKERS)
    try:
        async with asyncio.timeout(TIME_CAP):
            async with _busy:
                return await asyncio.to_thread(_make, technique.id, seed)
    except TimeoutError:
        raise ApiError(
            503,
            "too_slow",
            f"making a {technique.name} exercise took over {TIME_CAP:g} s; try again",
            seed=seed,
        ) from None
    except ValueError as error:
        raise ApiError(422, "no_exercise", str(error), seed=seed) from None


async def check(technique: Technique, seed: int, cell: int | str, digit: int) -> Verdict:
    """The verdict on ``digit`` at ``cell`` in that exercise; 422 ``bad_answer`` for a cell
    that is filled, a digit that is not among its candidates, or a malformed cell."""
    drill = await exercise(technique, seed)
    try:
        return trainer.check(drill, cell, digit)
    except ValueError as error:
        raise ApiError(422, "bad_answer", str(error)) from None
