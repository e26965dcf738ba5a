"""Terminal picture of a 35 position: the board of numbers beside the board of neighbour sums.

Every mark is a character as well as a colour, so the picture reads the same
in plain text: ``R7``/``B7`` a red/blue 7, ``r``/``b`` an empty square
highlighted red/blue, ``*`` the last move, ``!`` a square the last move
converted. On the sums board ``!`` marks the squares that triggered on the
last move, ``=`` those that triggered earlier, ``>`` the over-thwarted and
``<`` the under-thwarted squares.
"""

from __future__ import annotations

import re

from sansu.core.cells import cell_name
from sansu.games.thirtyfive import COLOURS, ThirtyFiveState
from sansu.render.style import (
    BG_BLUE,
    BG_RED,
    BLUE,
    BOLD,
    DIM,
    GREY,
    RED,
    REVERSE,
    UNDERLINE,
    draw_grid,
    paint,
)

FG = (RED, BLUE)
BG = (BG_RED, BG_BLUE)
NAMES = tuple(c.capitalize() for c in COLOURS)
SIDE_BY_SIDE_MAX_COLS = 8
"""Boards up to this many columns fit twice across an 80-column terminal."""

_ANSI = re.compile(r"\x1b\[[0-9;]*m")

LEGEND = (
    "R7 B7  a red / blue 7           r b  empty square highlighted red / blue",
    "*      the last move            !    converted by the last move",
    "sums:  ! triggered now   = triggered before   > over 35   < can no longer reach 35",
)


def render(state: ThirtyFiveState, *, color: bool = False) -> str:
    rows, cols = state.rows, state.cols
    last = state.last_move.cell if state.last_move is not None else None  # type: ignore[attr-defined]
    converted = set(state.converted_cells())
    triggered = set(state.triggered_cells())
    over = set(state.over_thwarted())
    under = set(state.under_thwarted())

    def number(index: int) -> tuple[str, str]:
        value = state.value_at(index)
        mark = "*" if index == last else "!" if index in converted else " "
        if value is not None:
            colour = state.colour_at(index)
            assert colour is not None
            style = f"{BOLD};{FG[colour]}"
            if index == last:
                style += f";{REVERSE}"
            elif index in converted:
                style += f";{UNDERLINE}"
            return f"{'RB'[colour]}{value}{mark}", style
        highlight = state.highlight_at(index)
        if highlight is not None:
            return f" {'rb'[highlight]}{mark}", f"{FG[highlight]};{BG[highlight]}"
        return " · ", GREY

    def total(index: int) -> tuple[str, str]:
        value = state.sum_at(index)
        colour = state.colour_at(index)
        if colour is None:
            colour = state.highlight_at(index)
        style = FG[colour] if colour is not None else ""
        if index in triggered:
            mark, style = "!", f"{style};{BOLD};{REVERSE}"
        elif state.has_triggered(index):
            mark, style = "=", f"{style};{BOLD}"
        elif index in over:
            mark, style = ">", f"{style};{DIM}"
        elif index in under:
            mark, style = "<", f"{style};{DIM}"
        else:
            mark = " "
        return f"{value:>2}{mark}", style.lstrip(";")

    left = ["numbers", *draw_grid(rows, cols, number, color=color, box=None)]
    right = ["neighbour sums", *draw_grid(rows, cols, total, color=color, box=None)]
    if cols <= SIDE_BY_SIDE_MAX_COLS:
        width = 4 * cols + 5
        lines = [_pad(a, width) + "   " + b for a, b in zip(left, right, strict=True)]
    else:
        lines = [*left, "", *right]
    lines.append("")
    lines.extend(LEGEND)
    lines.append("")
    lines.extend(_summary(state, color))
    return "\n".join(line.rstrip() for line in lines)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - len(_ANSI.sub("", text)))


def _summary(state: ThirtyFiveState, color: bool) -> list[str]:
    names = [cell_name(i, state.cols) for i in range(state.size)]
    out = []
    if state.last_move is not None:
        mover = (state.ply - 1) % 2
        line = f"last move {state.last_move} by {NAMES[mover]}"
        triggered = state.triggered_cells()
        if triggered:
            which = ", ".join(f"{names[i]} ({COLOURS[state.colour_at(i) or 0]})" for i in triggered)
            line += f"; triggered: {which}"
            if state.cancelled:
                line += " — both colours, so nothing changes"
            else:
                count = len(state.converted_cells())
                line += f" — {count} square{'s' if count != 1 else ''} converted"
        out.append(line)
    red, blue = state.scores()
    out.append(f"squares: red {red}, blue {blue}")
    result = state.result
    if result is not None:
        outcome = "draw" if result.draw else f"{NAMES[result.winners[0]]} wins"
        out.append(paint(f"{result.reason.upper()}: {outcome}", BOLD, color))
    else:
        mover = state.to_move or 0
        out.append(paint(f"{NAMES[mover]} to move", f"{BOLD};{FG[mover]}", color))
    return out
