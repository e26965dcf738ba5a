"""New puzzles, solved grids and variant layouts, each reproducible from a seed.

Sudoku Challenge needs puzzles with exactly one solution at a chosen level;
Sumodoku needs odd/even and consecutive layouts that are sure to admit a
completion. Both start from a random solved grid: a puzzle is that grid with
givens taken away while the solution stays unique, and a layout is read off
it, so the grid itself is the proof that a completion exists.

    >>> from sansu.sudoku.solver import count_solutions
    >>> puzzle = generate(7)
    >>> count_solutions(puzzle.puzzle), puzzle.puzzle == generate(7).puzzle
    (1, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sansu.sudoku.constraints import CLASSIC, Constraints
from sansu.sudoku.grid import ADJACENT_PAIRS, SIZE, Grid, as_grid, format_grid
from sansu.sudoku.solver import check_constraints, random_orders, run, search

MAX_ATTEMPTS = 2000
"""How many seeds :func:`generate` tries for a difficulty before giving up."""
_FIRST_BUDGET = 2_000
"""Branches a random solved-grid search may take before it restarts with new orders."""
_EMPTY = np.zeros(SIZE, dtype=np.int8)


@dataclass(frozen=True)
class Puzzle:
    """A puzzle with exactly one solution, its rules and, when asked for, its rating."""

    puzzle: Grid
    solution: Grid
    level: str | None = None
    score: float | None = None
    constraints: Constraints = CLASSIC

    @property
    def givens(self) -> int:
        return sum(1 for d in self.puzzle if d)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "puzzle": format_grid(self.puzzle),
            "solution": format_grid(self.solution),
            "givens": self.givens,
            "level": self.level,
            "score": self.score,
        }
        if not self.constraints.is_classic:
            data["constraints"] = self.constraints.to_dict()
        return data


def _rng(seed: int, *stream: int) -> np.random.Generator:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise ValueError(f"a seed is a whole number 0 or more, not {seed!r}")
    return np.random.default_rng([int(seed), *stream] if stream else int(seed))


def _solution(solution: Sequence[int] | str | None, seed: int) -> Grid:
    if solution is None:
        return random_solution(seed)
    grid = as_grid(solution)
    if not CLASSIC.is_satisfied_by(grid):
        raise ValueError("a layout is read off a solved grid: every cell filled, no rule broken")
    return grid


def _random_solution(rng: np.random.Generator, constraints: Constraints) -> Grid:
    budget = _FIRST_BUDGET
    weight = np.ones(SIZE, dtype=np.int64)
    while True:
        orders = random_orders(rng)
        count, out = run(_EMPTY, constraints, 1, *orders, max_nodes=budget, weight=weight)
        if count == 1:
            return tuple(out.tolist())
        if count == 0:
            raise ValueError(f"no grid satisfies these rules ({constraints.describe()})")
        budget *= 2


def random_solution(seed: int, constraints: Constraints = CLASSIC) -> Grid:
    """A random solved grid that satisfies ``constraints``, the same for the same seed.

    The search tries cells and digits in a random order, so every valid grid
    can come out (not all exactly equally often).
    """
    return _random_solution(_rng(seed), check_constraints(constraints))


def _groups(rng: np.random.Generator, symmetric: bool) -> list[list[int]]:
    order = rng.permutation(SIZE).tolist()
    if not symmetric:
        return [[c] for c in order]
    return [[c] if c == SIZE - 1 - c else [c, SIZE - 1 - c] for c in order if c <= SIZE - 1 - c]


def _dig(solution: Grid, groups: list[list[int]], constraints: Constraints) -> Grid:
    """Take away each group of givens in turn unless that leaves several solutions."""
    puzzle = np.array(solution, dtype=np.int8)
    for group in groups:
        kept = puzzle[group].copy()
        puzzle[group] = 0
        if search(puzzle, constraints, 2)[0] != 1:
            puzzle[group] = kept
    return tuple(puzzle.tolist())


def _one_puzzle(rng: np.random.Generator, symmetric: bool, constraints: Constraints) -> Puzzle:
    solution = _random_solution(rng, constraints)
    puzzle = _dig(solution, _groups(rng, symmetric), constraints)
    return Puzzle(puzzle, solution, constraints=constraints)


def generate(
    seed: int,
    difficulty: str | None = None,
    symmetric: bool = True,
    constraints: Constraints = CLASSIC,
    *,
    max_attempts: int = MAX_ATTEMPTS,
) -> Puzzle:
    """A puzzle with exactly one solution under ``constraints``, the same for the same seed.

    Givens are taken away from a random solved grid as long as the solution
    stays unique, so no given can be removed from the result (with
    ``symmetric``, no pair of givens mirrored through the centre). With a
    ``difficulty`` (a level of :data:`sansu.sudoku.rater.LEVELS`) further
    seeds derived from ``seed`` are tried in a fixed order until the rater
    gives that level; the rating is then part of the puzzle. ``ValueError``
    after ``max_attempts`` tries.
    """
    check_constraints(constraints)
    if difficulty is None:
        return _one_puzzle(_rng(seed), symmetric, constraints)
    from sansu.sudoku import rater

    level = difficulty.strip().lower()
    if level not in rater.LEVELS:
        raise ValueError(f"unknown difficulty {difficulty!r} (levels: {', '.join(rater.LEVELS)})")
    if not constraints.is_classic:
        raise ValueError("difficulty levels rate classic puzzles only")
    for attempt in range(max_attempts):
        found = _one_puzzle(_rng(seed, attempt) if attempt else _rng(seed), symmetric, constraints)
        rating = rater.rate_up_to(found.puzzle, level)  # stops early on a harder candidate
        if rating is not None and rating.level == level:
            return Puzzle(found.puzzle, found.solution, rating.level, rating.score)
    raise ValueError(f"no {level} puzzle within {max_attempts} attempts from seed {seed}")


def random_parity_layout(
    seed: int, solution: Sequence[int] | str | None = None, density: float = 0.3
) -> tuple[str, Grid]:
    """``(layout, solution)``: odd/even marks on about ``density`` of the cells.

    The marks are read off ``solution`` (by default :func:`random_solution`
    of ``seed``), so the layout always admits that completion.
    """
    if not 0.0 <= density <= 1.0:
        raise ValueError(f"density is a fraction from 0 to 1, not {density!r}")
    grid = _solution(solution, seed)
    rng = _rng(seed, 1)
    marked = set(rng.choice(SIZE, size=round(density * SIZE), replace=False).tolist())
    layout = "".join(("o" if d % 2 else "e") if c in marked else "." for c, d in enumerate(grid))
    return layout, grid


def random_consecutive_layout(
    seed: int,
    solution: Sequence[int] | str | None = None,
    strict: bool = False,
    density: float = 0.5,
) -> tuple[frozenset[tuple[int, int]], Grid]:
    """``(marks, solution)``: consecutive marks between neighbours of ``solution``.

    With ``strict`` the marks are *all* the adjacent pairs whose digits differ
    by 1, so the strict non-consecutive rule holds for the rest; otherwise a
    random ``density`` share of them. Either way ``solution`` completes it.
    """
    if not 0.0 <= density <= 1.0:
        raise ValueError(f"density is a fraction from 0 to 1, not {density!r}")
    grid = _solution(solution, seed)
    pairs = [(a, b) for a, b in ADJACENT_PAIRS if abs(grid[a] - grid[b]) == 1]
    if strict:
        return frozenset(pairs), grid
    rng = _rng(seed, 2)
    chosen = rng.choice(len(pairs), size=round(density * len(pairs)), replace=False)
    return frozenset(pairs[i] for i in chosen.tolist()), grid
