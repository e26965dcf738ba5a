"""Arena pairings and points (lichess style): pure functions, no I/O.

An arena lasts a fixed time. A player is paired as soon as they are free
(entered, not paused, not in a game) and someone else is: the free players
are ranked by score, then rating, and tables are filled from the top, so
players meet others near them in the standings. A table does not repeat the
pairing a player has just played when another order of the same waiting
players avoids it. Sudoku Challenge arenas seat ``table_size`` players (2–5)
per table; a table waits until that many are free.

Points: a win 2, a draw 1, a loss 0; with ``streak`` on, a player whose two
previous games were both wins is "on fire" and scores double (a win 4, a
draw 2) until a game is not a win. In a game of more than two players,
every player with the best outcome wins (the engines' ``winners``); when
everyone shares it, it is a draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = "win", "draw", "loss"
BASE_POINTS = {WIN: 2, DRAW: 1, LOSS: 0}


@dataclass(frozen=True)
class Waiting:
    """A player as the arena sees them when it pairs."""

    id: int
    score: int
    rating: float
    free: bool
    """Entered, not paused, not withdrawn, in no game."""
    last_opponents: frozenset[int] = frozenset()
    firsts: int = 0
    """How often the player had the first seat (the first move)."""
    games: int = 0


def on_fire(outcomes: Sequence[str]) -> bool:
    """Whether the next game scores double: the last two games were wins."""
    return len(outcomes) >= 2 and outcomes[-1] == WIN and outcomes[-2] == WIN


def game_points(outcomes: Sequence[str], *, streak: bool = True) -> list[int]:
    """The points of each game in ``outcomes`` (in the order played)."""
    out = []
    for i, outcome in enumerate(outcomes):
        base = BASE_POINTS[outcome]
        out.append(base * 2 if streak and on_fire(outcomes[:i]) else base)
    return out


def pair(players: Sequence[Waiting], table_size: int = 2) -> list[tuple[int, ...]]:
    """Tables for the free players, each in seat order (the one who had the first seat
    least often sits first). Players left over wait for the next pairing."""
    if not 2 <= table_size <= 5:
        raise ValueError(f"an arena table seats 2 to 5 players, not {table_size}")
    queue = sorted((p for p in players if p.free), key=lambda p: (-p.score, -p.rating, p.id))
    tables: list[tuple[int, ...]] = []
    while len(queue) >= table_size:
        table = [queue.pop(0)]
        while len(table) < table_size:
            index = next(
                (
                    i
                    for i, candidate in enumerate(queue)
                    if not any(candidate.id in t.last_opponents for t in table)
                    and not any(t.id in candidate.last_opponents for t in table)
                ),
                0,  # nobody new is free: a rematch rather than a wait
            )
            table.append(queue.pop(index))
        table.sort(key=lambda p: (p.firsts, -p.games, p.id))
        tables.append(tuple(p.id for p in table))
    return tables


def outcomes_of(result: dict | None, seats: int) -> list[str]:
    """Each seat's outcome of a finished game's ``result`` (``winners``, ``draw``)."""
    if not result:
        return [DRAW] * seats
    winners = set(result.get("winners") or ())
    if result.get("draw") or not winners or len(winners) == seats:
        return [DRAW] * seats
    return [WIN if s in winners else LOSS for s in range(seats)]
