"""Sumodoku's placements, the move of both phases: a piece put on a cell, and (for the
claim's ``erase`` and the honour variant's ``report``) a piece taken off again.

A placement updates every colour's blocked mask, the hands and the turn
counts, and ends the game when the mover has placed all their pieces or the
opponent has no legal move. Only a fresh copy is ever changed.
"""

from __future__ import annotations

from typing import Self

from sansu.core.cells import cell_name
from sansu.core.protocol import IllegalMove, Player, Result
from sansu.games.sumodoku.masks import replaced
from sansu.games.sumodoku.moves import Placement
from sansu.games.sumodoku.numbers import CLAIM, FULL, NOBODY, OWN_PIECES, player_name


class PlacementMoves:
    """Placing and removing pieces, mixed into :class:`~sansu.games.sumodoku.game.SumodokuState`."""

    __slots__ = ()

    def _place(self, move: Placement) -> Self:
        """The mover's piece on an empty cell; outside a claim, a rule-breaking one stands
        only in the honour variant."""
        cell, colour = move.cell, move.colour
        player = self.to_move
        assert player is not None
        bit = 1 << cell
        if self._filled & bit:
            raise IllegalMove(f"{cell_name(cell)} already holds a {self._grid[cell]}", str(move))
        hand = self._hands[player]
        if not hand[colour]:
            raise IllegalMove(self._no_piece_reason(player, colour), str(move))
        claiming = self._phase == CLAIM
        if self._blocked[colour] & bit and (claiming or not self.game.honour):
            reason = self.game.rules.placement_error(self._grid, cell, colour)
            raise IllegalMove(reason or "that placement breaks a rule", str(move))
        new = self._copy()
        new.last_move = move
        new._grid = replaced(self._grid, cell, colour)
        new._owner = replaced(self._owner, cell, player)
        if self.game.honour:
            new._order = replaced(self._order, cell, self.ply + 1)
        new._filled = self._filled | bit
        new._holes = self._holes & ~bit
        blocked = list(self._blocked)
        for c, m in self.game.masks.forbids[cell][colour]:
            blocked[c] |= m
        new._blocked = tuple(blocked)
        left = replaced(hand, colour, hand[colour] - 1)
        if self._pooled():
            new._hands = (left, left)
        elif player == 0:
            new._hands = (left, self._hands[1])
        else:
            new._hands = (self._hands[0], left)
        if claiming:
            new._claim_cells = self._claim_cells | bit
            if new._filled == FULL:
                return new._finish_claim()
            return new
        turns = list(self._turns)
        turns[player] += 1
        new._turns = (turns[0], turns[1])
        opponent = 1 - player
        new.to_move = opponent
        if not self.game.any_colour and not any(left) and new._clean_for(player):
            new.to_move = None
            new.result = Result.win(player, reason=f"all {OWN_PIECES} pieces placed")
        elif not self.game.honour and not new.can_place(opponent) and not new.claim_open():
            new.to_move = None
            new.result = Result.win(player, reason=f"{player_name(opponent)} has no legal move")
        return new

    def _clean_for(self, player: Player) -> bool:
        """True unless (honour variant) a piece of ``player`` broke a rule and still stands."""
        if not self.game.honour:
            return True
        return not any(self._owner[c] == player for c in self.offending_cells())

    def _no_piece_reason(self, player: Player, colour: int) -> str:
        if self._phase == CLAIM:
            return f"no {colour} is left to place"
        if self.game.any_colour:
            return f"the pool has no {colour} left"
        mine = self.game.colours_of(player)
        if colour not in mine:
            names = ", ".join(map(str, mine[:-1])) + f" and {mine[-1]}"
            return f"{colour} is not one of your colours (yours: {names})"
        return f"you have no {colour} left"

    def _remove(self, cell: int) -> None:
        """Empty ``cell`` of this fresh copy and rebuild the blocked masks."""
        bit = 1 << cell
        self._grid = replaced(self._grid, cell, 0)
        self._owner = replaced(self._owner, cell, NOBODY)
        self._order = replaced(self._order, cell, 0)
        self._filled &= ~bit
        blocked = list(self.game.masks.start)
        forbids = self.game.masks.forbids
        for c, colour in enumerate(self._grid):
            if colour:
                for other, m in forbids[c][colour]:
                    blocked[other] |= m
        self._blocked = tuple(blocked)
