"""Locked candidates: where a box meets a row or column.

Pointing: inside a box a digit is confined to one row (or column), so the
rest of that line cannot have it. Claiming: inside a row (or column) a digit
is confined to one box, so the rest of that box cannot have it.
"""

from __future__ import annotations

from sansu.sudoku.logic.board import BIT, CELL_UNITS, UNIT_NAMES, UNITS, Board
from sansu.sudoku.logic.step import Step, either, removals, step


def _locked(board: Board, bases: range, kind: str) -> Step | None:
    cands = board.cands
    for u in bases:
        unit = UNITS[u]
        for digit in range(1, 10):
            bit = BIT[digit]
            cells = [c for c in unit if cands[c] & bit]
            if len(cells) < 2:
                continue
            for k in (0, 1) if u >= 18 else (2,):  # a box points along a line; a line claims a box
                cover = CELL_UNITS[cells[0]][k]
                if any(CELL_UNITS[c][k] != cover for c in cells[1:]):
                    continue
                elims = [(c, digit) for c in UNITS[cover] if cands[c] & bit and c not in cells]
                if not elims:
                    continue
                base, line = UNIT_NAMES[u], UNIT_NAMES[cover]
                return step(
                    f"locked candidates ({kind})",
                    f"Locked candidates ({kind}): in {base} the {digit} must go in {line} "
                    f"({either(cells)}), so {removals(elims)}.",
                    eliminations=elims,
                    pattern=cells,
                    nudge=f"Look at where the {digit} can go in {base}.",
                )
    return None


def pointing(board: Board) -> Step | None:
    return _locked(board, range(18, 27), "pointing")


def claiming(board: Board) -> Step | None:
    return _locked(board, range(18), "claiming")
