"""Ratings: per user, game id and time-control class; rated once per game; history; leaderboards.

Ratings live in their own table (apart from ``users``), one row per user,
game id and *speed*, the time-control class:

- ``untimed``: no clock;
- ``timed``: a clock whose estimated length per player (initial time plus 40
  increments) is under a day;
- ``correspondence``: a day or more per player.

``rate_game`` is idempotent per game: it first writes the game's row in
``rated_games`` (the game id is its key), in the caller's transaction, so
the ratings and the result commit together and a retry or a restart after a
crash finds the row and rates nothing twice. Which games count (finished,
rated, between signed-in humans) is the caller's decision; the math is in
``rating_math`` and knows no game.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.accounts import users_table
from sansu.server.base import Base
from sansu.server.ratings.rating_math import (
    OPENSKILL_PROVISIONAL_DEVIATION,
    PROVISIONAL_DEVIATION,
    Rating,
    glicko2_pair,
    openskill_teams,
    weighted,
)

SPEEDS = ("untimed", "timed", "correspondence")
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,24}")
"""What the server's game ids are made of (URL-safe base64)."""
CORRESPONDENCE_SECONDS = 86_400.0
OPENSKILL_GAMES = frozenset({"challenge"})
"""Games rated with OpenSkill (2–5 players and teams); every other game is two-player Glicko-2."""
LEADERBOARD_DAYS = 90
LEADERBOARD_MIN_GAMES = 5


class RatingRow(Base):
    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    speed: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    losses: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_ratings_board", "game", "speed", "rating"),)


class RatedGameRow(Base):
    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    """The rated game: its key makes rating a game a second time impossible."""
    game: Mapped[str] = mapped_column(String(32))
    speed: Mapped[str] = mapped_column(String(16))
    rated_at: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(Integer, ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    speed: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str] = mapped_column(String(24))
    at: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    """The rating after the game."""
    deviation: Mapped[float] = mapped_column(Float)
    change: Mapped[float] = mapped_column(Float)
    """The rating after minus before (a page shows it as ``+12``)."""
    refunded_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When a lost game's points came back (the opponent was marked as an engine's user:
    :mod:`~.refunds`)."""

    __table_args__ = (
        UniqueConstraint("game_id", "user_id", name="uq_rating_history_game_user"),
        Index("ix_rating_history_user", "user_id", "game", "speed", "at"),
        Index("ix_rating_history_board", "game", "speed", "at"),
    )


ratings = RatingRow.__table__
rated_games = RatedGameRow.__table__
rating_history = RatingHistoryRow.__table__


@dataclass(frozen=True)
class RatingChange:
    before: Rating
    after: Rating

    @property
    def change(self) -> float:
        return self.after.rating - self.before.rating

    def shown(self) -> str:
        """``+12``, ``-7`` or ``+0``."""
        return f"{round(self.change):+d}"


def speed_of(time_control: Mapping[str, Any] | None) -> str:
    """The time-control class of a game's ``time_control`` (``None``: no clock)."""
    if not time_control:
        return "untimed"
    estimate = float(time_control.get("initial_seconds", 0.0)) + 40 * float(
        time_control.get("increment_seconds", 0.0)
    )
    return "correspondence" if estimate >= CORRESPONDENCE_SECONDS else "timed"


def provisional_from(game: str) -> float:
    """The deviation from which a rating of ``game`` is provisional."""
    return OPENSKILL_PROVISIONAL_DEVIATION if game in OPENSKILL_GAMES else PROVISIONAL_DEVIATION


def get_rating(connection: Connection, user_id: int, game: str, speed: str) -> Rating:
    """The user's rating, or a new player's when they have none yet."""
    row = connection.execute(
        select(ratings.c.rating, ratings.c.deviation, ratings.c.volatility).where(
            ratings.c.user_id == user_id, ratings.c.game == game, ratings.c.speed == speed
        )
    ).first()
    return Rating(*(row or ()), provisional_from=provisional_from(game))


def is_rated(connection: Connection, game_id: str) -> bool:
    found = connection.execute(
        select(rated_games.c.game_id).where(rated_games.c.game_id == game_id)
    )
    return found.first() is not None


def _check(
    connection: Connection,
    game: str,
    speed: str,
    players: Sequence[int | Sequence[int]],
    ranks: Sequence[float],
) -> list[list[int]]:
    if not isinstance(game, str) or not GAME_ID.fullmatch(game):
        raise ValueError("game: expected a game id")
    if speed not in SPEEDS:
        raise ValueError(f"speed: expected one of {', '.join(SPEEDS)}")
    if not isinstance(players, list | tuple) or not isinstance(ranks, list | tuple):
        raise ValueError("players and ranks: expected lists")
    if not all(isinstance(p, int | list | tuple) for p in players):
        raise ValueError("players: expected a user id or a team (a list of user ids) per seat")
    teams = [[p] if isinstance(p, int) else list(p) for p in players]
    if len(teams) < 2 or len(ranks) != len(teams) or any(not t for t in teams):
        raise ValueError("a rated game needs two or more seats, each with a rank")
    if not all(
        isinstance(r, int | float) and not isinstance(r, bool) and math.isfinite(r) for r in ranks
    ):
        raise ValueError("ranks: expected finite numbers")
    ids = [u for team in teams for u in team]
    if not all(isinstance(u, int) and not isinstance(u, bool) for u in ids):
        raise ValueError("players: expected user ids")
    if len(set(ids)) != len(ids):
        raise ValueError("players: a user may hold only one seat of a rated game")
    known = connection.execute(select(func.count()).where(users_table.c.id.in_(ids))).scalar()
    if known != len(ids):
        raise ValueError("players: every player of a rated game needs an account")
    if game not in OPENSKILL_GAMES and (len(teams) != 2 or len(ids) != 2):
        raise ValueError("a two-player game is rated between exactly two users")
    return teams


def engine_marked(connection: Connection, user_ids: Sequence[int]) -> bool:
    """Whether any of the accounts is marked as an engine's user."""
    found = connection.execute(
        select(users_table.c.id).where(
            users_table.c.id.in_(list(user_ids)), users_table.c.engine_at.is_not(None)
        )
    ).first()
    return found is not None


def _outcome(rank: float, ranks: Sequence[float]) -> str:
    best = min(ranks)
    if rank != best:
        return "losses"
    return "wins" if list(ranks).count(best) == 1 else "draws"


def rate_game(
    connection: Connection,
    game_id: str,
    *,
    game: str,
    speed: str,
    players: Sequence[int | Sequence[int]],
    ranks: Sequence[float],
    now: float,
    weight: float = 1.0,
) -> dict[int, RatingChange] | None:
    """Rates a finished game, once: each seat's user (or team of users_table) and its rank
    (lower is better, equal ranks tie). Returns each user's change, or ``None`` when
    the game was rated before (nothing changes). Bad input raises ``ValueError`` and
    writes nothing.

    ``weight`` (0 to 1): the share of a full game's change that this one makes
    (:func:`~sansu.server.ratings.rating_math.repeat_weight`); a game of weight 0 is
    marked rated and changes no rating, record or history. So is a game with an account
    a moderator marked as an engine's user: it leaves the ratings, its opponents' too."""
    if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
        raise ValueError("game_id: expected a game's id")
    if not isinstance(weight, int | float) or not 0.0 <= weight <= 1.0:
        raise ValueError("weight: expected a number from 0 to 1")
    teams = _check(connection, game, speed, players, ranks)
    if is_rated(connection, game_id):
        return None
    if engine_marked(connection, [u for team in teams for u in team]):
        weight = 0.0
    before = [[get_rating(connection, u, game, speed) for u in team] for team in teams]
    if game in OPENSKILL_GAMES:
        after = openskill_teams(before, ranks)
    else:
        first, second = ranks
        score = 1.0 if first < second else 0.5 if first == second else 0.0
        a, b = glicko2_pair(before[0][0], before[1][0], score)
        after = [[a], [b]]
    connection.execute(
        insert(rated_games).values(game_id=game_id, game=game, speed=speed, rated_at=now)
    )
    changes: dict[int, RatingChange] = {}
    for team, olds, news, rank in zip(teams, before, after, ranks, strict=True):
        outcome = _outcome(rank, ranks)
        for user_id, old, full in zip(team, olds, news, strict=True):
            new = weighted(old, full, weight)
            changes[user_id] = RatingChange(old, new)
            if weight <= 0.0:
                continue
            _store(connection, user_id, game, speed, new, outcome, now)
            connection.execute(
                insert(rating_history).values(
                    user_id=user_id, game=game, speed=speed, game_id=game_id, at=now,
                    rating=new.rating, deviation=new.deviation, change=new.rating - old.rating,
                )
            )  # fmt: skip
    return changes


def _store(
    connection: Connection,
    user_id: int,
    game: str,
    speed: str,
    new: Rating,
    outcome: str,
    now: float,
) -> None:
    key = (ratings.c.user_id == user_id, ratings.c.game == game, ratings.c.speed == speed)
    values = {
        "rating": new.rating,
        "deviation": new.deviation,
        "volatility": new.volatility,
        "updated_at": now,
    }
    found = connection.execute(select(ratings.c.games).where(*key)).first()
    if found is None:
        connection.execute(
            insert(ratings).values(
                user_id=user_id, game=game, speed=speed, games=1,
                **{"wins": 0, "draws": 0, "losses": 0, **values, outcome: 1},
            )
        )  # fmt: skip
    else:
        column = ratings.c[outcome]
        connection.execute(
            update(ratings)
            .where(*key)
            .values(games=ratings.c.games + 1, **{outcome: column + 1}, **values)
        )


@dataclass(frozen=True)
class Standing:
    user_id: int
    name: str
    rating: float
    deviation: float
    recent_games: int


def leaderboard(
    connection: Connection,
    game: str,
    speed: str,
    *,
    now: float,
    limit: int = 10,
    min_games: int = LEADERBOARD_MIN_GAMES,
    days: int = LEADERBOARD_DAYS,
    bots: bool = False,
) -> list[Standing]:
    """The top ``limit`` human players (with ``bots``: bots) of ``game`` at ``speed``
    with at least ``min_games`` rated games in the last ``days`` days and a rating no
    longer provisional, best first; never an account closed or marked as an engine's
    user."""
    recent = (
        select(rating_history.c.user_id, func.count().label("n"))
        .where(
            rating_history.c.game == game,
            rating_history.c.speed == speed,
            rating_history.c.at >= now - days * 86_400.0,
        )
        .group_by(rating_history.c.user_id)
        .having(func.count() >= min_games)
        .subquery()
    )
    rows = connection.execute(
        select(
            users_table.c.id, users_table.c.name, ratings.c.rating, ratings.c.deviation, recent.c.n
        )
        .join(ratings, ratings.c.user_id == users_table.c.id)
        .join(recent, recent.c.user_id == users_table.c.id)
        .where(
            ratings.c.game == game,
            ratings.c.speed == speed,
            ratings.c.deviation < provisional_from(game),
            users_table.c.bot.is_(bots),
            users_table.c.engine_at.is_(None),
            users_table.c.closed_at.is_(None),
        )
        .order_by(ratings.c.rating.desc(), users_table.c.id)
        .limit(limit)
    )
    return [Standing(*row) for row in rows]


def history(
    connection: Connection, user_id: int, game: str, speed: str
) -> list[tuple[float, float]]:
    """``(time, rating)`` after each rated game, oldest first: a profile's chart."""
    rows = connection.execute(
        select(rating_history.c.at, rating_history.c.rating)
        .where(
            rating_history.c.user_id == user_id,
            rating_history.c.game == game,
            rating_history.c.speed == speed,
        )
        .order_by(rating_history.c.at, rating_history.c.id)
    )
    return [(at, rating) for at, rating in rows]
