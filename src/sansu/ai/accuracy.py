"""How accurate a player's moves were, from the drops in their winning chance.

Lichess's measure, on the review's winning chances: a move that keeps the
mover's chance scores 100, and the score falls fast with the drop (about 65
for ten points, 17 for forty). A game's accuracy mixes the plain and the
harmonic mean of its moves' scores, so that one blunder among good moves
still shows; lichess's weights for volatile positions are left out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def move_accuracy(drop: float) -> float:
    """How accurate a move was, 0–100, from the drop in the mover's winning chance (0–1):
    lichess's curve (100 for no drop, about 65 for a drop of 10 points, 17 for 40)."""
    value = 103.1668 * math.exp(-0.04354 * 100 * max(0.0, drop)) - 3.1669
    return min(100.0, max(0.0, value))


def game_accuracy(moves: Sequence[float]) -> float | None:
    """A player's accuracy over a game: the mean of the plain and the harmonic means of
    their moves' accuracies (lichess's, without its weights for volatile positions), so
    that one blunder among good moves still shows."""
    if not moves:
        return None
    plain = sum(moves) / len(moves)
    harmonic = len(moves) / sum(1.0 / max(a, 1.0) for a in moves)
    return (plain + harmonic) / 2
