"""35's board: its size limits, the move objects and the tables of one board size.

Everything that depends only on the board size (neighbours, the byte
patterns that add a number to its neighbours' sums, the move objects) is
built once per size in :class:`Geometry` and shared by every game of that size.
"""

from __future__ import annotations

from functools import cache
from itertools import chain

from sansu.core.cells import cell_name, parse_digit, parse_placement
from sansu.core.protocol import IllegalMove

RED = 0
BLUE = 1
COLOURS = ("red", "blue")
"""Colour names by player: Red is player 0 and moves first."""

TARGET = 35
"""The neighbour sum that triggers a square."""

MAX_DIGIT = 9
MIN_SIZE = 3
MAX_SIZE = 12


class Placement:
    """A number placed on a square, e.g. ``r4c5=9``.

    There is exactly one instance per square and number for each board size
    (:attr:`Geometry.moves`), so moves compare by identity; pickling keeps this.
    """

    __slots__ = ("cell", "digit", "geometry", "text")

    def __init__(self, geometry: Geometry, cell: int, digit: int) -> None:
        self.geometry = geometry
        self.cell = cell
        self.digit = digit
        self.text = f"{cell_name(cell, geometry.cols)}={digit}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Placement({self.text})"

    def __reduce__(self) -> tuple[object, tuple[int, int, int, int]]:
        geo = self.geometry
        return (_placement, (geo.rows, geo.cols, self.cell, self.digit))


def _placement(rows: int, cols: int, cell: int, digit: int) -> Placement:
    return geometry(rows, cols).move(cell, digit)


class Geometry:
    """The tables of one board size: neighbours, sum patterns and the interned moves."""

    __slots__ = (
        "by_text",
        "cell_moves",
        "cols",
        "full",
        "high",
        "low7",
        "moves",
        "names",
        "neighbour_mask",
        "neighbours",
        "rows",
        "size",
        "step",
        "target",
        "watch",
    )

    def __init__(self, rows: int, cols: int) -> None:
        self.rows = rows
        self.cols = cols
        size = self.size = rows * cols
        self.full = (1 << size) - 1
        self.names = tuple(cell_name(i, cols) for i in range(size))
        neighbours = []
        for index in range(size):
            r, c = divmod(index, cols)
            neighbours.append(
                tuple(
                    rr * cols + cc
                    for rr in range(r - 1, r + 2)
                    for cc in range(c - 1, c + 2)
                    if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols
                )
            )
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(neighbours)
        self.neighbour_mask = tuple(sum(1 << n for n in nb) for nb in neighbours)
        # Byte-packed patterns: adding digit * step[i] adds the digit to the
        # sum of every neighbour of i; watch[i] marks the top bit of the bytes
        # of i and its neighbours, the only sums that can become 35 when i is
        # filled.
        self.step = tuple(sum(1 << (8 * n) for n in nb) for nb in neighbours)
        ones = sum(1 << (8 * i) for i in range(size))
        self.target = TARGET * ones
        self.low7 = 0x7F * ones
        self.high = 0x80 * ones
        self.watch = tuple(
            sum(0x80 << (8 * n) for n in (i, *nb)) for i, nb in enumerate(neighbours)
        )
        self.cell_moves = tuple(
            tuple(Placement(self, i, d) for d in range(1, MAX_DIGIT + 1)) for i in range(size)
        )
        self.moves = tuple(chain.from_iterable(self.cell_moves))
        self.by_text = {m.text: m for m in self.moves}

    def move(self, cell: int, digit: int) -> Placement:
        return self.cell_moves[cell][digit - 1]

    def parse(self, text: str) -> Placement:
        """The placement that ``text`` names (``r4c5=9``; case and spaces forgiven)."""
        found = self.by_text.get(text) if isinstance(text, str) else None
        if found is not None:
            return found
        cell, value = parse_placement(text, self.rows, self.cols)
        name = self.names[cell]
        if value is None:
            raise IllegalMove(
                f"a move places a number: write it as {name}=D with D from 1 to 9", name
            )
        return self.move(cell, parse_digit(value, name, 1, MAX_DIGIT))


@cache
def geometry(rows: int, cols: int) -> Geometry:
    """The tables of a ``rows`` × ``cols`` board, built once per size."""
    return Geometry(rows, cols)
