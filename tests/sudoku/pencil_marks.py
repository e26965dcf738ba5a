"""Pencil-mark positions for the technique tests: an empty grid with chosen cells narrowed.

Every cell may hold every digit except where a scenario says otherwise, so
nothing simpler than the technique under test applies first.
"""

from __future__ import annotations

import re

from sansu.sudoku.logic.board import ALL, BIT
from sansu.sudoku.rater import next_step

EMPTY = "." * 81


def cell(name: str) -> int:
    match = re.fullmatch(r"r(\d)c(\d)", name)
    assert match, name
    return 9 * (int(match.group(1)) - 1) + int(match.group(2)) - 1


def cells(names: str) -> set[int]:
    return {cell(n) for n in names.split()}


def marks(**masks: str) -> list[int]:
    """Full pencil marks except ``r1c1="27"``-style cells limited to the given digits."""
    cands = [ALL] * 81
    for name, digits in masks.items():
        cands[cell(name)] = sum(BIT[int(d)] for d in digits)
    return cands


def only(cands: list[int], digit: int, places: set[int]) -> list[int]:
    """Remove ``digit`` everywhere except ``places``."""
    return [m if c in places else m & ~BIT[digit] for c, m in enumerate(cands)]


def picture(text: str) -> set[int]:
    """The cells marked ``x`` in a 9-line picture."""
    rows = [line.split() for line in text.strip().splitlines()]
    return {9 * r + c for r, row in enumerate(rows) for c, mark in enumerate(row) if mark == "x"}


def pairs(digit: int, names: str) -> set[tuple[int, int]]:
    return {(c, digit) for c in cells(names)}


def hint(cands: list[int], grid: str = EMPTY, **kw: bool):
    found = next_step(grid, cands, **kw)
    assert found is not None
    return found


def names_all(text: str, names: str) -> bool:
    return all(n in text for n in names.split())
