"""What a finished game is worth to each player, for every search.

A win is worth 1 to each winner (shared by ``k`` winners: ``1/k`` each, or 1
to every member of a winning team), a loss 0, a draw ``1/n``.
"""

from __future__ import annotations

from collections.abc import Sequence

from sansu.core.protocol import Result

Rewards = tuple[float, ...]


def rewards_of(
    result: Result, players: int, teams: Sequence[Sequence[int]] | None = None
) -> Rewards:
    """Each player's reward for a finished game."""
    if result.draw or not result.winners:
        return (1.0 / players,) * players
    winners = set(result.winners)
    share = 1.0 if teams is not None else 1.0 / len(winners)
    return tuple(share if p in winners else 0.0 for p in range(players))
