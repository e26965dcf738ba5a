"""The tournaments' HTTP routes (under ``/api/tournaments``): thin, over
:class:`~sansu.server.tournaments.tournaments.Tournaments`.

Reading is open to anyone; creating, entering, pausing, withdrawing and
starting need a signed-in session and its ``X-CSRF-Token`` header (a bot's
own API builds on the same domain calls). Each route is a function of this
module: the tournaments come in through ``Depends``, and so does the caller, as a
:class:`~sansu.server.accounts.Caller`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Query
from pydantic import BaseModel, ConfigDict, Field

from sansu.server.accounts import Caller, SessionOnly, User, bot_refused
from sansu.server.base import GameChoice, TimeControl, part, refusals
from sansu.server.tournaments.tournaments import Tournaments

TournamentId = Annotated[str, Path(min_length=1, max_length=24, description="a tournament's id")]
AllTournaments = Annotated[Tournaments, part("tournaments")]
"""The server's tournaments, as the composition root built them."""


class CreateTournament(GameChoice):
    format: Literal["arena", "swiss", "round_robin"]
    time_control: TimeControl
    name: str | None = Field(None, max_length=64)
    rated: bool = Field(False, description="rated tournaments create rated games")
    rounds: int | None = Field(None, ge=1, le=20, description="Swiss: the number of rounds")
    minutes: float | None = Field(None, ge=1, le=1440, description="arena: its length")
    streak: bool = Field(True, description="arena: double points after two wins in a row")
    starts_in_minutes: float | None = Field(
        None, ge=0, le=10080, description="starts by itself then (default: its creator starts it)"
    )


class Pause(BaseModel):
    model_config = ConfigDict(extra="forbid")
    paused: bool = True


async def player(caller: Caller) -> User:
    """The signed-in person of a write (refused without a session or its CSRF header,
    and for a bot account: bots play tournaments through the bot API, with their token)."""
    user = (await caller.session())[1]
    if user.bot:
        raise bot_refused()
    return user


router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


@router.get("", responses=refusals())
async def list_tournaments(
    status: Annotated[Literal["upcoming", "running", "finished"] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    *,
    tournaments: AllTournaments,
) -> dict[str, Any]:
    """Tournaments, newest first."""
    return {"tournaments": await tournaments.list_all(status, limit)}


@router.post("", status_code=201, responses=refusals(401, 403, 503))
async def create(
    body: CreateTournament, tournaments: AllTournaments, caller: SessionOnly
) -> dict[str, Any]:
    """Creates an upcoming tournament (signed in)."""
    user = await player(caller)
    spec = body.model_dump()
    spec["time_control"] = body.time_control.model_dump()
    return await tournaments.create(user, spec)


@router.get("/{tid}", responses=refusals(404))
async def get(tid: TournamentId, tournaments: AllTournaments) -> dict[str, Any]:
    """The tournament: standings, rounds and their pairings (with game ids), podium."""
    return await tournaments.get(tid)


@router.get("/{tid}/news", responses=refusals(404))
async def news(
    tid: TournamentId,
    tournaments: AllTournaments,
    since: Annotated[str | None, Query(max_length=32, description="the version last seen")] = None,
) -> dict[str, Any]:
    """The tournament (as ``GET /api/tournaments/{id}``) as soon as its ``version`` differs
    from ``since`` (a pairing, a result, an entry, a pause), or unchanged after 20 s: a
    page asks again at once, and follows its player into each new game."""
    return await tournaments.news(tid, since)


@router.post("/{tid}/join", responses=refusals(401, 403, 404, 409))
async def join(
    tid: TournamentId, tournaments: AllTournaments, caller: SessionOnly
) -> dict[str, Any]:
    """Enters the signed-in player (arenas: at any time, and again after a pause; others:
    before the start)."""
    return await tournaments.join(tid, await player(caller))


@router.post("/{tid}/pause", responses=refusals(401, 403, 404, 409))
async def pause(
    tid: TournamentId,
    tournaments: AllTournaments,
    caller: SessionOnly,
    body: Annotated[Pause | None, Body()] = None,
) -> dict[str, Any]:
    """Arena: ``{"paused": true}`` stops being paired, ``false`` comes back."""
    paused = True if body is None else body.paused
    return await tournaments.pause(tid, await player(caller), paused)


@router.post("/{tid}/withdraw", responses=refusals(401, 403, 404, 409))
async def withdraw(
    tid: TournamentId, tournaments: AllTournaments, caller: SessionOnly
) -> dict[str, Any]:
    """Leaves the tournament."""
    return await tournaments.withdraw(tid, await player(caller))


@router.post("/{tid}/games/{game_id}/token", responses=refusals(401, 403, 404, 409, 503))
async def seat_token(
    tid: TournamentId,
    game_id: Annotated[str, Path(min_length=1, max_length=24)],
    tournaments: AllTournaments,
    caller: SessionOnly,
) -> dict[str, Any]:
    """A seat token for the signed-in player's own game of this tournament, shown once
    (for a page that plays by seat tokens); the seat's earlier token stops working."""
    return await tournaments.seat_token(tid, game_id, await player(caller))


@router.post("/{tid}/start", responses=refusals(401, 403, 404, 409))
async def start(
    tid: TournamentId, tournaments: AllTournaments, caller: SessionOnly
) -> dict[str, Any]:
    """Starts it now (its creator only)."""
    return await tournaments.start(tid, await player(caller))
