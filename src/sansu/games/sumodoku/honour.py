"""Sumodoku's honour variant: rule-breaking placements stand until someone says so.

A player may ``challenge`` instead of placing (right: they win; wrong: they
lose), and a spectator may ``report`` a piece that broke a rule when it
came, which takes it out of the game. Each takes a state and returns a new one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sansu.core.cells import cell_name
from sansu.core.protocol import IllegalMove, Result
from sansu.games.sumodoku.masks import replaced
from sansu.games.sumodoku.moves import CHALLENGE, Report
from sansu.games.sumodoku.numbers import CLAIM

if TYPE_CHECKING:
    from sansu.games.sumodoku.state import SumodokuState


def challenge(state: SumodokuState) -> SumodokuState:
    """``challenge``: the mover wins if the board breaks a rule, and loses if not."""
    player = state.to_move
    assert player is not None
    if not state.game.honour:
        raise IllegalMove(
            "challenge belongs to the honour variant; here no rule-breaking piece can stand",
            "challenge",
        )
    if state._phase == CLAIM:
        raise IllegalMove("no challenge during a Sudoku claim", "challenge")
    new = state._copy()
    new.last_move = CHALLENGE
    new.to_move = None
    problems = state.game.rules.violations(state._grid)
    if problems:
        new.result = Result.win(player, reason=f"successful challenge: {problems[0]}")
    else:
        new.result = Result.win(1 - player, reason="failed challenge: the board breaks no rule")
    return new


def report(state: SumodokuState, move: Report) -> SumodokuState:
    """``report rRcC``: a spectator's report takes a rule-breaking piece out of the game;
    its cell becomes a hole."""
    cell = move.cell
    if not state.game.honour:
        raise IllegalMove(
            "reports belong to the honour variant; here no rule-breaking piece can stand",
            str(move),
        )
    if not state._grid[cell]:
        raise IllegalMove(f"{cell_name(cell)} is empty", str(move))
    if state.offence(cell) is None:
        later = state.game.rules.placement_error(
            replaced(state._grid, cell, 0), cell, state._grid[cell]
        )
        if later is not None:
            raise IllegalMove(
                f"the {state._grid[cell]} on {cell_name(cell)} came first ({later});"
                " report the later piece",
                str(move),
            )
        raise IllegalMove(f"the {state._grid[cell]} on {cell_name(cell)} breaks no rule", str(move))
    colour = state._grid[cell]
    new = state._copy()
    new.last_move = move
    new._remove(cell)
    new._holes = state._holes | 1 << cell
    new._removed = replaced(state._removed, colour, state._removed[colour] + 1)
    return new
