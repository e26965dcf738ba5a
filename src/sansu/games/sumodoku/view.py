"""What a Sumodoku position shows as JSON: the hands, the turn counts, the claim, the
variants; with ``aids`` off, not which placements fit.

A mixin of :class:`~sansu.games.sumodoku.game.SumodokuState`, kept apart so
that the rules and what is shown of them each stay one short file.
"""

from __future__ import annotations

from typing import Any

from sansu.core.cells import cell_name
from sansu.games.sumodoku.dead_end import dead_end
from sansu.games.sumodoku.moves import SUDOKU
from sansu.games.sumodoku.numbers import CLAIM_FIRST, CLAIM_LAST, PLAY


class SumodokuView:
    """The JSON of a position (mixed into the state, whose fields it reads)."""

    __slots__ = ()

    def cells_json(self) -> list[dict[str, Any] | None]:
        return [
            {"player": self._owner[cell], "value": colour} if colour else None
            for cell, colour in enumerate(self._grid)
        ]

    def without_aids(self, data: dict[str, Any]) -> dict[str, Any]:
        """With ``aids`` off the placements that fit are not listed: which cells and
        colours fit is the aid the text forbids, and that list is what would draw it.
        The other moves (``sudoku``, ``challenge``, a claim's ``erase`` and ``timeout``)
        stay: the board offers them as buttons."""
        if not self.game.options.get("aids", False):
            data["legal_moves"] = [m for m in data["legal_moves"] if "=" not in m]
        return data

    def _dead_cells(self) -> list[str]:
        """The cells the result names when a claim lost at once (the board marks them)."""
        if self.result is None or self.last_move != SUDOKU:
            return []
        if self.game.rules.violations(self._grid):
            return []
        dead = dead_end(self._grid, self._filled, self._blocked, self.game.rules, self.game.masks)
        return [] if dead is None else [cell_name(c) for c in dead.cells]

    def extra_json(self) -> dict[str, Any]:
        game = self.game
        deal = game.deal
        rules = game.rules
        to_move = self.to_move
        return {
            "deal": None if deal is None else deal.text,
            "colours": None if deal is None else [list(c) for c in deal.colours],
            "shared_colour": None if deal is None else deal.shared,
            "pieces_left": [list(self._hands[p][1:]) for p in (0, 1)],
            "pieces_left_total": [self.pieces_left(p) for p in (0, 1)],
            "pool": list(self._hands[0][1:]) if game.any_colour and self._phase == PLAY else None,
            "spare": self.spare,
            "turns": list(self._turns),
            "turn_number": None if to_move is None else self._turns[to_move] + 1,
            "phase": self._phase,
            "claim_open": self.claim_open(),
            # A mover with no placement must claim or lose (the board says so; not an aid:
            # the rules act on it).
            "mover_can_place": None if to_move is None else self.can_place(to_move),
            "claim_minutes": self.claim_minutes(),
            "claim_turns": [CLAIM_FIRST, CLAIM_LAST],
            "claimant": self._claimant,
            "claim_turn": self._claim_turn,
            "claim_cells": [cell_name(c) for c in self.claim_cells()],
            "dead_cells": self._dead_cells(),
            "variants": {
                "any_colour": game.any_colour,
                "diagonals": rules.diagonals,
                "parity": rules.parity,
                "consecutive": [[cell_name(a), cell_name(b)] for a, b in sorted(rules.consecutive)],
                "strict_consecutive": rules.strict_consecutive,
                "honour": game.honour,
            },
            "holes": [cell_name(c) for c in self.holes()],
            "removed": list(self._removed[1:]),
        }
