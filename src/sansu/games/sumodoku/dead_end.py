"""Where a Sumodoku grid without completion is seen to fail: for a claim lost at once.

A claimant who loses because the grid has no valid completion is told where to
look: a cell no colour fits, or a row, column or box left with no room for a
colour it still lacks; failing both, the forced cells (one colour fits) are
filled in turn until such a place appears. When none does, the empty cell
with the fewest colours that fit is named: each of them leads to a dead end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sansu.core.cells import cell_name
from sansu.core.sections import bits_of
from sansu.games.sumodoku.masks import Masks
from sansu.games.sumodoku.numbers import FULL
from sansu.sudoku.constraints import Constraints
from sansu.sudoku.grid import ANTI_DIAGONAL, BOXES, COLUMNS, MAIN_DIAGONAL, ROWS, box_name


@dataclass(frozen=True)
class DeadEnd:
    """The empty cells that show the grid impossible, and why in words."""

    cells: tuple[int, ...]
    why: str


def _units(diagonals: bool) -> list[tuple[str, tuple[int, ...]]]:
    units = [(f"row {r + 1}", cells) for r, cells in enumerate(ROWS)]
    units += [(f"column {c + 1}", cells) for c, cells in enumerate(COLUMNS)]
    units += [(f"the {box_name(b)}", cells) for b, cells in enumerate(BOXES)]
    if diagonals:
        units += [("the main diagonal", MAIN_DIAGONAL), ("the other diagonal", ANTI_DIAGONAL)]
    return units


def _after(forced: list[tuple[int, int]]) -> str:
    """When forced cells were filled first: which (one) or how many."""
    if not forced:
        return ""
    if len(forced) == 1:
        cell, colour = forced[0]
        return f" once {cell_name(cell)} takes the one colour that fits it, {colour}"
    return f" once the {len(forced)} cells where a single colour fits are filled"


def dead_end(
    grid: Sequence[int], filled: int, blocked: Sequence[int], rules: Constraints, masks: Masks
) -> DeadEnd | None:
    """Where ``grid`` fails (``None`` when it can be completed): ``filled`` is its mask of
    filled cells, ``blocked[colour]`` the cells each colour may not take under ``rules``,
    whose ``masks`` say what a placement forbids."""
    from sansu.sudoku.solver import is_solvable

    if is_solvable(grid, rules):
        return None
    start_filled, start_blocked = filled, tuple(blocked)
    grid, blocked = list(grid), list(blocked)
    forbids = masks.forbids
    units = _units(rules.diagonals)
    forced: list[tuple[int, int]] = []
    while True:
        after = _after(forced)
        single = None
        for cell in bits_of(~filled & FULL):
            fits = [c for c in range(1, 10) if not blocked[c] >> cell & 1]
            if not fits:
                return DeadEnd((cell,), f"no colour fits {cell_name(cell)}{after}")
            if single is None and len(fits) == 1:
                single = (cell, fits[0])
        for name, cells in units:
            empty = [c for c in cells if not filled >> c & 1]
            for colour in set(range(1, 10)) - {grid[c] for c in cells}:
                if not any(not blocked[colour] >> c & 1 for c in empty):
                    return DeadEnd(tuple(empty), f"no empty cell of {name} takes a {colour}{after}")
        if single is None:
            break
        cell, colour = single
        grid[cell] = colour
        filled |= 1 << cell
        for c, mask in forbids[cell][colour]:
            blocked[c] |= mask
        forced.append(single)
    cell, fits = min(
        (
            (c, [d for d in range(1, 10) if not start_blocked[d] >> c & 1])
            for c in bits_of(~start_filled & FULL)
        ),
        key=lambda pair: len(pair[1]),
    )
    colours = ", ".join(map(str, fits[:-1])) + f" or {fits[-1]}"
    return DeadEnd(
        (cell,), f"every colour that fits {cell_name(cell)} ({colours}) leads to a dead end"
    )
