"""Profiles and leaderboards over HTTP: ``GET /api/users/{name}``, ``GET /api/leaderboard/{game}``.

Both only read, and show nothing an account's owner has not shown by playing:
names, ratings, results and the games anyone may replay. Each route is a
function of this module; the store comes in through ``Depends``.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from sansu.core.registry import game_class
from sansu.server.base import ApiError, ErrorBody, GameName, part
from sansu.server.base import Store as StoreClass
from sansu.server.ratings.profiles import leaderboards, profile
from sansu.server.ratings.table import LEADERBOARD_DAYS, LEADERBOARD_MIN_GAMES

UserName = Annotated[str, Path(min_length=1, max_length=20, description="a user name, any case")]
Store = Annotated[StoreClass, part("store")]
"""The server's store, as the composition root built it."""

REFUSALS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (404, 422, 429)}
"""What both routes may answer instead (they read only, so never 400 or 413)."""

router = APIRouter(prefix="/api", tags=["ratings"])


@router.get("/users/{name}", responses=REFUSALS)
async def get_profile(name: UserName, store: Store) -> dict[str, Any]:
    """An account's profile: member since, BOT mark, rating per game and class with
    its history, wins/draws/losses and recent games (ids to replay)."""
    found = await store.read(lambda c: profile(c, name))
    if found is None:
        raise ApiError(404, "no_user", f"there is no user named {name!r}")
    return found


@router.get("/leaderboard/{game}", responses=REFUSALS)
async def get_leaderboard(
    game: GameName,
    min_games: Annotated[int, Query(ge=1, le=1000)] = LEADERBOARD_MIN_GAMES,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    *,
    store: Store,
) -> dict[str, Any]:
    """The top players of a game per time-control class (untimed, timed,
    correspondence): at least ``min_games`` rated games in the last 90 days and a
    rating no longer provisional; humans and bots apart."""
    game_id = game_class(game).id
    boards = await store.read(
        lambda c: leaderboards(c, game_id, now=time.time(), min_games=min_games, limit=limit)
    )
    return {"game": game_id, "days": LEADERBOARD_DAYS, "min_games": min_games, "boards": boards}
