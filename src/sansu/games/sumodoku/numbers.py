"""Sumodoku's fixed numbers: pieces per player, the claim's window and its time limits.

Shared by the engine's modules and by programs that reason about the game
(computer players, research environments) without playing it.
"""

from __future__ import annotations

FULL = (1 << 81) - 1
PIECES_PER_COLOUR = 9
OWN_PIECES = 40
"""Pieces a player is dealt: 4 colours × 9 plus 4 of the shared colour."""
CLAIM_FIRST, CLAIM_LAST = 16, 35
"""The player's own turns on which a ``sudoku`` claim may be made."""
CLAIM_LIMITS = ((20, 16), (25, 12), (30, 8), (35, 4))
"""(last turn, minutes): a claim on turns 16–20 has 16 minutes, 21–25 12, 26–30 8, 31–35 4."""
PLAY, CLAIM = "play", "claim"
NOBODY = -1
ZERO_HAND = (0,) * 10


def claim_minutes(turn: int) -> int | None:
    """The time limit of a claim made on the player's own turn ``turn`` (``None``: no claim)."""
    if turn < CLAIM_FIRST:
        return None
    for last, minutes in CLAIM_LIMITS:
        if turn <= last:
            return minutes
    return None


def player_name(player: int) -> str:
    return f"player {player}"
