"""Sumodoku's claim: ``sudoku``, then the claimant alone until the grid is full.

The moves of the claim phase, apart from placements (which
:class:`~sansu.games.sumodoku.placements.PlacementMoves` plays in both phases):
making the claim, ``erase`` and ``timeout``. Each takes a state and returns
a new one; only a fresh copy is ever changed.
"""

from __future__ import annotations

from typing import Self

from sansu.core.protocol import IllegalMove, Result
from sansu.games.sumodoku.dead_end import dead_end
from sansu.games.sumodoku.masks import replaced
from sansu.games.sumodoku.moves import SUDOKU, TIMEOUT, Erase
from sansu.games.sumodoku.numbers import (
    CLAIM,
    CLAIM_FIRST,
    CLAIM_LAST,
    PIECES_PER_COLOUR,
    ZERO_HAND,
    claim_minutes,
)


class ClaimMoves:
    """The claim's moves, mixed into :class:`~sansu.games.sumodoku.game.SumodokuState`."""

    __slots__ = ()

    def _claim(self) -> Self:
        """``sudoku``: the mover takes every remaining piece and the spare to complete the grid
        alone; a grid with no valid completion loses at once."""
        player = self.to_move
        assert player is not None
        if self._phase == CLAIM:
            raise IllegalMove("the claim is already under way", "sudoku")
        turn = self._turns[player] + 1
        if turn < CLAIM_FIRST:
            raise IllegalMove(
                f"a claim is allowed on your turns {CLAIM_FIRST} to {CLAIM_LAST};"
                f" this is your turn {turn}",
                "sudoku",
            )
        if turn > CLAIM_LAST:
            raise IllegalMove(
                f"a claim is allowed only up to your turn {CLAIM_LAST}; this is your turn {turn}",
                "sudoku",
            )
        new = self._copy()
        new.last_move = SUDOKU
        turns = list(self._turns)
        turns[player] += 1
        new._turns = (turns[0], turns[1])
        h0, h1 = self._hands
        if self._pooled():
            pool = h0
        else:
            pool = tuple(a + b for a, b in zip(h0, h1, strict=True))
            if self._spare and self.game.deal is not None:
                shared = self.game.deal.shared
                pool = replaced(pool, shared, pool[shared] + 1)
        new._hands = (pool, ZERO_HAND) if player == 0 else (ZERO_HAND, pool)
        new._spare = 0
        new._phase = CLAIM
        new._claimant = player
        new._claim_turn = turn
        why = self._why_uncompletable(pool)
        if why is not None:
            new.to_move = None
            new.result = Result.win(1 - player, reason=f"claimed Sudoku, but {why}")
        return new

    def _why_uncompletable(self, pool: tuple[int, ...]) -> str | None:
        """Why ``pool`` cannot complete the grid (``None``: it can)."""
        if self.game.rules.violations(self._grid):
            return "the grid breaks a rule"
        for colour in range(1, 10):
            if pool[colour] + self._grid.count(colour) < PIECES_PER_COLOUR:
                return f"a {colour} is out of the game, so the pieces cannot fill the grid"
        dead = dead_end(self._grid, self._filled, self._blocked, self.game.rules, self.game.masks)
        if dead is not None:
            return f"the grid has no valid completion: {dead.why}"
        return None

    def _finish_claim(self) -> Self:
        """Settle the claim on this fresh copy, whose grid is now full."""
        player = self._claimant
        assert player is not None
        problems = self.game.rules.violations(self._grid)
        self.to_move = None
        if problems:  # cannot happen: every claim placement was checked
            self.result = Result.win(
                1 - player, reason=f"the claimed grid breaks a rule: {problems[0]}"
            )
        else:
            self.result = Result.win(player, reason="Sudoku! the claimant completed a valid grid")
        return self

    def _erase(self, move: Erase) -> Self:
        """``erase rRcC``: the claimant takes back a piece placed during the claim."""
        cell = move.cell
        if self._phase != CLAIM:
            raise IllegalMove("erase is only for pieces placed during a Sudoku claim", str(move))
        if not self._claim_cells >> cell & 1:
            what = (
                f"the {self._grid[cell]} there was placed before the claim"
                if self._grid[cell]
                else "it is empty"
            )
            raise IllegalMove(f"you may erase only your claim's pieces, and {what}", str(move))
        colour = self._grid[cell]
        player = self._claimant
        assert player is not None
        new = self._copy()
        new.last_move = move
        new._remove(cell)
        hand = self._hands[player]
        hand = replaced(hand, colour, hand[colour] + 1)
        new._hands = (hand, ZERO_HAND) if player == 0 else (ZERO_HAND, hand)
        new._claim_cells = self._claim_cells & ~(1 << cell)
        return new

    def _timeout(self) -> Self:
        """``timeout``: the claim's time ran out (applied by the host), or the claimant gave up."""
        if self._phase != CLAIM:
            raise IllegalMove("no clock runs outside a Sudoku claim", "timeout")
        player = self._claimant
        assert player is not None
        new = self._copy()
        new.last_move = TIMEOUT
        new.to_move = None
        minutes = claim_minutes(self._claim_turn or CLAIM_FIRST)
        new.result = Result.win(1 - player, reason=f"the claim's {minutes} minutes ran out")
        return new
