"""Drawing blocks shared by the terminal renderers: ANSI styles and a boxed grid.

Renderers describe each cell as three visible characters plus a style; the
grid drawer adds the box-drawing frame (heavy lines between 3×3 boxes) and
applies styles only when colour is wanted, so the same code serves terminals
and plain text (files, pipes, tests).
"""

from __future__ import annotations

from collections.abc import Callable

RESET = "\x1b[0m"
BOLD = "1"
DIM = "2"
REVERSE = "7"
UNDERLINE = "4"
RED = "38;5;160"
BLUE = "38;5;33"
ORANGE = "38;5;208"
GREEN = "38;5;34"
GREY = "38;5;245"
LIGHT_BLUE = "38;5;117"
LIGHT_ORANGE = "38;5;223"
BG_BLUE = "48;5;17"
BG_ORANGE = "48;5;94"
BG_RED = "48;5;52"
BG_GREY = "48;5;236"

PLAYER_COLOURS = (BLUE, ORANGE, GREEN, RED, "38;5;135")
SEAT_NAMES = ("Blue", "Orange", "Green", "Red", "Purple")
"""What the texts call the players of games without marks of their own: their colours."""


def paint(text: str, style: str, color: bool) -> str:
    """``text`` wrapped in the SGR ``style`` (e.g. ``"1;38;5;33"``) when ``color``."""
    if not color or not style:
        return text
    return f"\x1b[{style}m{text}{RESET}"


Cell = Callable[[int], tuple[str, str]]
"""Given a row-major cell index: its three visible characters and its style."""


def draw_grid(
    rows: int, cols: int, cell: Cell, *, color: bool, box: tuple[int, int] | None = (3, 3)
) -> list[str]:
    """Lines of a framed grid with column numbers on top and row numbers on the left.

    With ``box`` (rows, cols of a box) the lines between boxes are heavy.
    """

    def heavy_col(c: int) -> bool:
        return c == 0 or c == cols or (box is not None and c % box[1] == 0)

    def heavy_row(r: int) -> bool:
        return r == 0 or r == rows or (box is not None and r % box[0] == 0)

    def rule(r: int) -> str:
        heavy = heavy_row(r)
        parts = []
        for c in range(cols + 1):
            parts.append(_joint(r, c, rows, cols, heavy, heavy_col(c)))
            if c < cols:
                parts.append(("━" if heavy else "─") * 3)
        return "    " + "".join(parts)

    width = len(str(rows))
    lines = ["    " + "".join(f"{c + 1:^4}" for c in range(cols)).rstrip()]
    for r in range(rows):
        lines.append(rule(r))
        parts = [f" {r + 1:>{width}} ".rjust(4)]
        for c in range(cols):
            parts.append("┃" if heavy_col(c) else "│")
            text, style = cell(r * cols + c)
            parts.append(paint(text, style, color))
        parts.append("┃")
        lines.append("".join(parts))
    lines.append(rule(rows))
    return lines


def _joint(r: int, c: int, rows: int, cols: int, heavy_h: bool, heavy_v: bool) -> str:
    top, bottom, left, right = r == 0, r == rows, c == 0, c == cols
    if top:
        return "┏" if left else "┓" if right else ("┳" if heavy_v else "┯")
    if bottom:
        return "┗" if left else "┛" if right else ("┻" if heavy_v else "┷")
    if left:
        return "┣" if heavy_h else "┠"
    if right:
        return "┫" if heavy_h else "┨"
    if heavy_h and heavy_v:
        return "╋"
    if heavy_h:
        return "┿"
    if heavy_v:
        return "╂"
    return "┼"


def status(state_to_move: int | None, names: tuple[str, ...], result_text: str | None) -> str:
    """The line under a board: whose turn it is, or how the game ended."""
    if result_text is not None:
        return result_text
    return f"{names[state_to_move or 0]} to move"
