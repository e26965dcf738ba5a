"""Bots in tournaments: entering, pausing and leaving through the bot API (``/api/bot/
tournament/{id}/...``), and each pairing announced on the players' event streams.

The token names the account: a bot only ever enters, pauses or withdraws
itself, and only through its API token (the people's tournament routes take
a signed-in session, which a bot may not use to write). When a tournament
creates a game, every seated account hears ``tournamentPairing`` and then a
``gameStart`` carrying the tournament's id, so a bot plays it exactly like a
game it got by a challenge (docs/bots.md).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from sqlalchemy import Connection

from sansu.server.accounts import User, get_user
from sansu.server.base import refusals
from sansu.server.bots.routes import bot_of
from sansu.server.lobby import EventStreams, account_json, game_start
from sansu.server.play import GameService
from sansu.server.tournaments import Pairing, PairingListener, Pause, TournamentId, Tournaments


def build_bot_tournament_router(service: GameService, tournaments: Tournaments) -> APIRouter:
    router = APIRouter(prefix="/api/bot/tournament", tags=["bots"])
    store = service.store

    @router.post("/{tid}/join", responses=refusals(401, 403, 404, 409))
    async def join(tid: TournamentId, request: Request) -> dict[str, Any]:
        """Enters the token's bot (an arena at any time, the others before their start);
        its games come as ``tournamentPairing`` and ``gameStart`` on its event stream.
        Answers the tournament, as ``GET /api/tournaments/{id}``."""
        return await tournaments.join(tid, await bot_of(store, request))

    @router.post("/{tid}/pause", responses=refusals(401, 403, 404, 409))
    async def pause(
        tid: TournamentId, request: Request, body: Annotated[Pause | None, Body()] = None
    ) -> dict[str, Any]:
        """Arena: ``{"paused": true}`` (the default) stops the bot being paired after its
        game under way; ``false`` brings it back."""
        paused = True if body is None else body.paused
        return await tournaments.pause(tid, await bot_of(store, request), paused)

    @router.post("/{tid}/withdraw", responses=refusals(401, 403, 404, 409))
    async def withdraw(tid: TournamentId, request: Request) -> dict[str, Any]:
        """Leaves the tournament: before its start the entry is removed, after it the bot
        is paired no more (its points stay)."""
        return await tournaments.withdraw(tid, await bot_of(store, request))

    return router


def pairing_announcer(
    service: GameService, streams: EventStreams, *, with_pairing: bool = True
) -> PairingListener:
    """A ``Tournaments.on_pairing`` listener: tells each seated account of its new game.
    ``with_pairing=False``: the ``gameStart`` only, as a reconnecting stream gets it (to tell
    of a game again)."""

    async def announce(pairing: Pairing) -> None:
        ids = list(dict.fromkeys(pairing.players))

        def read(c: Connection) -> dict[int, User]:
            return {uid: u for uid in ids if (u := get_user(c, uid)) is not None}

        accounts = await service.store.read(read)
        live = await service.get(pairing.game_id)
        table = [account_json(accounts[uid]) for uid in pairing.players if uid in accounts]
        for uid, user in accounts.items():
            if with_pairing:
                streams.send(
                    uid,
                    {
                        "type": "tournamentPairing",
                        "tournament": {
                            "id": pairing.tournament_id,
                            "round": pairing.round,
                            "game_id": pairing.game_id,
                            "players": table,
                        },
                    },
                )
            opponent = next((accounts[o] for o in ids if o != uid and o in accounts), user)
            streams.send(uid, game_start(live, user, opponent, None))

    return announce
