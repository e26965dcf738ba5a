"""Terminal picture of a Sudoku Challenge position: the grid, whose turn, the score sheet.

Givens are plain; entries carry their player's colour (without colour, the
player's number, 0 for Blue, as a subscript: ``5₁``). The cell a player must correct
after an error is marked ``[ ]``.
"""

from __future__ import annotations

from sansu.core.cells import cell_name
from sansu.games.challenge import GRID_FULL, PLAYED, PLAYING, TEAM_NAMES, ChallengeState, TurnRow
from sansu.render.style import (
    BG_RED,
    BOLD,
    GREY,
    PLAYER_COLOURS,
    RED,
    REVERSE,
    SEAT_NAMES,
    draw_grid,
    paint,
)

NAMES = SEAT_NAMES

SUBSCRIPTS = "₀₁₂₃₄"


def render(state: ChallengeState, *, color: bool = False) -> str:
    grid = state.grid
    last = getattr(state.last_move, "cell", None)
    if last is not None and (not grid[last] or state.owner(last) is None):
        last = None
    required = state.required_cell

    def cell(index: int) -> tuple[str, str]:
        digit = grid[index]
        if not digit:
            if index == required:
                return "[ ]", BG_RED
            return " · ", GREY
        who = state.owner(index)
        if who is None:
            return f" {digit} ", BOLD
        style = PLAYER_COLOURS[who]
        if index == last:
            style += f";{REVERSE}"
        return (f" {digit} " if color else f" {digit}{SUBSCRIPTS[who]}"), style

    lines = [_header(state, color), *draw_grid(9, 9, cell, color=color), ""]
    lines.append(_status(state, color))
    lines.append(_scores(state, color))
    if state.errors:
        lines.append(
            "errors: "
            + ", ".join(
                paint(f"{cell_name(e.cell)}={e.digit}", RED, color)
                + f" ({SEAT_NAMES[e.player]}, round {e.round})"
                for e in state.errors
            )
        )
    lines.append("")
    lines.extend(_sheet(state, color))
    return "\n".join(lines)


def _header(state: ChallengeState, color: bool) -> str:
    parts = [f"round {state.round}", f"{_entries(state.round_count)} a turn"]
    if state.final_round:
        parts.append(paint("FINAL ROUND", BOLD, color))
        parts.append("order " + ", ".join(SEAT_NAMES[p] for p in state.order))
    if state.turn_seconds:
        parts.append(f"{state.turn_seconds} s a turn")
    parts.append(f"{state.empty_cells} empty")
    return "Sudoku Challenge · " + " · ".join(parts)


def _entries(n: int) -> str:
    return f"{n} entr{'y' if n == 1 else 'ies'}"


def _status(state: ChallengeState, color: bool) -> str:
    result = state.result
    if result is not None:
        if result.draw:
            outcome = "draw"
        else:
            who = " and ".join(SEAT_NAMES[p] for p in result.winners)
            outcome = f"{who} win{'s' if len(result.winners) == 1 else ''}"
        return paint(f"{result.reason.upper()}: {outcome}", BOLD, color)
    player = state.to_move or 0
    text = f"{SEAT_NAMES[player]} to move: {_entries(state.entries_left)} left this turn"
    if state.required_cell is not None:
        where = cell_name(state.required_cell)
        wrong = ", ".join(str(d) for d in state.wrong_digits(state.required_cell))
        text += f", must correct {where} (not {wrong})"
    return paint(text, f"{BOLD};{PLAYER_COLOURS[player]}", color)


def _scores(state: ChallengeState, color: bool) -> str:
    text = "scores: " + " · ".join(
        paint(f"{SEAT_NAMES[p]} {s}", PLAYER_COLOURS[p], color) for p, s in enumerate(state.scores)
    )
    team_scores = state.team_scores
    if team_scores is not None and state.game.teams is not None:
        text += " | " + " · ".join(
            f"team {name} ({SEAT_NAMES[a]}, {SEAT_NAMES[b]}) {s}"
            for name, (a, b), s in zip(TEAM_NAMES, state.game.teams, team_scores, strict=True)
        )
    return text


def _sheet(state: ChallengeState, color: bool) -> list[str]:
    """One line a turn played so far, with its breakdown and the running score."""
    running = [0] * len(state.scores)
    lines = ["score sheet:"]
    for row in state.sheet:
        running[row.player] += row.total
        if row.status not in (PLAYED, PLAYING, GRID_FULL) and not row.handicap:
            continue
        moves = _moves(row) if row.status != GRID_FULL else "grid full, could not play"
        if row.timeout:
            moves += " (time up)"
        head = paint(f"{SEAT_NAMES[row.player]:<6}", PLAYER_COLOURS[row.player], color)
        lines.append(
            f"  round {row.round:>2} ×{row.count}  {head}  {moves:<34} "
            f"{_breakdown(row):<24} → {running[row.player]}"
        )
    return lines


def _moves(row: TurnRow) -> str:
    """The turn's entries in order, each error (``✗``) just before its correction."""
    out: list[str] = []
    errors = list(row.errors)
    for placed in row.entries:
        for error in [e for e in errors if e.cell == placed.cell]:
            out.append(f"{error}✗")
            errors.remove(error)
        unscored = placed.corrected and not placed.points
        out.append(f"{cell_name(placed.cell)}={placed.digit}" + ("(0)" if unscored else ""))
    out += [f"{e}✗" for e in errors]
    return " ".join(out) or "—"


def _breakdown(row: TurnRow) -> str:
    parts = [str(row.digits)]
    if row.bonus:
        parts.append(f"+ {row.bonus} bonus")
    if row.handicap:
        parts.append(f"+ {row.handicap} handicap")
    if row.penalty:
        parts.append(f"− {row.penalty} errors")
    if row.grid_full:
        parts = [f"{row.grid_full} grid full"]
    return " ".join(parts)
