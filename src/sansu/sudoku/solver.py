"""Solving and counting: does a grid have a completion, which one, and how many.

Sumodoku asks whether a half-filled grid can still be completed (and
completes it for a claim), Sudoku Challenge needs puzzles with exactly one
solution, and the computer players ask these questions thousands of times a
move, so the search runs compiled: :mod:`sansu.sudoku.kernels.classic` for the
classic rules, :mod:`sansu.sudoku.kernels.general` for any combination of variants.
:func:`solve_many` and :func:`count_many` answer a whole batch in one
compiled call, without the few microseconds of Python each single call costs.

    >>> from sansu.sudoku.grid import format_grid
    >>> line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    >>> format_grid(solve(line))[:18]
    '534678912672195348'
    >>> count_solutions(line), count_solutions("." * 81, limit=5)
    (1, 5)
    >>> count_many([line, "." * 81, "11" + "." * 79])
    [1, 2, 0]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from sansu.sudoku.constraints import CLASSIC, Constraints
from sansu.sudoku.grid import SIZE, Grid, as_grid
from sansu.sudoku.kernels import classic
from sansu.sudoku.kernels import general as kernel

READING_ORDER = np.arange(SIZE, dtype=np.int16)
"""Cells in reading order: ties between branch cells go to the first."""
LOWEST_FIRST = np.zeros((0, 9), dtype=np.int8)
"""No digit order: each branch tries its digits from 1 up."""
UNLIMITED = 2**62
_FIRST_BUDGET = 1000
_RESTART_SEED = 1
_BLANK_TO_ZERO = bytes.maketrans(b".", b"0")


def _givens(grid: str | Sequence[int]) -> np.ndarray:
    """``grid`` as int8[81] for the kernels; :func:`as_grid` explains any bad input."""
    if isinstance(grid, str):
        raw = grid.strip().encode("latin-1", "replace").translate(_BLANK_TO_ZERO)
        if len(raw) == SIZE and raw.isdigit():
            return np.frombuffer(raw, dtype=np.int8) - np.int8(48)
    elif isinstance(grid, tuple | list):
        try:
            raw = bytearray(grid)  # fast, and refuses anything outside 0-255
        except (TypeError, ValueError):
            raw = bytearray()
        if len(raw) == SIZE and max(raw) <= 9:
            return np.frombuffer(raw, dtype=np.int8)
    elif isinstance(grid, np.ndarray):
        values = grid
        in_range = values.shape == (SIZE,) and values.dtype.kind in "iu"
        if in_range and values.astype(np.uint64).max() <= 9:
            return values.astype(np.int8)
    return np.array(as_grid(grid), dtype=np.int8)


def run(
    givens: np.ndarray,
    constraints: Constraints,
    limit: int,
    cell_order: np.ndarray = READING_ORDER,
    digit_order: np.ndarray = LOWEST_FIRST,
    max_nodes: int = UNLIMITED,
    general: bool = False,
    weight: np.ndarray | None = None,
) -> tuple[int, np.ndarray]:
    """The kernel call: ``(count up to limit, first solution)`` for int8 ``givens``.

    Classic questions in the default search order take the bit-board fast
    path (unless ``general``); everything else the general kernel, which
    gives up with a count of -1 after ``max_nodes`` branches. ``weight``
    carries what one general search learnt about hard cells to the next.
    """
    out = np.zeros(SIZE, dtype=np.int8)
    if (
        constraints.is_classic
        and not general
        and cell_order is READING_ORDER
        and digit_order is LOWEST_FIRST
    ):
        return int(classic.search(givens, limit, out)), out
    t = kernel.tables(constraints)
    count = kernel.search(
        givens,
        limit,
        t.peers,
        t.npeers,
        t.units,
        t.start,
        t.pairs,
        kernel.RELATIONS,
        cell_order,
        digit_order,
        max_nodes,
        np.ones(SIZE, dtype=np.int64) if weight is None else weight,
        out,
    )
    return int(count), out


def random_orders(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random cell order (for ties) and a random digit order for each cell."""
    cell_order = rng.permutation(SIZE).astype(np.int16)
    digit_order = (np.argsort(rng.random((SIZE, 9)), axis=1) + 1).astype(np.int8)
    return cell_order, digit_order


def search(givens: np.ndarray, constraints: Constraints, limit: int) -> tuple[int, np.ndarray]:
    """``(count up to limit, first solution found)``, for int8 ``givens``.

    Variant rules can make a search tree heavy-tailed: an early wrong guess
    on a sparse grid may hide a subtree far larger than the whole search
    in another order. So the general kernel gets a budget of branches, and
    when it runs out the search starts again in a fresh random order (the
    same sequence of orders every time, so answers are reproducible) with
    twice the budget, keeping the cell weights learnt so far. Every run
    that ends is exact.
    """
    if constraints.is_classic:
        return run(givens, constraints, limit)
    budget = _FIRST_BUDGET
    weight = np.ones(SIZE, dtype=np.int64)
    count, out = run(givens, constraints, limit, max_nodes=budget, weight=weight)
    rng = np.random.default_rng(_RESTART_SEED)
    while count < 0:
        budget *= 2
        orders = random_orders(rng)
        count, out = run(givens, constraints, limit, *orders, max_nodes=budget, weight=weight)
    return count, out


def _givens_many(grids: Iterable[str | Sequence[int]] | np.ndarray) -> np.ndarray:
    """``grids`` as int8[n, 81]; a bad grid raises ``ValueError`` naming its position."""
    if (
        isinstance(grids, np.ndarray)
        and grids.ndim == 2
        and grids.shape[1] == SIZE
        and grids.dtype.kind in "iu"
        and (grids.size == 0 or 0 <= grids.min() <= grids.max() <= 9)
    ):
        return np.ascontiguousarray(grids, dtype=np.int8)
    if isinstance(grids, str | bytes):
        raise TypeError("grids is a collection of grids, not one grid")
    rows = list(grids)
    if rows and all(isinstance(g, str) for g in rows):
        lines = [g.strip() for g in rows]
        raw = "".join(lines).encode("latin-1", "replace").translate(_BLANK_TO_ZERO)
        if all(len(line) == SIZE for line in lines) and raw.isdigit():
            return (np.frombuffer(raw, dtype=np.int8) - np.int8(48)).reshape(len(lines), SIZE)
    out = np.empty((len(rows), SIZE), dtype=np.int8)
    for i, grid in enumerate(rows):
        try:
            out[i] = _givens(grid)
        except ValueError as error:
            raise ValueError(f"grid {i + 1}: {error}") from None
    return out


def run_many(
    givens: np.ndarray, constraints: Constraints, limit: int, tries: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """``(counts up to limit, first solutions)`` for int8[n, 81] ``givens``.

    Classic batches run in one compiled call on one work space (and fill
    ``tries``, int64[n], when given: the configurations each search tried);
    variant batches go grid by grid through :func:`search`. A row without a
    solution keeps zeros in the solutions.
    """
    solutions = np.zeros(givens.shape, dtype=np.int8)
    counts = np.zeros(givens.shape[0], dtype=np.int64)
    if constraints.is_classic:
        if tries is None:
            tries = np.empty(givens.shape[0], dtype=np.int64)
        classic.search_many(givens, limit, solutions, counts, tries)
    else:
        for i in range(givens.shape[0]):
            counts[i], solutions[i] = search(givens[i], constraints, limit)
    return counts, solutions


def solve_many(
    grids: Iterable[str | Sequence[int]] | np.ndarray, constraints: Constraints = CLASSIC
) -> list[Grid | None]:
    """:func:`solve` for each grid: a list of solutions, ``None`` where there is none.

    ``grids`` is any iterable of grids (81-character lines, sequences of 81
    digits) or an int array of shape (n, 81).
    """
    counts, solutions = run_many(_givens_many(grids), check_constraints(constraints), 1)
    return [tuple(row) if n else None for n, row in zip(counts, solutions.tolist(), strict=True)]


def count_many(
    grids: Iterable[str | Sequence[int]] | np.ndarray,
    constraints: Constraints = CLASSIC,
    limit: int = 2,
) -> list[int]:
    """:func:`count_solutions` for each grid, counting no further than ``limit``."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    limit = min(int(limit), UNLIMITED)
    return run_many(_givens_many(grids), check_constraints(constraints), limit)[0].tolist()


def check_constraints(constraints: Constraints) -> Constraints:
    if not isinstance(constraints, Constraints):
        raise TypeError(f"constraints must be a Constraints, not {type(constraints).__name__}")
    return constraints


def solve(grid: str | Sequence[int], constraints: Constraints = CLASSIC) -> Grid | None:
    """The first solution (in search order) that extends the givens, or ``None``."""
    count, out = search(_givens(grid), check_constraints(constraints), 1)
    return tuple(out.tolist()) if count else None


def is_solvable(grid: str | Sequence[int], constraints: Constraints = CLASSIC) -> bool:
    """True when the filled cells of ``grid`` can be completed to a valid grid."""
    return search(_givens(grid), check_constraints(constraints), 1)[0] > 0


def count_solutions(
    grid: str | Sequence[int], constraints: Constraints = CLASSIC, limit: int = 2
) -> int:
    """The number of solutions extending ``grid``, counting no further than ``limit``.

    With the default ``limit=2`` the answer says none (0), unique (1) or
    several (2).
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    limit = min(int(limit), UNLIMITED)
    return search(_givens(grid), check_constraints(constraints), limit)[0]


def has_unique_solution(grid: str | Sequence[int], constraints: Constraints = CLASSIC) -> bool:
    return count_solutions(grid, constraints, 2) == 1
