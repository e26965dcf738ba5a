"""Arena pairings and points (lichess style): pure functions, no I/O.

An arena lasts a fixed time. A player is paired as soon as they are free
(entered, not paused, not in a game) and someone else is: the free players
are ranked by score, then rating, and tables are filled from the top, so
players meet others near them in the standings. A player is not paired again
with an opponent of their last game while the others may soon be free: such
a rematch waits ``REMATCH_AFTER`` seconds (or happens at once when nobody else
is in the arena to pair them with). Sudoku Challenge arenas seat
``table_size`` players (2–5) per table; a table waits until that many are free.

Points: a win 2, a draw 1, a loss 0; with ``streak`` on, a player whose two
previous games were both wins is "on fire" and scores double (a win 4, a
draw 2) until a game is not a win. In a game of more than two players,
every player with the best outcome wins (the engines' ``winners``); when
everyone shares it, it is a draw.

The first move (lichess's rule): a player whose turn comes for the first time
in an arena game has ``first_move_seconds`` to move (20 s in the quickest
games, 25 s, then 30 s, as lichess's arenas give). One who lets it pass loses
that game, and one who loses a game without having moved in it (by that
deadline, or on time while their seat was not open anywhere) is paused: not
paired again until they join again. So an absent player costs their opponent
one game, and gives away one win, never a series of them; a slow first move
with the game open (a bot loading its engine) is only a lost game.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

WIN, DRAW, LOSS = "win", "draw", "loss"
BASE_POINTS = {WIN: 2, DRAW: 1, LOSS: 0}
REMATCH_AFTER = 20.0
"""Seconds two players who just met wait for someone else before they meet again."""
FIRST_MOVE_SECONDS = ((180.0, 20.0), (480.0, 25.0))
"""(a game's estimated length under which, seconds to make the first move); 30 s above."""


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
    since: float = 0.0
    """When the player last became free (entered, came back, or finished a game)."""


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


def pair(
    players: Sequence[Waiting],
    table_size: int = 2,
    *,
    now: float = 0.0,
    patience: float = REMATCH_AFTER,
    alone: bool = False,
) -> list[tuple[int, ...]]:
    """Tables for the free players, each in seat order (the one who had the first seat
    least often sits first). Players left over wait for the next pairing. ``alone``:
    nobody else is in the arena, so rematches need not wait."""
    if not 2 <= table_size <= 5:
        raise ValueError(f"an arena table seats 2 to 5 players, not {table_size}")

    def order(p: Waiting) -> tuple[float, float, int]:
        return (-p.score, -p.rating, p.id)

    def met(candidate: Waiting, table: list[Waiting]) -> bool:
        return any(candidate.id in t.last_opponents or t.id in candidate.last_opponents
                   for t in table)  # fmt: skip

    def patient(candidate: Waiting, table: list[Waiting]) -> bool:
        return alone or all(now - p.since >= patience for p in (*table, candidate))

    queue = sorted((p for p in players if p.free), key=order)
    tables: list[tuple[int, ...]] = []
    while len(queue) >= table_size:
        table = [queue.pop(0)]
        while len(table) < table_size:
            index = next((i for i, c in enumerate(queue) if not met(c, table)), None)
            if index is None:
                index = next((i for i, c in enumerate(queue) if patient(c, table)), None)
            if index is None:
                break
            table.append(queue.pop(index))
        if len(table) < table_size:  # nobody for the first player yet: the others go on
            queue = sorted(queue + table[1:], key=order)
            continue
        table.sort(key=lambda p: (p.firsts, -p.games, p.id))
        tables.append(tuple(p.id for p in table))
    return tables


def first_move_seconds(time_control: Mapping[str, Any] | None) -> float:
    """Seconds a player has for their first move of an arena game with ``time_control``
    (``initial + 40 × increment`` estimates its length, as lichess's speeds do)."""
    tc = time_control or {}
    estimate = float(tc.get("initial_seconds", 0.0)) + 40 * float(tc.get("increment_seconds", 0.0))
    return next((s for under, s in FIRST_MOVE_SECONDS if estimate < under), 30.0)


def idle_losers(
    moved: Collection[int],
    outcomes: Sequence[str],
    termination: str | None,
    absent: Collection[int] = (),
) -> list[int]:
    """The seats to pause after a game (``moved``: the seats that moved in it): those who
    lost it by the first-move deadline, and those who lost it on time without a move while
    nobody had their seat open (``absent``; a clock shorter than the deadline)."""
    if termination == "no_start":
        gone: Collection[int] = range(len(outcomes))
    elif termination == "time":
        gone = absent
    else:
        return []
    return [s for s, o in enumerate(outcomes) if o == LOSS and s not in moved and s in gone]


def outcomes_of(result: dict | None, seats: int) -> list[str]:
    """Each seat's outcome of a finished game's ``result`` (``winners``, ``draw``)."""
    if not result:
        return [DRAW] * seats
    winners = set(result.get("winners") or ())
    if result.get("draw") or not winners or len(winners) == seats:
        return [DRAW] * seats
    return [WIN if s in winners else LOSS for s in range(seats)]
