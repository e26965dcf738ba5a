"""The HTTP routes of relations: follow and unfollow a player, the players one follows,
a profile's relations, and who is online.

Following is a signed-in account's own act: a write needs the session and its CSRF
token (as every account route), and no route names the follower, so nobody follows
for another.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from sansu.server.accounts import SessionOnly, User, bot_refused
from sansu.server.base import part, refusals
from sansu.server.relation.service import MAX_PAGE, Relations

RelationsPart = Annotated[Relations, part("relations")]
UserName = Annotated[str, Path(min_length=1, max_length=20, description="a user name, any case")]

router = APIRouter(prefix="/api", tags=["relations"])


async def _writer(caller: SessionOnly) -> User:
    _session, user = await caller.session(write=True)
    if user.bot:
        raise bot_refused()
    return user


@router.post("/users/{name}/follow", responses=refusals(401, 403, 404, 409))
async def follow(name: UserName, relations: RelationsPart, caller: SessionOnly) -> dict[str, Any]:
    """Follows ``name`` (a person or a bot; not yourself; at most 500 players)."""
    return await relations.follow(await _writer(caller), name)


@router.delete("/users/{name}/follow", responses=refusals(401, 403, 404))
async def unfollow(name: UserName, relations: RelationsPart, caller: SessionOnly) -> dict[str, Any]:
    """Stops following ``name`` (not following them already: nothing changes)."""
    return await relations.unfollow(await _writer(caller), name)


@router.get("/users/{name}/relation", responses=refusals(404))
async def relation(name: UserName, relations: RelationsPart, caller: SessionOnly) -> dict[str, Any]:
    """``name``'s followers and following counted, whether you follow them
    (``null`` when not signed in), whether they are online, and the game they play now
    while online, if anyone may watch it (``{"id", "game"}``, else ``null``)."""
    return await relations.relation(await caller.account(write=False), name)


@router.get("/account/following", responses=refusals(401))
async def following(relations: RelationsPart, caller: SessionOnly) -> dict[str, Any]:
    """The players you follow, online first, each with ``online`` and ``playing`` (the
    game an online player plays now, to watch, or ``null``)."""
    _session, user = await caller.session(write=False)
    return await relations.following(user)


@router.get("/online")
async def who_is_online(
    relations: RelationsPart,
    caller: SessionOnly,
    limit: Annotated[int, Query(ge=0, le=MAX_PAGE)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """How many players are online (``players``) and games in play (``games``), and a
    page of the players online: the ones you follow first, then the others, by name."""
    viewer = await caller.account(write=False)
    return await relations.who_is_online(viewer, limit=limit, offset=offset)
