"""Bots in tournaments: entering, pausing and leaving through the bot API (``/api/bot/
tournament/{id}/...``).

The token names the account: a bot only ever enters, pauses or withdraws
itself, and only through its API token (the people's tournament routes take
a signed-in session, which a bot may not use to write). Its tournament games
are announced on its event stream (:mod:`sansu.server.bots.announcer`), so
it plays them like games it got by a challenge (docs/bots.md). Each route is
a function of this module: the tournaments come in through ``part`` and the
caller as a :data:`~sansu.server.bots.routes.BotCaller`, both through ``Depends``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from sansu.server.base import part, refusals
from sansu.server.bots.routes import BotCaller, bot_of
from sansu.server.tournaments import Pause, TournamentId, Tournaments

Running = Annotated[Tournaments, part("tournaments")]
"""The tournaments, as the composition root built them."""

router = APIRouter(prefix="/api/bot/tournament", tags=["bots"])
"""A bot's entry in a tournament: join, pause, withdraw."""


@router.post("/{tid}/join", responses=refusals(401, 403, 404, 409))
async def join(tid: TournamentId, caller: BotCaller, tournaments: Running) -> dict[str, Any]:
    """Enters the token's bot (an arena at any time, the others before their start);
    its games come as ``tournamentPairing`` and ``gameStart`` on its event stream.
    Answers the tournament, as ``GET /api/tournaments/{id}``."""
    return await tournaments.join(tid, await bot_of(caller))


@router.post("/{tid}/pause", responses=refusals(401, 403, 404, 409))
async def pause(
    tid: TournamentId,
    caller: BotCaller,
    tournaments: Running,
    body: Annotated[Pause | None, Body()] = None,
) -> dict[str, Any]:
    """Arena: ``{"paused": true}`` (the default) stops the bot being paired after its
    game under way; ``false`` brings it back."""
    paused = True if body is None else body.paused
    return await tournaments.pause(tid, await bot_of(caller), paused)


@router.post("/{tid}/withdraw", responses=refusals(401, 403, 404, 409))
async def withdraw(tid: TournamentId, caller: BotCaller, tournaments: Running) -> dict[str, Any]:
    """Leaves the tournament: before its start the entry is removed, after it the bot
    is paired no more (its points stay)."""
    return await tournaments.withdraw(tid, await bot_of(caller))
