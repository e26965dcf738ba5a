"""The pencil-mark board the techniques reason on: 81 cells, each a 9-bit mask.

Bit ``d - 1`` of ``cands[cell]`` says digit ``d`` may still go on an empty
cell; a filled cell has its digit in ``values`` and no candidates. Units,
peers and bit tables are computed once here, so every technique is a few
look-ups and bit operations per cell, and rating a puzzle takes milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from sansu.core.cells import cell_name
from sansu.sudoku.grid import (  # noqa: F401  (the techniques import the geometry from here)
    BOXES,
    COLUMNS,
    PEERS,
    ROWS,
    UNITS,
    as_grid,
    box_of,
    check_givens,
)

ALL: Final = 0x1FF
BIT: Final = (0, *(1 << (d - 1) for d in range(1, 10)))
"""``BIT[d]`` is the mask of digit ``d``; ``BIT[0]`` (an empty cell) is 0."""
DIGITS: Final = tuple(tuple(d for d in range(1, 10) if m & BIT[d]) for m in range(512))
"""``DIGITS[mask]``: the digits in a candidate mask, ascending."""
COUNT: Final = tuple(len(ds) for ds in DIGITS)
DIGIT_OF: Final = {BIT[d]: d for d in range(1, 10)}

UNIT_NAMES: Final = (
    *(f"row {i + 1}" for i in range(9)),
    *(f"column {i + 1}" for i in range(9)),
    *(f"box {i + 1}" for i in range(9)),
)


CELL_UNITS: Final = tuple((c // 9, 9 + c % 9, 18 + box_of(c)) for c in range(81))
"""The row, column and box unit of each cell."""
PEER_BITS: Final = tuple(sum(1 << p for p in PEERS[c]) for c in range(81))
"""``PEER_BITS[cell]``: the 20 peers of a cell as an 81-bit mask, to intersect sightlines."""
NAMES: Final = tuple(cell_name(c) for c in range(81))


def cells_of(bits: int) -> list[int]:
    """The cells of an 81-bit mask, ascending."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(low.bit_length() - 1)
        bits ^= low
    return cells


def shared_units(cells: Sequence[int]) -> list[int]:
    """The units that contain every one of ``cells``."""
    return [u for u in CELL_UNITS[cells[0]] if all(u in CELL_UNITS[c] for c in cells[1:])]


class Contradiction(ValueError):
    """Logic has shown the position has no solution (e.g. a cell with no candidate left)."""


def read_grid(grid: str | Sequence[int]) -> list[int]:
    """81 digits (0 blank) from an 81-character line or a sequence of 81 ints.

    ``ValueError`` names the problem: the length, a bad character and where
    it is, or two givens that clash.
    """
    values = as_grid(grid)
    check_givens(values)
    return list(values)


class Board:
    """Digits placed so far and the candidates of every empty cell; changed in place."""

    __slots__ = ("cands", "values")

    def __init__(self, values: list[int], cands: list[int]) -> None:
        self.values = values
        self.cands = cands

    @classmethod
    def from_grid(
        cls, grid: str | Sequence[int], candidates: Sequence[int | Sequence[int]] | None = None
    ) -> Board:
        """The board of ``grid``, its candidates those the placed digits allow.

        ``candidates`` (81 entries, each a mask with bit ``d - 1`` for digit
        ``d`` or a collection of digits) narrows them further, e.g. to a
        player's pencil marks; entries of filled cells are ignored.
        """
        values = read_grid(grid)
        cands = [0 if values[c] else ALL & ~seen_digits(values, c) for c in range(81)]
        if candidates is not None:
            marks = list(candidates)
            if len(marks) != 81:
                raise ValueError(f"candidates are given for 81 cells, not {len(marks)}")
            for c, mark in enumerate(marks):
                if isinstance(mark, int):
                    if not 0 <= mark <= ALL:
                        raise ValueError(f"{NAMES[c]}: candidate mask {mark} is not 9 bits")
                    cands[c] &= mark
                else:
                    mask = 0
                    for d in mark:
                        if not 1 <= int(d) <= 9:
                            raise ValueError(f"{NAMES[c]}: candidate {d} is not a digit 1-9")
                        mask |= BIT[int(d)]
                    cands[c] &= mask
        return cls(values, cands)

    def solved(self) -> bool:
        return all(self.values)

    def place(self, cell: int, digit: int) -> None:
        self.values[cell] = digit
        self.cands[cell] = 0
        off = ~BIT[digit]
        cands = self.cands
        for p in PEERS[cell]:
            cands[p] &= off

    def eliminate(self, cell: int, digit: int) -> None:
        self.cands[cell] &= ~BIT[digit]

    def digit_cells(self, digit: int) -> int:
        """The cells that may still hold ``digit``, as an 81-bit mask."""
        bit, bits = BIT[digit], 0
        for c, m in enumerate(self.cands):
            if m & bit:
                bits |= 1 << c
        return bits


def seen_digits(values: Sequence[int], cell: int) -> int:
    """The mask of digits already placed among the peers of ``cell``."""
    seen = 0
    for p in PEERS[cell]:
        seen |= BIT[values[p]]
    return seen
