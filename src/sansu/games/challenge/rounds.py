"""Sudoku Challenge's rounds, teams and points: the numbers of the game and the order of play.

How many entries a round asks of each player (``sequence``), the handicap,
the bonuses, and how teams alternate in the final round.
"""

from __future__ import annotations

from typing import Final

SEQUENCES: Final = ("regular", "shortened", "express")
DIFFICULTIES: Final = ("easy", "medium", "hard", "expert", "extreme")
HANDICAPS: Final = (0, 4, 6, 8, 10)
"""Starting points of players 0–4 when the handicap option is on."""
COMPLETION_BONUS: Final = 10
"""For completing at least one row, column or box in a turn (once per turn)."""
GRID_FULL_BONUS: Final = 10
"""For each player who cannot play in the final round because the grid is full."""
TEAMS: Final = ((0, 2), (1, 3))
"""With ``teams``: seats A1, B1, A2, B2, so team-mates never play one after the other."""
TEAM_NAMES: Final = ("A", "B")


def alternate_teams(order: tuple[int, ...], last: int | None) -> tuple[int, ...]:
    """The final round's ``order`` rearranged so that the two teams alternate.

    Team-mates may never play one after the other, in the final round nor
    across the turn into it: the round begins with the team of ``order[0]``
    unless that team made the ``last`` turn before it; within each team its
    members keep their places in ``order`` (so ties keep the initial order).

    >>> alternate_teams((1, 0, 2, 3), last=3)  # B1 first by score, but B2 just played
    (0, 1, 2, 3)
    >>> alternate_teams((2, 0, 3, 1), last=3)
    (2, 3, 0, 1)
    """
    team_of = {p: t for t, members in enumerate(TEAMS) for p in members}
    first = team_of[order[0]]
    if last is not None and team_of[last] == first:
        first = 1 - first
    ours = [p for p in order if team_of[p] == first]
    theirs = [p for p in order if team_of[p] != first]
    return tuple(p for pair in zip(ours, theirs, strict=True) for p in pair)


def round_count(sequence: str, round_number: int) -> int:
    """How many entries each player makes in round ``round_number`` (1-based).

    >>> [round_count("regular", r) for r in range(1, 8)]
    [1, 2, 3, 1, 2, 3, 1]
    >>> [round_count("shortened", r) for r in range(1, 6)], round_count("express", 1)
    ([1, 2, 3, 3, 3], 3)
    """
    if sequence == "express":
        return 3
    if sequence == "shortened":
        return min(round_number, 3)
    return (round_number - 1) % 3 + 1
