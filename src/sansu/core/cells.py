"""Cell names: ``r{row}c{col}``, 1-based, row 1 at the top (the usual Sudoku notation).

Engines index cells row-major from 0 (``index = row * cols + col``); these
helpers are the one place that converts between indices and text.
"""

from __future__ import annotations

import re

from sansu.core.protocol import IllegalMove

_PLACEMENT = re.compile(r"^\s*r\s*(\d+)\s*c\s*(\d+)\s*(?:=\s*(\S+)\s*)?$", re.IGNORECASE)


def cell_name(index: int, cols: int = 9) -> str:
    """``cell_name(0)`` → ``"r1c1"``; ``cell_name(40)`` → ``"r5c5"``."""
    row, col = divmod(index, cols)
    return f"r{row + 1}c{col + 1}"


def parse_placement(text: str, rows: int = 9, cols: int = 9) -> tuple[int, str | None]:
    """``"r5c5=7"`` → ``(40, "7")``; ``"R5C5"`` → ``(40, None)``.

    The value after ``=`` is returned as text for the game to interpret.
    Raises :class:`IllegalMove` for text that names no cell of the board.
    """
    if not isinstance(text, str):
        raise IllegalMove(f"expected a move as text, got {type(text).__name__}")
    match = _PLACEMENT.match(text)
    if match is None:
        raise IllegalMove(f"{text.strip()!r} is not a move (expected a cell like r5c5)")
    row, col = int(match.group(1)), int(match.group(2))
    if not (1 <= row <= rows and 1 <= col <= cols):
        raise IllegalMove(
            f"there is no cell r{row}c{col} on a board of {rows} rows and {cols} columns"
        )
    return (row - 1) * cols + (col - 1), match.group(3)


def parse_digit(value: str, move: str, low: int = 1, high: int = 9) -> int:
    """The digit after ``=`` in a placement, checked to lie in ``low..high``."""
    if not value.isdigit() or not low <= int(value) <= high:
        raise IllegalMove(f"the value must be a digit from {low} to {high}, not {value!r}", move)
    return int(value)
