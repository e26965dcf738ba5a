"""The Sudoku toolkit under Sumodoku and Sudoku Challenge: grids, rules, solver, generator.

    >>> from sansu.sudoku import generate, solve, count_solutions
    >>> puzzle = generate(seed=1)
    >>> count_solutions(puzzle.puzzle), solve(puzzle.puzzle) == puzzle.solution
    (1, True)

The difficulty rater and hints are in :mod:`sansu.sudoku.rater`.
"""

from sansu.sudoku.constraints import (
    CLASSIC,
    Constraints,
    format_consecutive,
    parse_consecutive,
)
from sansu.sudoku.generator import (
    Puzzle,
    generate,
    random_consecutive_layout,
    random_parity_layout,
    random_solution,
)
from sansu.sudoku.grid import Grid, as_grid, format_grid, parse_grid, pretty_grid
from sansu.sudoku.solver import (
    count_many,
    count_solutions,
    has_unique_solution,
    is_solvable,
    solve,
    solve_many,
)

__all__ = [
    "CLASSIC",
    "Constraints",
    "Grid",
    "Puzzle",
    "as_grid",
    "count_many",
    "count_solutions",
    "format_consecutive",
    "format_grid",
    "generate",
    "has_unique_solution",
    "is_solvable",
    "parse_consecutive",
    "parse_grid",
    "pretty_grid",
    "random_consecutive_layout",
    "random_parity_layout",
    "random_solution",
    "solve",
    "solve_many",
]
