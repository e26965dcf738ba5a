"""Terminal picture of a Sansumoku position.

Blue and orange digits; every open cell shows, faintly, the digit that must
be played there; the last move is highlighted in the mover's colour; won
sections are tinted, those won by constraint say so below the board.
"""

from __future__ import annotations

from sansu.core.sections import SECTION_NAMES, section_of
from sansu.games.sansumoku import COLOURS, SansumokuState
from sansu.render.style import (
    BG_BLUE,
    BG_GREY,
    BG_ORANGE,
    BOLD,
    DIM,
    LIGHT_BLUE,
    LIGHT_ORANGE,
    PLAYER_COLOURS,
    REVERSE,
    draw_grid,
    paint,
)

NAMES = COLOURS

TAGS = ("b", "o")
"""Without colour, a digit carries its player's initial: ``5b`` or ``5o``."""


def render(state: SansumokuState, *, color: bool = False) -> str:
    last = state.last_move.cell if state.last_move is not None else None
    hint = LIGHT_BLUE if state.to_move == 0 else LIGHT_ORANGE

    def cell(index: int) -> tuple[str, str]:
        section = section_of(index)
        player = state.player_at(index)
        owner = state.section_owner(section)
        if player is not None:
            digit = state.digit_at(index)
            if color:
                text = f" {digit} "
            else:
                text = f"{digit}{TAGS[player]}" + ("*" if index == last else " ")
            style = f"{BOLD};{PLAYER_COLOURS[player]}"
            if index == last:
                style += f";{REVERSE}"
        elif state.is_legal_cell(index):
            text = f" {state.next_digit(section)} " if color else f"·{state.next_digit(section)}·"
            style = f"{DIM};{hint}"
        else:
            text, style = "   ", ""
        if owner is not None and index != last:
            style += ";" + (BG_BLUE if owner == 0 else BG_ORANGE)
        elif state.is_closed(section) and index != last:
            style += f";{BG_GREY}"
        return text, style.lstrip(";")

    lines = draw_grid(9, 9, cell, color=color)
    lines.append("")
    lines.extend(_summary(state, color))
    return "\n".join(lines)


def _summary(state: SansumokuState, color: bool) -> list[str]:
    out = []
    won = []
    for s in range(9):
        owner = state.section_owner(s)
        if owner is not None:
            how = " by constraint" if state.won_by_constraint(s) else ""
            won.append(f"{SECTION_NAMES[s]} {COLOURS[owner]}{how}")
    if won:
        out.append("sections won: " + "; ".join(won))
    if state.last_move is not None:
        mover = COLOURS[(state.ply - 1) % 2]
        digit = state.digit_at(state.last_move.cell)
        out.append(f"last move: {mover} {digit} at {state.last_move}")
    if state.result is not None:
        if state.result.draw:
            text = f"Draw: {state.result.reason}"
        else:
            text = f"{COLOURS[state.result.winners[0]]} wins: {state.result.reason}"
        out.append(paint(text, BOLD, color))
        return out
    mover = state.to_move or 0
    allowed = state.allowed_sections()
    if state.wildcard:
        digits = ", ".join(
            f"{SECTION_NAMES[s]} {state.next_digit(s)}"
            for s in allowed
            if any(state.is_legal_cell(c) for c in range(81) if section_of(c) == s)
        )
        where = f"wildcard — any open section ({digits})"
    else:
        where = f"a {state.next_digit(allowed[0])} in the {SECTION_NAMES[allowed[0]]} section"
    out.append(
        paint(f"{COLOURS[mover]} to move: {where}", f"{BOLD};{PLAYER_COLOURS[mover]}", color)
    )
    return out
