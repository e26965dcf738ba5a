"""Sumodoku: two players build one Sudoku out of coloured pieces.

Rules as implemented (see ``docs/rules/reference/sumodoku.md``): colours are the
digits 1–9, nine pieces each. Each player owns four colours and four pieces
of a shared ninth colour; the last piece is the spare. A turn places one of
the mover's pieces (``r5c5=7``) on an empty cell, never repeating a colour in
a row, column or box, nor breaking an active variant's rule. A player wins by
placing all 40 pieces, or when the opponent has no legal move; on their own
turns 16–35 a player may claim ``sudoku``, take every remaining piece and the
spare, and win by completing a valid grid (``erase`` undoes a claim-phase
piece; ``timeout``, applied by the host or chosen by the claimant, loses). In
the ``honour`` variant rule-breaking placements stand until a player's
``challenge`` or a spectator's ``report``.

The engine, one module per part: :mod:`.setup` (options, the deal, variant
layouts), :mod:`.numbers`, :mod:`.moves`, :mod:`.masks` (the rule set as bit
masks), :mod:`.game` (the game and its positions), :mod:`.placements`,
:mod:`.claim`, :mod:`.dead_end` (where a lost claim's grid fails), :mod:`.honour` and
:mod:`.view` (the JSON). Everything is importable from here.
"""

from sansu.games.sumodoku.game import Sumodoku, SumodokuState
from sansu.games.sumodoku.masks import Masks, masks_of
from sansu.games.sumodoku.moves import (
    ACTIONS,
    CHALLENGE,
    ERASES,
    PLACEMENTS,
    REPORTS,
    SUDOKU,
    TIMEOUT,
    Action,
    Erase,
    Placement,
    Report,
    parse_move,
)
from sansu.games.sumodoku.numbers import (
    CLAIM,
    CLAIM_FIRST,
    CLAIM_LAST,
    CLAIM_LIMITS,
    FULL,
    NOBODY,
    OWN_PIECES,
    PIECES_PER_COLOUR,
    PLAY,
    ZERO_HAND,
    claim_minutes,
    player_name,
)
from sansu.games.sumodoku.setup import OPTIONS, Deal

__all__ = [
    "ACTIONS",
    "CHALLENGE",
    "CLAIM",
    "CLAIM_FIRST",
    "CLAIM_LAST",
    "CLAIM_LIMITS",
    "ERASES",
    "FULL",
    "GAME",
    "NOBODY",
    "OPTIONS",
    "OWN_PIECES",
    "PIECES_PER_COLOUR",
    "PLACEMENTS",
    "PLAY",
    "REPORTS",
    "SUDOKU",
    "TIMEOUT",
    "ZERO_HAND",
    "Action",
    "Deal",
    "Erase",
    "Masks",
    "Placement",
    "Report",
    "Sumodoku",
    "SumodokuState",
    "claim_minutes",
    "masks_of",
    "parse_move",
    "player_name",
]

GAME = Sumodoku
