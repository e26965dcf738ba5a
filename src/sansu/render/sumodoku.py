"""Terminal picture of a Sumodoku position.

Pieces are their colour's digit, so the board reads without colour: Blue's
(the first player's) pieces as `` 5 ``, Orange's as ``(5)``, a claimant's claim-phase pieces
as ``[5]``. Empty cells show the variant marks (``o``/``e`` parity, ``╲``/``╱``
diagonals) and ``#`` marks a hole left by a report. With colour, each of the
nine colours gets its own hue and the last move is shown reversed.
"""

from __future__ import annotations

import textwrap

from sansu.core.cells import cell_name
from sansu.games.sumodoku import CLAIM, CLAIM_FIRST, CLAIM_LAST, SumodokuState
from sansu.render.style import BOLD, GREY, PLAYER_COLOURS, REVERSE, SEAT_NAMES, draw_grid, paint
from sansu.sudoku.grid import ANTI_DIAGONAL, MAIN_DIAGONAL

PIECE_COLOURS = (
    "",
    "38;5;196",  # 1 red
    "38;5;208",  # 2 orange
    "38;5;226",  # 3 yellow
    "38;5;40",  # 4 green
    "38;5;51",  # 5 cyan
    "38;5;33",  # 6 blue
    "38;5;135",  # 7 purple
    "38;5;213",  # 8 pink
    "38;5;252",  # 9 white
)
"""The hue of each colour (digit) on a terminal."""
NAMES = SEAT_NAMES[:2]
"""The players are named by the colour of their texts (their pieces' colours are digits)."""
LEGEND = (f"5 {NAMES[0]}'s piece", f"(5) {NAMES[1]}'s", "[5] claim piece", "# hole")
DOT = "•"
"""Drawn on the border between the two cells of a consecutive pair."""


def _mark_pairs(lines: list[str], pairs: frozenset[tuple[int, int]]) -> list[str]:
    """``lines`` of :func:`draw_grid` with a dot on each marked border.

    Row ``r`` is line ``2 + 2r`` (its borders are the ``│``/``┃`` characters,
    never part of a cell or a colour code); the rule under it is line ``3 + 2r``.
    """
    lines = list(lines)
    for a, b in pairs:
        row, col = divmod(a, 9)
        if b == a + 1:
            index = 2 + 2 * row
            borders = [i for i, ch in enumerate(lines[index]) if ch in "│┃"]
            at = borders[col + 1]
        else:
            index = 3 + 2 * row
            at = 6 + 4 * col
        line = lines[index]
        lines[index] = line[:at] + DOT + line[at + 1 :]
    return lines


def render(state: SumodokuState, *, color: bool = False) -> str:
    rules = state.game.rules
    claim = set(state.claim_cells())
    holes = set(state.holes())
    last = getattr(state.last_move, "cell", None) if state.last_move is not None else None
    if state.last_move is not None and not hasattr(state.last_move, "colour"):
        last = None

    def cell(index: int) -> tuple[str, str]:
        colour = state.grid[index]
        if colour:
            owner = state.owner_of(index)
            if index in claim:
                text = f"[{colour}]"
            elif owner == 1:
                text = f"({colour})"
            else:
                text = f" {colour} "
            style = f"{BOLD};{PIECE_COLOURS[colour]}"
            if index == last:
                style += f";{REVERSE}"
            return text, style
        if index in holes:
            return " # ", GREY
        parity = rules.parity_of(index)
        if parity is not None:
            return f" {parity[0]} ", GREY
        if rules.diagonals and index in MAIN_DIAGONAL and index in ANTI_DIAGONAL:
            return " ╳ ", GREY
        if rules.diagonals and index in MAIN_DIAGONAL:
            return " ╲ ", GREY
        if rules.diagonals and index in ANTI_DIAGONAL:
            return " ╱ ", GREY
        return " · ", GREY

    lines = _mark_pairs(draw_grid(9, 9, cell, color=color), rules.consecutive)
    legend = list(LEGEND)
    if rules.parity:
        legend.append("o/e odd/even cell")
    if rules.consecutive:
        legend.append(f"{DOT} consecutive pair")
    lines.append("legend: " + " · ".join(legend[:4]))
    if legend[4:]:
        lines.append("        " + " · ".join(legend[4:]))
    lines.append("")
    lines += _summary(state, color)
    return "\n".join(lines)


def _counts(hand: tuple[int, ...]) -> str:
    parts = [f"{c}×{hand[c]}" for c in range(1, 10) if hand[c]]
    return (" ".join(parts) or "none") + f" ({sum(hand)} left)"


def _summary(state: SumodokuState, color: bool) -> list[str]:
    game = state.game
    rules = game.rules
    out = []
    variants = []
    if game.any_colour:
        variants.append("any colour")
    if rules.diagonals:
        variants.append("diagonals")
    if rules.parity is not None:
        variants.append("parity")
    if rules.consecutive:
        variants.append(f"consecutive ({len(rules.consecutive)} marks)")
    if rules.strict_consecutive:
        variants.append("strict non-consecutive")
    if game.honour:
        variants.append("honour")
    if variants:
        out.append("variants: " + ", ".join(variants))
    if rules.consecutive:
        pairs = ", ".join(f"{cell_name(a)}-{cell_name(b)}" for a, b in sorted(rules.consecutive))
        out += textwrap.wrap("consecutive pairs: " + pairs, 100, subsequent_indent="  ")
    if state.holes():
        out.append("holes: " + ", ".join(cell_name(c) for c in state.holes()))
    if game.deal is not None:
        deal = game.deal
        spare = f"spare {deal.shared} set aside" if state.spare else "spare given out"
        out.append(
            f"deal {deal.text}: {NAMES[0]} owns {' '.join(map(str, deal.colours[0]))},"
            f" {NAMES[1]} owns {' '.join(map(str, deal.colours[1]))}, {deal.shared} is shared;"
            f" {spare}"
        )
    if state.phase == CLAIM:
        claimant = state.claimant or 0
        out.append(
            paint(
                f"SUDOKU CLAIM by {NAMES[claimant]} (made on turn {state.claim_turn}):"
                f" {state.claim_minutes()} minutes",
                f"{BOLD};{PLAYER_COLOURS[claimant]}",
                color,
            )
        )
        out.append(f"claim pieces: {_counts(state.hand(claimant))}")
        if state.claim_cells():
            out.append("erasable: " + ", ".join(cell_name(c) for c in state.claim_cells()))
    else:
        if game.any_colour:
            out.append(f"pool: {_counts(state.hand(0))}")
        for player in (0, 1):
            taken = state.turns_taken(player)
            line = f"{NAMES[player]}: turns taken {taken}"
            if not game.any_colour:
                line += f"; pieces {_counts(state.hand(player))}"
            out.append(line)
    if state.last_move is not None:
        out.append(f"last move: {state.last_move}")
    if state.result is not None:
        winners = " and ".join(NAMES[w] for w in state.result.winners) or "nobody"
        out.append(paint(f"{winners.upper()} WINS: {state.result.reason}", BOLD, color))
        return out
    mover = state.to_move or 0
    turn = state.turn_number()
    if state.phase == CLAIM:
        out.append(paint(f"{NAMES[mover]} completes the grid", BOLD, color))
        return out
    if state.claim_open():
        claim = f"may claim sudoku now ({state.claim_minutes()} minutes to complete)"
    elif turn is not None and turn < CLAIM_FIRST:
        claim = f"claims open on turn {CLAIM_FIRST}"
    else:
        claim = f"claims closed after turn {CLAIM_LAST}"
    out.append(
        paint(
            f"{NAMES[mover]} to move (turn {turn}); {claim}",
            f"{BOLD};{PLAYER_COLOURS[mover]}",
            color,
        )
    )
    return out
