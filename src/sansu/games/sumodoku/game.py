"""The game Sumodoku with its options fixed: the deal, the rule set, the variants.

Turning options into a :class:`~sansu.games.sumodoku.setup.Deal` and a rule
set happens once here; the states then only read them.
"""

from __future__ import annotations

from typing import Any

from sansu.core.protocol import Game, Move, Player
from sansu.games.sumodoku.masks import masks_of
from sansu.games.sumodoku.moves import parse_move
from sansu.games.sumodoku.numbers import NOBODY, PIECES_PER_COLOUR, PLAY, ZERO_HAND
from sansu.games.sumodoku.setup import (
    DEFAULT_DEAL,
    DEFAULT_LAYOUT_SEED,
    OPTIONS,
    Deal,
    build_constraints,
)
from sansu.games.sumodoku.state import SumodokuState
from sansu.sudoku.constraints import Constraints


class Sumodoku(Game):
    """Sumodoku with its options fixed: the deal, the rule set and the variants."""

    id = "sumodoku"
    title = "Sumodoku"
    aliases = ()
    option_specs = OPTIONS

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        o = self.options
        self.any_colour: bool = o["any_colour"]
        self.honour: bool = o["honour"]
        if self.any_colour and o["deal"] is not None:
            raise ValueError(
                "option 'deal': with any_colour there is no deal (both players draw from one pool)"
            )
        self.deal: Deal | None
        if self.any_colour:
            self.deal = None
        elif o["deal"] is not None:
            self.deal = Deal.parse(o["deal"])
        elif o["seed"] is not None:
            self.deal = Deal.from_seed(o["seed"])
        else:
            self.deal = Deal.parse(DEFAULT_DEAL)
        generated = o["parity"] is True or o["consecutive"] is True
        seed = DEFAULT_LAYOUT_SEED if o["seed"] is None or not generated else o["seed"]
        try:
            self.rules: Constraints = build_constraints(
                o["diagonals"], o["parity"], o["consecutive"], o["strict_consecutive"], seed
            )
        except ValueError as error:
            raise ValueError(f"game 'sumodoku': {error}") from None
        self.masks = masks_of(self.rules)

    def colours_of(self, player: Player) -> tuple[int, ...]:
        """The colours ``player`` may ever place in the play phase."""
        if self.deal is None:
            return tuple(range(1, 10))
        return tuple(sorted((*self.deal.colours[player], self.deal.shared)))

    def initial_state(self) -> SumodokuState:
        if self.deal is None:
            pool = (0,) + (PIECES_PER_COLOUR,) * 9
            hands = (pool, pool)
            spare = 0
        else:
            hands = (self.deal.hand(0), self.deal.hand(1))
            spare = 1
        return SumodokuState(
            self,
            to_move=0,
            result=None,
            last_move=None,
            ply=0,
            grid=(0,) * 81,
            owner=(NOBODY,) * 81,
            order=(0,) * 81,
            filled=0,
            blocked=self.masks.start,
            hands=hands,
            spare=spare,
            removed=ZERO_HAND,
            holes=0,
            turns=(0, 0),
            phase=PLAY,
            claimant=None,
            claim_turn=None,
            claim_cells=0,
        )

    def parse_move(self, text: str) -> Move:
        return parse_move(text)
