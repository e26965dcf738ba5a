"""Sudoku Challenge's puzzle: given as an option and checked, or generated from a seed.

Both are cached, so games with equal options share one solved puzzle.
"""

from __future__ import annotations

from functools import lru_cache

from sansu.sudoku.grid import Grid, format_grid


@lru_cache(maxsize=64)
def checked_puzzle(text: str) -> tuple[Grid, Grid]:
    """The givens and the unique solution of ``text``; ``ValueError`` says why not."""
    from sansu.sudoku.grid import parse_grid
    from sansu.sudoku.solver import count_solutions, solve

    givens = parse_grid(text)
    if all(givens):
        raise ValueError("the puzzle has no empty cell to play")
    found = count_solutions(givens, limit=2)
    if found == 0:
        raise ValueError("the puzzle has no solution")
    if found > 1:
        raise ValueError("the puzzle has more than one solution (it needs exactly one)")
    solution = solve(givens)
    assert solution is not None
    return givens, tuple(solution)


@lru_cache(maxsize=64)
def generated_puzzle(seed: int, difficulty: str) -> tuple[Grid, Grid]:
    from sansu.sudoku.generator import generate

    made = generate(seed, difficulty=difficulty)
    return tuple(made.puzzle), tuple(made.solution)


def check_puzzle(text: str) -> str:
    if not text:
        return ""
    givens, _solution = checked_puzzle(text.strip())
    return format_grid(givens)
