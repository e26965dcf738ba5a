"""Singles: the deductions that place a digit outright.

A full house is the last empty cell of a unit; a naked single a cell with
one candidate; a hidden single the only place for a digit in a unit. Hidden
singles in boxes (cross-hatching) are found by beginners, those in rows and
columns take more scanning, so they are separate finders. These finders
also notice when a position has gone wrong (a cell or a digit with nowhere
to go) and raise :class:`Contradiction`.
"""

from __future__ import annotations

from sansu.sudoku.logic.board import (
    ALL,
    BIT,
    DIGIT_OF,
    DIGITS,
    NAMES,
    UNIT_NAMES,
    UNITS,
    Board,
    Contradiction,
    box_of,
    seen_digits,
)
from sansu.sudoku.logic.step import Step, join, step

_BOX_UNITS = range(18, 27)
_LINE_UNITS = range(18)


def full_house(board: Board) -> Step | None:
    values, cands = board.values, board.cands
    for u in (*_BOX_UNITS, *_LINE_UNITS):
        empty, placed = -1, 0
        for c in UNITS[u]:
            if values[c]:
                placed |= BIT[values[c]]
            elif empty >= 0:
                break
            else:
                empty = c
        else:
            if empty < 0:
                continue
            missing = ALL & ~placed
            if not cands[empty] & missing:
                raise Contradiction(
                    f"{NAMES[empty]} cannot hold the missing digit of {UNIT_NAMES[u]}"
                )
            digit = DIGIT_OF[missing]
            name, where = NAMES[empty], UNIT_NAMES[u]
            return step(
                "full house",
                f"Full house: {name} is the last empty cell in {where}, so it takes the missing "
                f"{digit}.",
                placements=[(empty, digit)],
                pattern=[c for c in UNITS[u] if c != empty],
                nudge=f"Look for a full house in {where}.",
            )
    return None


def naked_single(board: Board) -> Step | None:
    values, cands = board.values, board.cands
    for c in range(81):
        if values[c]:
            continue
        mask = cands[c]
        if mask & (mask - 1):
            continue
        if not mask:
            raise Contradiction(f"{NAMES[c]} has no candidate left")
        digit, name = DIGIT_OF[mask], NAMES[c]
        seen = seen_digits(values, c)
        if seen | mask == ALL:
            why = (
                f"{name} already sees {join(DIGITS[ALL & ~mask])} in its row, column and box, "
                f"so it must be {digit}"
            )
        else:
            why = f"{digit} is the only candidate left in {name}"
        return step(
            "naked single",
            f"Naked single: {why}.",
            placements=[(c, digit)],
            pattern=[c],
            nudge=f"Look for a naked single in {UNIT_NAMES[18 + box_of(c)]}: "
            "a cell that can hold only one digit.",
        )
    return None


def _hidden_single(board: Board, units: range) -> Step | None:
    values, cands = board.values, board.cands
    for u in units:
        once = twice = placed = 0
        for c in UNITS[u]:
            if values[c]:
                placed |= BIT[values[c]]
            else:
                m = cands[c]
                twice |= once & m
                once |= m
        missing = ALL & ~placed
        if missing & ~once:
            digit = DIGITS[missing & ~once][0]
            raise Contradiction(f"no cell of {UNIT_NAMES[u]} can hold a {digit}")
        only = once & ~twice & missing
        if only:
            digit = DIGITS[only][0]
            cell = next(c for c in UNITS[u] if cands[c] & BIT[digit])
            where = UNIT_NAMES[u]
            return step(
                "hidden single",
                f"Hidden single: in {where}, only {NAMES[cell]} can hold a {digit}.",
                placements=[(cell, digit)],
                pattern=[c for c in UNITS[u] if c != cell],
                nudge=f"Look for a hidden single in {where}: where can each digit go?",
            )
    return None


def hidden_single_in_box(board: Board) -> Step | None:
    return _hidden_single(board, _BOX_UNITS)


def hidden_single_in_line(board: Board) -> Step | None:
    return _hidden_single(board, _LINE_UNITS)
