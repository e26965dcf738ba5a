"""Unique rectangle, type 1: a deduction that assumes the puzzle has one solution.

Four empty cells at the corners of a rectangle spanning two rows, two
columns and two boxes must not all be limited to the same two digits: their
two digits could then be swapped, giving a second solution. So when three
corners hold only ``{x, y}``, the fourth corner is neither ``x`` nor ``y``.
"""

from __future__ import annotations

from sansu.sudoku.logic.board import COUNT, DIGITS, NAMES, Board, box_of
from sansu.sudoku.logic.step import Step, cells_text, join, removals, step


def unique_rectangle(board: Board) -> Step | None:
    cands = board.cands
    for fourth in range(81):
        extra = cands[fourth]
        if COUNT[extra] < 3:
            continue
        row, col = divmod(fourth, 9)
        for a in range(9 * row, 9 * row + 9):
            mask = cands[a]
            if a == fourth or COUNT[mask] != 2 or extra & mask != mask:
                continue
            for r in range(9):
                b, opposite = 9 * r + col, 9 * r + a % 9
                if r == row or cands[b] != mask or cands[opposite] != mask:
                    continue
                if len({box_of(c) for c in (fourth, a, b, opposite)}) == 2:
                    return _step(opposite, a, b, fourth, mask)
    return None


def _step(corner: int, a: int, b: int, fourth: int, mask: int) -> Step:
    digits = join(DIGITS[mask])
    elims = [(fourth, d) for d in DIGITS[mask]]
    return step(
        "unique rectangle",
        f"Unique rectangle: {cells_text(sorted((corner, a, b)))} can only be {digits}; if "
        f"{NAMES[fourth]} were {DIGITS[mask][0]} or {DIGITS[mask][1]} too, the two digits could "
        f"swap places and the puzzle would have two solutions, so {removals(elims)}.",
        eliminations=elims,
        pattern=(corner, a, b, fourth),
        nudge=f"Look for a rectangle over two boxes with three corners holding only {digits}.",
    )
