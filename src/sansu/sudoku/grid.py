"""9×9 Sudoku grids as 81 digits, row-major, 0 for an empty cell.

A grid is a plain tuple so it can be hashed, compared and shared freely; its
text form is the usual 81-character line with ``.`` (or ``0``) for blanks.
The geometry tables (rows, columns, boxes, peers) live here once for every
other module of the toolkit.

    >>> line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    >>> grid = parse_grid(line)
    >>> grid[:9]
    (5, 3, 0, 0, 7, 0, 0, 0, 0)
    >>> format_grid(grid)[:9]
    '53..7....'
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Final

from sansu.core.cells import cell_name
from sansu.core.sections import SECTION_NAMES

Grid = tuple[int, ...]
"""81 digits, row-major; 0 is an empty cell."""

SIZE: Final = 81
DIGITS: Final = range(1, 10)

ROWS: Final = tuple(tuple(9 * r + c for c in range(9)) for r in range(9))
COLUMNS: Final = tuple(tuple(9 * r + c for r in range(9)) for c in range(9))
BOXES: Final = tuple(
    tuple(9 * (3 * (b // 3) + i // 3) + 3 * (b % 3) + i % 3 for i in range(9)) for b in range(9)
)
"""The nine 3×3 boxes, numbered 0–8 row-major, each as its cells in reading order."""

UNITS: Final = ROWS + COLUMNS + BOXES
MAIN_DIAGONAL: Final = tuple(10 * i for i in range(9))
"""r1c1 … r9c9."""
ANTI_DIAGONAL: Final = tuple(8 * (i + 1) for i in range(9))
"""r1c9 … r9c1."""


def row_of(cell: int) -> int:
    return cell // 9


def column_of(cell: int) -> int:
    return cell % 9


def box_of(cell: int) -> int:
    return (cell // 27) * 3 + (cell % 9) // 3


PEERS: Final = tuple(
    tuple(sorted({p for unit in UNITS if c in unit for p in unit} - {c})) for c in range(SIZE)
)
"""The 20 cells that share a row, column or box with each cell."""

NEIGHBOURS: Final = tuple(
    tuple(
        n
        for n, ok in (
            (c - 9, c >= 9),
            (c - 1, c % 9 > 0),
            (c + 1, c % 9 < 8),
            (c + 9, c < 72),
        )
        if ok
    )
    for c in range(SIZE)
)
"""The orthogonally adjacent cells of each cell."""

ADJACENT_PAIRS: Final = tuple((c, n) for c in range(SIZE) for n in NEIGHBOURS[c] if c < n)
"""The 144 orthogonally adjacent cell pairs ``(a, b)`` with ``a < b``."""

EMPTY: Final[Grid] = (0,) * SIZE


def box_name(box: int) -> str:
    """``box_name(4)`` → ``"centre box"``."""
    return f"{SECTION_NAMES[box]} box"


def _digits_of_text(text: str) -> Grid:
    line = text.strip()
    if len(line) != SIZE:
        raise ValueError(f"a grid has 81 cells, this one has {len(line)} characters")
    digits = []
    for position, char in enumerate(line):
        if char == ".":
            digits.append(0)
        elif "0" <= char <= "9":
            digits.append(ord(char) - 48)
        else:
            raise ValueError(
                f"bad character {char!r} at position {position + 1} ({cell_name(position)}):"
                " expected a digit 1-9, or '.' or '0' for a blank"
            )
    return tuple(digits)


def as_grid(value: str | Sequence[int]) -> Grid:
    """A grid from an 81-character string or any sequence of 81 digits 0–9.

    Unlike :func:`parse_grid` this does not look for clashing givens (a
    solver simply finds no solution then); it only checks the shape.
    """
    if isinstance(value, str):
        return _digits_of_text(value)
    if (
        isinstance(value, tuple)
        and len(value) == SIZE
        and all(type(v) is int and 0 <= v <= 9 for v in value)
    ):
        return value
    try:
        digits = tuple(operator.index(v) for v in value)
    except TypeError:
        raise ValueError("a grid is 81 digits 0-9 or an 81-character string") from None
    if len(digits) != SIZE:
        raise ValueError(f"a grid has 81 cells, this one has {len(digits)}")
    for position, digit in enumerate(digits):
        if not 0 <= digit <= 9:
            raise ValueError(f"{cell_name(position)}: {digit} is not a digit 0-9")
    return digits


def classic_clash(grid: Sequence[int], cell: int, digit: int) -> str | None:
    """Why ``digit`` cannot stand on ``cell`` by the classic rules, or ``None``.

    The reason names the unit and the clashing cell, e.g.
    ``"a 5 is already in column 4 (r7c4)"``. ``cell`` itself is ignored.
    """
    row, col, box = row_of(cell), column_of(cell), box_of(cell)
    for label, unit in (
        (f"row {row + 1}", ROWS[row]),
        (f"column {col + 1}", COLUMNS[col]),
        (f"the {box_name(box)}", BOXES[box]),
    ):
        for other in unit:
            if other != cell and grid[other] == digit:
                return f"a {digit} is already in {label} ({cell_name(other)})"
    return None


def parse_grid(text: str) -> Grid:
    """The grid written as 81 characters (``.`` or ``0`` blank; surrounding space ignored).

    ``ValueError`` gives the precise reason: the length, a bad character and
    its position, or the first given that breaks a classic rule, e.g.
    ``"r1c4: a 5 is already in column 4 (r7c4)"``.
    """
    if not isinstance(text, str):
        raise ValueError(f"a grid is written as text, not {type(text).__name__}")
    grid = _digits_of_text(text)
    check_givens(grid)
    return grid


def check_givens(grid: Sequence[int]) -> None:
    """``ValueError`` naming the first given that breaks a classic rule, if any."""
    for cell, digit in enumerate(grid):
        if digit:
            clash = classic_clash(grid, cell, digit)
            if clash is not None:
                raise ValueError(f"{cell_name(cell)}: {clash}")


def format_grid(grid: str | Sequence[int]) -> str:
    """The 81-character line of ``grid``, ``.`` for blanks."""
    return "".join(str(d) if d else "." for d in as_grid(grid))


def pretty_grid(grid: str | Sequence[int]) -> str:
    """``grid`` as nine lines with box separators, for people."""
    digits = format_grid(grid)
    lines = []
    for r in range(9):
        if r and r % 3 == 0:
            lines.append("------+-------+------")
        row = digits[9 * r : 9 * r + 9]
        lines.append(" | ".join(" ".join(row[i : i + 3]) for i in (0, 3, 6)))
    return "\n".join(lines)


def count_givens(grid: Sequence[int]) -> int:
    return sum(1 for d in grid if d)


def extends(solution: Sequence[int], givens: Sequence[int]) -> bool:
    """True when ``solution`` keeps every filled cell of ``givens``."""
    return all(g == 0 or g == s for g, s in zip(givens, solution, strict=True))
