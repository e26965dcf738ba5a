"""Following on the store: each function works on the caller's connection and transaction,
the way the store's jobs run."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from sansu.server.accounts import users_table
from sansu.server.base import games, seats
from sansu.server.relation.tables import follows

MAX_FOLLOWING = 500
"""Accounts one account may follow: friends and rivals, never the whole site."""


class FollowError(ValueError):
    """A refused follow; ``status`` and ``code`` are the HTTP answer's."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


def follow(c: Connection, follower: int, followed: int, *, now: float) -> FollowError | None:
    """``follower`` follows ``followed`` from now (again: nothing changes); or the reason
    why not, returned rather than raised so that the store's transaction ends cleanly."""
    if follower == followed:
        return FollowError(422, "follow_yourself", "you cannot follow yourself")
    if is_following(c, follower, followed):
        return None
    if count_following(c, follower) >= MAX_FOLLOWING:
        return FollowError(
            409,
            "following_limit",
            f"you follow {MAX_FOLLOWING} players already: unfollow one first",
        )
    try:
        with c.begin_nested():
            c.execute(insert(follows).values(follower_id=follower, followed_id=followed, at=now))
    except IntegrityError:  # the same follow sent twice at once
        pass
    return None


def unfollow(c: Connection, follower: int, followed: int) -> None:
    c.execute(
        delete(follows).where(follows.c.follower_id == follower, follows.c.followed_id == followed)
    )


def is_following(c: Connection, follower: int, followed: int) -> bool:
    found = c.execute(
        select(follows.c.at).where(
            follows.c.follower_id == follower, follows.c.followed_id == followed
        )
    ).first()
    return found is not None


def count_following(c: Connection, follower: int) -> int:
    return c.execute(
        select(func.count()).select_from(follows).where(follows.c.follower_id == follower)
    ).scalar_one()


def count_followers(c: Connection, followed: int) -> int:
    return c.execute(
        select(func.count()).select_from(follows).where(follows.c.followed_id == followed)
    ).scalar_one()


def followed_by(c: Connection, follower: int) -> list[dict[str, Any]]:
    """The accounts ``follower`` follows: id, name, bot mark and since when."""
    u = users_table
    rows = c.execute(
        select(u.c.id, u.c.name, u.c.bot, follows.c.at)
        .join(follows, follows.c.followed_id == u.c.id)
        .where(follows.c.follower_id == follower)
        .order_by(u.c.name_key)
    )
    return [{"id": r.id, "name": r.name, "bot": r.bot, "since": r.at} for r in rows]


def followed_ids(c: Connection, follower: int) -> set[int]:
    rows = c.execute(select(follows.c.followed_id).where(follows.c.follower_id == follower))
    return {r.followed_id for r in rows}


def names_of(c: Connection, user_ids: Iterable[int]) -> dict[int, tuple[str, bool]]:
    """Name and bot mark of each account of ``user_ids`` that exists."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    u = users_table
    rows = c.execute(select(u.c.id, u.c.name, u.c.bot).where(u.c.id.in_(ids)))
    return {r.id: (r.name, r.bot) for r in rows}


def games_played(
    c: Connection, user_ids: Iterable[int], cutoff: float, seen: Iterable[str]
) -> dict[int, dict[str, Any]]:
    """The game each account of ``user_ids`` plays now, if one anyone may watch: in play,
    and moved in since ``cutoff`` or held by a player's socket (``seen``); the latest
    moved in when there are several."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    g = games
    recent = (g.c.updated_at >= cutoff) | g.c.id.in_(sorted(set(seen)))
    rows = c.execute(
        select(seats.c.user_id, g.c.id, g.c.game)
        .join(g, g.c.id == seats.c.game_id)
        .where(
            seats.c.user_id.in_(ids),
            g.c.status == "active",
            g.c.private.is_(False),
            g.c.watchable.is_(True),
            recent,
        )
        .order_by(g.c.updated_at)
    )
    return {r.user_id: {"id": r.id, "game": r.game} for r in rows}


def count_games_in_play(c: Connection, cutoff: float, seen: Iterable[str]) -> int:
    """Games in play that someone plays: moved in since ``cutoff`` or held by a socket."""
    g = games
    recent = (g.c.updated_at >= cutoff) | g.c.id.in_(sorted(set(seen)))
    return c.execute(
        select(func.count()).select_from(g).where(g.c.status == "active", recent)
    ).scalar_one()
