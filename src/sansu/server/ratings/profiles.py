"""What a profile page and a leaderboard show, read from the user and rating domains.

A profile holds an account's name, when it joined, whether it is a bot (and whether
a moderator closed it or marked it as an engine's user), its
rating per game and time-control class with the history behind each (for
the chart), wins, draws and losses, and its recent games. A game still in
play that is private (joined by invitation) or closed to spectators is left
out of the list, so that a profile never reveals one.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, and_, or_, select

from sansu.core.registry import game_class
from sansu.server.accounts import find_user
from sansu.server.base import games as games_table
from sansu.server.base import seats as seats_table
from sansu.server.ratings import table as ratings
from sansu.server.ratings.rating_math import Rating

RECENT_GAMES = 20
HISTORY_POINTS = 200
"""The most recent points of a rating's history a profile carries (the chart's)."""


def _title(game: str) -> str:
    try:
        return game_class(game).title
    except ValueError:
        return game


def _outcome(result: dict[str, Any] | None, seat: int) -> str | None:
    if not result:
        return None
    if result.get("draw"):
        return "draw"
    return "win" if seat in (result.get("winners") or ()) else "loss"


def profile(connection: Connection, name: str) -> dict[str, Any] | None:
    """The profile of the account ``name`` (any case), or ``None`` when there is none."""
    user = find_user(connection, name)
    if user is None:
        return None
    rows = connection.execute(
        select(ratings.ratings)
        .where(ratings.ratings.c.user_id == user.id)
        .order_by(ratings.ratings.c.game, ratings.ratings.c.speed)
    ).all()
    shown = []
    totals = {"wins": 0, "draws": 0, "losses": 0}
    for row in rows:
        rating = Rating(
            row.rating, row.deviation, row.volatility, ratings.provisional_from(row.game)
        )
        points = ratings.history(connection, user.id, row.game, row.speed)[-HISTORY_POINTS:]
        shown.append(
            {
                "game": row.game,
                "title": _title(row.game),
                "speed": row.speed,
                "rating": round(row.rating, 2),
                "deviation": round(row.deviation, 2),
                "provisional": rating.provisional,
                "shown": rating.shown(),
                "games": row.games,
                "wins": row.wins,
                "draws": row.draws,
                "losses": row.losses,
                "history": [[at, round(r, 2)] for at, r in points],
            }
        )
        for key in totals:
            totals[key] += getattr(row, key)
    return {
        "name": user.name,
        "bot": user.bot,
        "engine": user.engine,
        "closed": user.closed,
        "member_since": user.created_at,
        "ratings": shown,
        **totals,
        "recent": recent_games(connection, user.id),
    }


def recent_games(connection: Connection, user_id: int, limit: int = RECENT_GAMES) -> list[dict]:
    """The account's latest games, newest first, with the outcome and rating change."""
    g, s = games_table, seats_table
    mine = connection.execute(
        select(g.c.id, g.c.game, g.c.status, g.c.casual, g.c.result, g.c.termination,
               g.c.updated_at, g.c.finished_at, g.c.time_control, s.c.seat)
        .join(s, s.c.game_id == g.c.id)
        .where(
            s.c.user_id == user_id,
            g.c.status.in_(("active", "finished", "aborted")),
            or_(g.c.status != "active", and_(g.c.private.is_(False), g.c.watchable.is_(True))),
        )
        .order_by(g.c.updated_at.desc(), g.c.id)
        .limit(limit)
    ).all()  # fmt: skip
    if not mine:
        return []
    ids = [row.id for row in mine]
    others: dict[str, list[dict[str, Any]]] = {}
    for row in connection.execute(
        select(s.c.game_id, s.c.seat, s.c.name, s.c.kind, s.c.level, s.c.user_id)
        .where(s.c.game_id.in_(ids))
        .order_by(s.c.game_id, s.c.seat)
    ):
        others.setdefault(row.game_id, []).append(
            {"seat": row.seat, "name": row.name, "kind": row.kind, "level": row.level,
             "account": row.user_id is not None, "you": row.user_id == user_id}
        )  # fmt: skip
    h = ratings.rating_history
    changes = {
        row.game_id: row.change
        for row in connection.execute(
            select(h.c.game_id, h.c.change).where(h.c.user_id == user_id, h.c.game_id.in_(ids))
        )
    }
    out = []
    for row in mine:
        change = changes.get(row.id)
        out.append(
            {
                "id": row.id,
                "game": row.game,
                "title": _title(row.game),
                "status": row.status,
                "rated": not row.casual,
                "speed": ratings.speed_of(row.time_control),
                "seat": row.seat,
                "outcome": _outcome(row.result, row.seat),
                "termination": row.termination,
                "players": others.get(row.id, []),
                "change": None if change is None else f"{round(change):+d}",
                "at": row.finished_at or row.updated_at,
            }
        )
    return out


def leaderboards(
    connection: Connection, game: str, *, now: float, min_games: int, limit: int = 20
) -> list[dict[str, Any]]:
    """Per time-control class: the top humans and, apart, the top bots of ``game``."""
    out = []
    for speed in ratings.SPEEDS:
        board: dict[str, Any] = {"speed": speed}
        for key, bots in (("humans", False), ("bots", True)):
            board[key] = [
                {
                    "rank": i + 1,
                    "name": s.name,
                    "rating": round(s.rating),
                    "deviation": round(s.deviation),
                    "recent_games": s.recent_games,
                }
                for i, s in enumerate(
                    ratings.leaderboard(
                        connection, game, speed, now=now, limit=limit, min_games=min_games,
                        bots=bots,
                    )
                )
            ]  # fmt: skip
        out.append(board)
    return out
