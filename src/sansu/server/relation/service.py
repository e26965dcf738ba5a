"""Relations between players: who follows whom, who is online, and what they play now.

Follows are stored (:mod:`~sansu.server.relation.follows`); being online is not: it
is what :class:`~sansu.server.accounts.Online` holds now (sockets open, requests of
the last minute), on every node of a cluster. A followed player's game is shown only
while they are online, and when anyone may watch it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection

from sansu.server.accounts import Online, User, find_user
from sansu.server.base import ApiError, Store
from sansu.server.play import ABANDON_AFTER, Hub
from sansu.server.relation import follows as rows
from sansu.server.relation.follows import FollowError

MAX_PAGE = 100
"""Online players one answer lists at most."""


def no_user(name: str) -> ApiError:
    return ApiError(404, "no_user", f"there is no user named {name!r}")


def _found(c: Connection, name: str) -> User:
    user = find_user(c, name)
    if user is None:
        raise no_user(name)
    return user


def _refused(error: FollowError) -> ApiError:
    return ApiError(error.status, error.code, str(error))


class Relations:
    """Follows, online players and their games, for the routes and the pages."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        online: Online,
        *,
        abandon_after: float = ABANDON_AFTER,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.hub = hub
        self.online = online
        self.abandon_after = abandon_after
        self.clock = clock

    async def follow(self, who: User, name: str) -> dict[str, Any]:
        """``who`` follows ``name`` (a person or a bot, never themselves)."""

        # A write job never raises (a failed job is a failed commit): the name is looked
        # up first, and the job returns its refusal.
        target = await self.store.read(lambda c: _found(c, name))
        refused = await self.store.write(
            lambda c: rows.follow(c, who.id, target.id, now=self.clock())
        )
        if refused is not None:
            raise _refused(refused)
        return {"name": target.name, "following": True}

    async def unfollow(self, who: User, name: str) -> dict[str, Any]:
        """``who`` no longer follows ``name`` (not following: nothing changes)."""
        target = await self.store.read(lambda c: _found(c, name))
        await self.store.write(lambda c: rows.unfollow(c, who.id, target.id))
        return {"name": target.name, "following": False}

    async def relation(self, viewer: User | None, name: str) -> dict[str, Any]:
        """What a profile shows of ``name``'s relations: followers and following counted,
        whether ``viewer`` follows them, whether they are online and the game they play."""
        cutoff, seen = self._recent()

        def read(c: Connection) -> dict[str, Any]:
            target = _found(c, name)
            online = self.online.is_online(target.id)
            playing = rows.games_played(c, [target.id], cutoff, seen) if online else {}
            return {
                "name": target.name,
                "followers": rows.count_followers(c, target.id),
                "following": rows.count_following(c, target.id),
                "you_follow": None
                if viewer is None
                else rows.is_following(c, viewer.id, target.id),
                "online": online,
                "playing": playing.get(target.id),
            }

        return await self.store.read(read)

    async def following(self, who: User) -> dict[str, Any]:
        """Everyone ``who`` follows, online first, each with the game they play now."""
        cutoff, seen = self._recent()
        everyone = self.online.everyone()

        def read(c: Connection) -> list[dict[str, Any]]:
            followed = rows.followed_by(c, who.id)
            online = [f["id"] for f in followed if f["id"] in everyone]
            playing = rows.games_played(c, online, cutoff, seen)
            return [
                {
                    "name": f["name"],
                    "bot": f["bot"],
                    "since": f["since"],
                    "online": f["id"] in everyone,
                    "playing": playing.get(f["id"]),
                }
                for f in followed
            ]

        found = await self.store.read(read)
        found.sort(key=lambda f: not f["online"])  # stable: by name within each
        return {"count": len(found), "limit": rows.MAX_FOLLOWING, "following": found}

    async def who_is_online(
        self, viewer: User | None, *, limit: int, offset: int
    ) -> dict[str, Any]:
        """How many players are online and games in play, and a page of the players
        online: those ``viewer`` follows first, then the others, each by name."""
        cutoff, seen = self._recent()
        everyone = self.online.everyone()
        limit = max(0, min(limit, MAX_PAGE))

        def read(c: Connection) -> dict[str, Any]:
            friends = rows.followed_ids(c, viewer.id) if viewer is not None else set()
            named = rows.names_of(c, everyone)
            order = sorted(named, key=lambda u: (u not in friends, named[u][0].lower(), u))
            page = order[offset : offset + limit]
            return {
                "players": len(named),
                "games": rows.count_games_in_play(c, cutoff, seen),
                "offset": offset,
                "limit": limit,
                "online": [
                    {"name": named[u][0], "bot": named[u][1], "you_follow": u in friends}
                    for u in page
                ],
            }

        return await self.store.read(read)

    def _recent(self) -> tuple[float, set[str]]:
        """A game counts as played when moved in since the cutoff, or held by a player's
        socket (as the archive lists games in play)."""
        cutoff = self.clock() - self.abandon_after
        return cutoff, self.hub.players_seen_since(cutoff)
