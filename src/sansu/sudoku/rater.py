"""Sudoku difficulty as people feel it, and the next logical step as a hint.

The rater solves like a person: it always takes the simplest deduction
available (the :data:`LADDER`, from full house up to forcing chains) and
never guesses. A puzzle is as hard as the hardest technique it needed, plus
a little for the amount of work; see ``docs/sudoku-rating.md`` for the
weights and bands. :func:`rate` runs the rungs up to expert compiled
(:mod:`sansu.sudoku.kernels.rater`) and the rest in Python; the hints
always come from the Python finders, which also serve as the reference.

    >>> puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    >>> rating = rate(puzzle)
    >>> rating.level, rating.solved
    ('easy', True)
    >>> next_step(puzzle).description[:40]
    'Naked single: r5c5 already sees 1, 2, 3,'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

import numpy as np

from sansu.sudoku.grid import as_grid
from sansu.sudoku.kernels import rater as kernel
from sansu.sudoku.logic import (
    als,
    chains,
    fish,
    forcing,
    intersections,
    rectangles,
    singles,
    subsets,
    wings,
    xychain,
)
from sansu.sudoku.logic.board import Board, Contradiction
from sansu.sudoku.logic.step import Step

__all__ = [
    "BANDS",
    "LADDER",
    "LEVELS",
    "STUCK",
    "WORK",
    "Contradiction",
    "Rating",
    "Rung",
    "Step",
    "apply_step",
    "level_of",
    "logical_steps",
    "next_step",
    "rate",
    "rate_up_to",
    "work",
]

LEVELS: Final = ("easy", "medium", "hard", "expert", "extreme")
BANDS: Final = ((2.0, "easy"), (3.0, "medium"), (5.0, "hard"), (7.0, "expert"))
"""``(upper bound, level)``: a score below the bound (and above the previous) has that level."""
STUCK: Final = 10.0
"""The base score of a puzzle the ladder cannot finish (it needs guessing or more)."""
WORK: Final = 0.1
"""The work term adds at most this much, less than the gap between two rungs."""

Finder = Callable[[Board], Step | None]
Grid = str | Sequence[int]
Candidates = Sequence[int | Sequence[int]]


@dataclass(frozen=True)
class Rung:
    """One technique on the ladder: its name, weight and finder."""

    name: str
    weight: float
    find: Finder
    uniqueness: bool = False
    """True if it assumes the puzzle has exactly one solution."""


LADDER: Final = (
    Rung("full house", 1.0, singles.full_house),
    Rung("naked single", 1.2, singles.naked_single),
    Rung("hidden single (box)", 1.5, singles.hidden_single_in_box),
    Rung("hidden single (row or column)", 2.0, singles.hidden_single_in_line),
    Rung("locked candidates (pointing)", 3.0, intersections.pointing),
    Rung("locked candidates (claiming)", 3.2, intersections.claiming),
    Rung("naked pair", 3.4, subsets.naked_pair),
    Rung("hidden pair", 3.6, subsets.hidden_pair),
    Rung("naked triple", 3.8, subsets.naked_triple),
    Rung("hidden triple", 4.0, subsets.hidden_triple),
    Rung("x-wing", 5.0, fish.x_wing),
    Rung("xy-wing", 5.2, wings.xy_wing),
    Rung("unique rectangle", 5.3, rectangles.unique_rectangle, uniqueness=True),
    Rung("bug+1", 5.35, rectangles.bug_plus_one, uniqueness=True),
    Rung("xyz-wing", 5.4, wings.xyz_wing),
    Rung("w-wing", 5.5, wings.w_wing),
    Rung("swordfish", 5.6, fish.swordfish),
    Rung("empty rectangle", 5.7, chains.empty_rectangle),
    Rung("turbot fish", 5.8, chains.turbot_fish),
    Rung("finned x-wing", 5.9, fish.finned_x_wing),
    Rung("naked quad", 6.0, subsets.naked_quad),
    Rung("simple colouring", 6.2, chains.simple_colouring),
    Rung("jellyfish", 6.4, fish.jellyfish),
    Rung("finned swordfish", 6.5, fish.finned_swordfish),
    Rung("hidden quad", 6.6, subsets.hidden_quad),
    Rung("finned jellyfish", 6.8, fish.finned_jellyfish),
    Rung("x-chain", 7.0, chains.x_chain),
    Rung("xy-chain", 7.2, xychain.xy_chain),
    Rung("als-xz", 7.5, als.als_xz),
    Rung("forcing chain", 8.0, forcing.forcing_chain),
)
"""The techniques in the order a person tries them, easiest first."""


@dataclass(frozen=True)
class Rating:
    """How hard a puzzle is for a person solving without guessing.

    ``techniques`` counts the uses of each technique (by its ``Step``
    name); ``hardest`` is the hardest rung used, ``None`` if nothing was
    needed. ``solved`` is False when the ladder ran out before the end.
    """

    level: str
    score: float
    techniques: dict[str, int] = field(default_factory=dict)
    solved: bool = True
    steps: int = 0
    hardest: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "score": self.score,
            "techniques": dict(self.techniques),
            "solved": self.solved,
            "steps": self.steps,
            "hardest": self.hardest,
        }


def level_of(score: float) -> str:
    """The level of a score: ``level_of(1.4)`` → ``"easy"``, ``level_of(10)`` → ``"extreme"``."""
    return next((level for bound, level in BANDS if score < bound), "extreme")


def _find(
    board: Board, uniqueness: bool, start: int = 0, cap: float = math.inf
) -> tuple[Rung, Step] | None:
    """The first rung from ``start`` that applies, trying none heavier than ``cap``."""
    for rung in LADDER[start:]:
        if rung.weight > cap:
            return None
        if rung.uniqueness and not uniqueness:
            continue
        found = rung.find(board)
        if found is not None:
            return rung, found
    return None


def apply_step(board: Board, step: Step) -> None:
    """Makes ``step``'s placements and eliminations on ``board``."""
    for cell, digit in step.placements:
        board.place(cell, digit)
    for cell, digit in step.eliminations:
        board.eliminate(cell, digit)


def _walk(board: Board, uniqueness: bool) -> Iterator[tuple[Rung, Step]]:
    """Every step to the end (or until stuck), applying each to ``board``."""
    while not board.solved():
        found = _find(board, uniqueness)
        if found is None:
            return
        rung, step = found
        step = replace(step, weight=rung.weight)
        apply_step(board, step)
        yield rung, step


def next_step(
    grid: Grid, candidates: Candidates | None = None, *, uniqueness: bool = True
) -> Step | None:
    """The simplest deduction in ``grid``, or ``None`` if it is solved or no technique applies.

    ``candidates`` (81 entries: a mask with bit ``d - 1`` for digit ``d``, or
    a collection of digits) are a player's pencil marks; they narrow what the
    placed digits allow, so the hint continues from the player's position.
    ``uniqueness=False`` skips techniques that assume a unique solution.
    Raises ``ValueError`` for a malformed grid, and :class:`Contradiction`
    (a ``ValueError``) when the position provably has no solution.
    """
    board = Board.from_grid(grid, candidates)
    if board.solved():
        return None
    found = _find(board, uniqueness)
    if found is None:
        return None
    rung, step = found
    return replace(step, weight=rung.weight)


def logical_steps(
    grid: Grid, candidates: Candidates | None = None, *, uniqueness: bool = True
) -> Iterator[Step]:
    """The whole solution path: each step as :func:`next_step` would give it, in turn."""
    board = Board.from_grid(grid, candidates)
    for _, step in _walk(board, uniqueness):
        yield step


def rate(grid: Grid, *, uniqueness: bool = True, compiled: bool = True) -> Rating:
    """The difficulty of ``grid`` (81 characters, ``.`` or ``0`` blank, or 81 ints).

    The first rungs run compiled; ``compiled=False`` walks the whole ladder
    in Python (the reference: the result is the same). Raises ``ValueError``
    for a malformed grid or clashing givens, and :class:`Contradiction` when
    logic shows the puzzle has no solution.
    """
    if compiled:
        rating = _rate_compiled(grid, uniqueness, math.inf)
        if rating is not None:
            return rating
    return _rate_reference(Board.from_grid(grid), uniqueness)  # it also explains bad grids


def rate_up_to(grid: Grid, level: str, *, uniqueness: bool = True) -> Rating | None:
    """The rating of ``grid`` if its level is ``level`` or easier, else ``None``.

    Stops as soon as the puzzle needs a technique above ``level``, so a
    generator can reject a candidate without rating it to the end.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    bound = next((b for b, name in BANDS if name == level), math.inf)
    cap = math.nextafter(bound, -math.inf)
    rating = _rate_compiled(grid, uniqueness, cap)
    if rating is None:
        return _rate_reference(Board.from_grid(grid), uniqueness)  # raises, saying why
    return None if rating is _CAPPED else rating


def _rate_reference(board: Board, uniqueness: bool) -> Rating:
    counts: dict[str, int] = {}
    hardest: Rung | None = None
    effort = 0.0
    steps = 0
    for rung, step in _walk(board, uniqueness):
        counts[step.technique] = counts.get(step.technique, 0) + 1
        if hardest is None or rung.weight > hardest.weight:
            hardest = rung
        effort += rung.weight - 1.0
        steps += 1
    return _rating(board.solved(), hardest, effort, counts, steps)


def _rating(
    solved: bool, hardest: Rung | None, effort: float, counts: dict[str, int], steps: int
) -> Rating:
    base = STUCK if not solved else hardest.weight if hardest else 0.0
    score = round(base + work(effort), 3)
    return Rating(level_of(score), score, counts, solved, steps, hardest.name if hardest else None)


_WEIGHTS = np.array([rung.weight for rung in LADDER[: kernel.RUNGS]], dtype=np.float64)
_ALL_RUNGS = np.ones(kernel.RUNGS, dtype=np.bool_)
_NO_UNIQUENESS = np.array([not rung.uniqueness for rung in LADDER[: kernel.RUNGS]])
_KERNEL_NAMES = tuple(
    "hidden single" if rung.name.startswith("hidden single") else rung.name
    for rung in LADDER[: kernel.RUNGS]
)
_CAPPED: Final = Rating("extreme", STUCK, solved=False)
"""A sentinel: the rating went above the cap."""


def _rate_compiled(grid: Grid, uniqueness: bool, cap: float) -> Rating | None:
    """The compiled rungs in a loop, the Python ones when they run out; ``None`` on
    clashing givens or a contradiction (the reference then says what is wrong),
    :data:`_CAPPED` when a rung heavier than ``cap`` is needed."""
    values = np.array(as_grid(grid), dtype=np.int64)
    cands = np.empty(81, dtype=np.int64)
    if not kernel.candidates(values, cands):
        return None
    uses = np.zeros(kernel.RUNGS, dtype=np.int64)
    effort, top, solved = 0.0, -1, False
    counts: dict[str, int] = {}
    while True:
        allowed = _ALL_RUNGS if uniqueness else _NO_UNIQUENESS
        status, effort = kernel.climb(values, cands, _WEIGHTS, allowed, cap, uses, effort)
        if status == kernel.CONTRADICTION:
            return None
        if status == kernel.CAPPED:
            return _CAPPED
        if status == kernel.SOLVED:
            solved = True
            break
        rest = Board(values.tolist(), cands.tolist())
        found = _find(rest, uniqueness, kernel.RUNGS, cap)
        if found is None:  # stuck, or what applies is above the cap: either way above it
            if cap < STUCK:
                return _CAPPED
            break
        rung, step = found
        apply_step(rest, step)
        values[:] = rest.values
        cands[:] = rest.cands
        counts[step.technique] = counts.get(step.technique, 0) + 1
        top = max(top, LADDER.index(rung))
        effort += rung.weight - 1.0
    for index in np.flatnonzero(uses).tolist():
        name = _KERNEL_NAMES[index]
        counts[name] = counts.get(name, 0) + int(uses[index])
        top = max(top, index)
    steps = sum(counts.values())
    return _rating(solved, LADDER[top] if top >= 0 else None, effort, counts, steps)


def work(effort: float) -> float:
    """The work term: grows with ``effort`` (the summed weights above 1.0), below :data:`WORK`."""
    return WORK * (1.0 - math.exp(-effort / 100.0))
