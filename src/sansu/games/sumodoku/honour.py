"""Sumodoku's honour variant: rule-breaking placements stand until someone says so.

A player may ``challenge`` instead of placing (right: they win; wrong: they
lose), and a spectator may ``report`` a piece that broke a rule when it
came, which takes it out of the game. Each returns a new state.
"""

from __future__ import annotations

from typing import Self

from sansu.core.cells import cell_name
from sansu.core.protocol import IllegalMove, Result
from sansu.games.sumodoku.masks import replaced
from sansu.games.sumodoku.moves import CHALLENGE, Report
from sansu.games.sumodoku.numbers import CLAIM


class HonourMoves:
    """The honour variant's moves, mixed into :class:`~sansu.games.sumodoku.game.SumodokuState`."""

    __slots__ = ()

    def _challenge(self) -> Self:
        """``challenge``: the mover wins if the board breaks a rule, and loses if not."""
        player = self.to_move
        assert player is not None
        if not self.game.honour:
            raise IllegalMove(
                "challenge belongs to the honour variant; here no rule-breaking piece can stand",
                "challenge",
            )
        if self._phase == CLAIM:
            raise IllegalMove("no challenge during a Sudoku claim", "challenge")
        new = self._copy()
        new.last_move = CHALLENGE
        new.to_move = None
        problems = self.game.rules.violations(self._grid)
        if problems:
            new.result = Result.win(player, reason=f"successful challenge: {problems[0]}")
        else:
            new.result = Result.win(1 - player, reason="failed challenge: the board breaks no rule")
        return new

    def _report(self, move: Report) -> Self:
        """``report rRcC``: a spectator's report takes a rule-breaking piece out of the game;
        its cell becomes a hole."""
        cell = move.cell
        if not self.game.honour:
            raise IllegalMove(
                "reports belong to the honour variant; here no rule-breaking piece can stand",
                str(move),
            )
        if not self._grid[cell]:
            raise IllegalMove(f"{cell_name(cell)} is empty", str(move))
        if self.offence(cell) is None:
            later = self.game.rules.placement_error(
                replaced(self._grid, cell, 0), cell, self._grid[cell]
            )
            if later is not None:
                raise IllegalMove(
                    f"the {self._grid[cell]} on {cell_name(cell)} came first ({later});"
                    " report the later piece",
                    str(move),
                )
            raise IllegalMove(
                f"the {self._grid[cell]} on {cell_name(cell)} breaks no rule", str(move)
            )
        colour = self._grid[cell]
        new = self._copy()
        new.last_move = move
        new._remove(cell)
        new._holes = self._holes | 1 << cell
        new._removed = replaced(self._removed, colour, self._removed[colour] + 1)
        return new
