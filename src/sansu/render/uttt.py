"""Terminal picture of an Ultimate Tic-Tac-Toe position."""

from __future__ import annotations

from sansu.core.sections import SECTION_NAMES, section_of
from sansu.games.uttt import MARKS, UTTTState
from sansu.render.style import (
    BG_BLUE,
    BG_GREY,
    BG_ORANGE,
    BOLD,
    DIM,
    GREY,
    PLAYER_COLOURS,
    REVERSE,
    draw_grid,
    paint,
)

NAMES = MARKS


def render(state: UTTTState, *, color: bool = False) -> str:
    allowed = set(state.allowed_sections())
    last = state.last_move.cell if state.last_move is not None else None
    line = set(state.winning_line() or ())

    def cell(index: int) -> tuple[str, str]:
        mark = state.mark_at(index)
        section = section_of(index)
        owner = state.section_owner(section)
        if mark is not None:
            text = f"[{MARKS[mark]}]" if index == last and not color else f" {MARKS[mark]} "
            style = f"{BOLD};{PLAYER_COLOURS[mark]}"
            if index == last:
                style += f";{REVERSE}"
            elif owner is not None and owner != mark:
                style = f"{DIM};{PLAYER_COLOURS[mark]}"
        elif section in allowed:
            text, style = " · ", GREY
        else:
            text, style = "   ", ""
        if owner is not None:
            style += ";" + (BG_BLUE if owner == 0 else BG_ORANGE)
            if section in line:
                style += f";{BOLD}"
        elif state.is_closed(section):
            style += f";{BG_GREY}"
        return text, style.lstrip(";")

    lines = draw_grid(9, 9, cell, color=color)
    lines.append("")
    lines.append(_summary(state, color))
    return "\n".join(lines)


def _summary(state: UTTTState, color: bool) -> str:
    won = []
    for s in range(9):
        owner = state.section_owner(s)
        if owner is not None:
            won.append(f"{SECTION_NAMES[s]}: {MARKS[owner]}")
    parts = []
    if won:
        parts.append("sections won — " + ", ".join(won))
    if state.last_move is not None:
        parts.append(f"last move {state.last_move} ({MARKS[1 - (state.ply % 2)]})")
    if state.result is not None:
        parts.append(paint(state.result.reason.upper() + ": " + _outcome(state), BOLD, color))
    else:
        allowed = state.allowed_sections()
        where = (
            f"in the {SECTION_NAMES[allowed[0]]} section"
            if len(allowed) == 1
            else "in any open section"
        )
        mover = MARKS[state.to_move or 0]
        parts.append(
            paint(
                f"{mover} to move, {where}", f"{BOLD};{PLAYER_COLOURS[state.to_move or 0]}", color
            )
        )
    return "\n".join(parts)


def _outcome(state: UTTTState) -> str:
    assert state.result is not None
    if state.result.draw:
        return "draw"
    return f"{MARKS[state.result.winners[0]]} wins"
