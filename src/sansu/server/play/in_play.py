"""The games in play a position belongs to, so that engine help never reaches them.

A position (a game, its options, the moves from the start) **belongs** to a
game in play of the same game and options (``aids`` aside: analysis turns them
on) when one of the two move lists starts the other: the game passed through
the position, or the position goes on from where the game stands. The start
before any move is shared by every game with those options, so it belongs to
none, unless the options set it up (a ``seed``, ``deal`` or ``puzzle``: that
start is the puzzle the game was dealt).

The store is asked, not memory: a game idle in memory left it, and on a
cluster another node judges the game; moves are written before memory
changes, so the store is never behind. The query starts from the game's
active games (an index) and looks each one's move up by its key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select

from sansu.server.accounts import Who
from sansu.server.base import ApiError, Store
from sansu.server.base import games as games_table
from sansu.server.base import moves as moves_table
from sansu.server.base import seats as seats_table
from sansu.server.play.live import Seat, seats_held

SET_UP = ("seed", "deal", "puzzle")
"""Options that make a game's start its own."""


@dataclass(frozen=True)
class InPlay:
    """A game in play that a position belongs to: what the refusal needs of it."""

    id: str
    casual: bool
    seats: tuple[Seat, ...]


def own_start(options: Mapping[str, Any]) -> bool:
    """Whether the options set the start up (a seed, deal or puzzle), so that it is the
    start of the games with these options only, not of every game."""
    return any(options.get(name) not in (None, "") for name in SET_UP)


def same_options(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """The same game setup: the options but ``aids`` (analysis turns them on)."""
    return {k: v for k, v in a.items() if k != "aids"} == {
        k: v for k, v in b.items() if k != "aids"
    }


def belongs(moves: Sequence[str], played: Sequence[str], options: Mapping[str, Any]) -> bool:
    """Whether the position after ``moves`` belongs to a game that played ``played``."""
    shared = min(len(moves), len(played))
    if shared == 0 and not own_start(options):
        return False
    return list(moves[:shared]) == list(played[:shared])


def find(
    c: Connection, game: str, options: Mapping[str, Any], moves: Sequence[str]
) -> list[InPlay]:
    """The games in play that the position belongs to (a read of the store)."""
    g, m = games_table, moves_table
    k = len(moves)
    active = [g.c.status == "active", g.c.game == game]
    ids: set[str] = set()
    if k:  # games that passed through the position: their move k is its last one
        on = (m.c.game_id == g.c.id) & (m.c.ply == k)
        passed = select(g.c.id).join(m, on).where(*active, g.c.ply >= k, m.c.text == moves[-1])
        ids.update(c.execute(passed).scalars())
        # games it goes on from: each one's last move is the position's move at that ply
        on = (m.c.game_id == g.c.id) & (m.c.ply == g.c.ply)
        behind = select(g.c.id, g.c.ply, m.c.text).join(m, on).where(*active, g.c.ply < k)
        ids.update(row.id for row in c.execute(behind) if row.text == moves[row.ply - 1])
    if own_start(options):  # games at their start: the position's own (k = 0) or behind it
        at_start = [g.c.ply == 0] if k else []
        ids.update(c.execute(select(g.c.id).where(*active, *at_start)).scalars())
    if not ids:
        return []
    rows = c.execute(select(g.c.id, g.c.options, g.c.casual).where(g.c.id.in_(ids))).all()
    played: dict[str, list[str]] = {}
    for row in c.execute(
        select(m.c.game_id, m.c.text)
        .where(m.c.game_id.in_(ids), m.c.ply <= k)
        .order_by(m.c.game_id, m.c.ply)
    ):
        played.setdefault(row.game_id, []).append(row.text)
    seats: dict[str, list[Seat]] = {}
    for s in c.execute(select(seats_table).where(seats_table.c.game_id.in_(ids))):
        seats.setdefault(s.game_id, []).append(
            Seat(s.seat, s.kind, s.level, s.name, s.token_hash, None, s.user_id)
        )
    return [
        InPlay(row.id, row.casual, tuple(seats.get(row.id, ())))
        for row in rows
        if same_options(row.options, options) and belongs(moves, played.get(row.id, []), options)
    ]


async def refuse_help(
    store: Store,
    game: str,
    options: Mapping[str, Any],
    moves: Sequence[str],
    who: Who,
    *,
    hidden: bool,
    status: int = 403,
    code: str = "analysis_refused",
) -> None:
    """Refuses engine help for a position that belongs to a game in play, when ``who``
    plays that game, or the game is rated, or it hides information (``hidden``)."""
    found = await store.read(lambda c: find(c, game, options, moves))
    why = None
    if any(seats_held(x.seats, who) for x in found):
        why = "you are playing a game at this position: it can be analysed once it is over"
    elif any(not x.casual for x in found):
        why = "a rated game being played is at this position: it can be analysed once it is over"
    elif found and hidden:
        why = "a game being played at this position hides information until it is over"
    if why is not None:
        raise ApiError(status, code, why)
