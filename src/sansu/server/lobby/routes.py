"""The lobby over HTTP: seeks, quick pairing, a player's games, and watching on or off.

A seek's or a wait's ticket travels like a seat's token, as
``Authorization: Bearer TICKET``; it is shown once, in the answer that
made it. A signed-in player's writes carry the session's CSRF header, as
everywhere (:mod:`sansu.server.accounts.identity`). Each route is a function
of this module: the lobby's parts come in through ``part`` and the caller as
a :class:`~sansu.server.accounts.Caller`, both through ``Depends``.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, select

import sansu
from sansu.core.protocol import IllegalMove
from sansu.core.registry import game_class
from sansu.server.accounts import SessionOnly, TokenOrSession
from sansu.server.base import (
    ApiError,
    GameChoice,
    GameId,
    GameName,
    TimeControl,
    client_of,
    part,
    refusals,
)
from sansu.server.base import games as games_table
from sansu.server.base import seats as seats_table
from sansu.server.lobby.desk import PairingDesk
from sansu.server.lobby.seeks import Seek, Seeks, Ticket
from sansu.server.play import Service, check_time_control, set_watchable

SeekId = GameId
MAX_MY_GAMES = 100

OpenSeeks = Annotated[Seeks, part("seeks")]
"""The lobby's open seeks, as the composition root built them."""
Desk = Annotated[PairingDesk, part("desk")]
"""The quick-pairing desk, as the composition root built it."""


class PostSeek(GameChoice):
    time_control: TimeControl | None = None
    casual: bool = Field(True, description="false: rated (signed-in players only)")
    name: str | None = Field(None, max_length=64, description="an anonymous poster's name")


class AcceptSeek(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, max_length=64)


class QuickPairing(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: GameName
    time_control: TimeControl | None = None
    casual: bool = True
    name: str | None = Field(None, max_length=64)


class Watching(BaseModel):
    model_config = ConfigDict(extra="forbid")
    watchable: bool


def _checked_game(game: str, options: dict[str, Any]) -> tuple[str, int]:
    """The game's id and number of players with ``options``; refuses bad ones with 422."""
    try:
        loaded = sansu.load_game(game, **options)
    except IllegalMove as error:
        raise ApiError(422, "bad_options", str(error)) from None
    except (ValueError, TypeError) as error:
        raise ApiError(422, "bad_options", str(error)) from None
    return loaded.id, loaded.num_players


def _seek_view(seek: Seek, ticket: Ticket | None = None) -> dict[str, Any]:
    data = seek.public()
    if ticket is not None:
        data["you"] = "poster" if ticket is seek.poster else "joined"
        data["seat"] = ticket.seat
    return data


def _my_games(c: Connection, user_id: int) -> list[dict[str, Any]]:
    g, s = games_table, seats_table
    rows = c.execute(
        select(g.c.id, g.c.game, g.c.status, g.c.to_move, g.c.updated_at, g.c.private, s.c.seat)
        .join(s, s.c.game_id == g.c.id)
        .where(s.c.user_id == user_id, g.c.status == "active")
        .order_by(g.c.updated_at.desc(), g.c.id)
        .limit(MAX_MY_GAMES * 8)
    ).all()
    games: dict[str, dict[str, Any]] = {}
    for r in rows:
        entry = games.setdefault(
            r.id,
            {
                "id": r.id,
                "game": r.game,
                "status": r.status,
                "to_move": r.to_move,
                "private": r.private,
                "updated_at": r.updated_at,
                "you": [],
            },
        )
        entry["you"].append(r.seat)
    out = list(games.values())[:MAX_MY_GAMES]
    for entry in out:
        entry["you"].sort()
        entry["your_turn"] = entry["to_move"] in entry["you"]
    return out


router = APIRouter(prefix="/api")
"""The ``/api/lobby`` routes, ``GET /api/account/games`` and ``POST
/api/games/{id}/watching``."""


@router.get("/lobby/seeks", tags=["lobby"])
async def list_seeks(seeks: OpenSeeks) -> dict[str, Any]:
    """The open seeks, oldest first."""
    return {"seeks": [s.public() for s in seeks.open_seeks()]}


@router.post("/lobby/seeks", status_code=201, tags=["lobby"], responses=refusals(403, 409, 503))
async def post_seek(
    body: PostSeek, seeks: OpenSeeks, caller: SessionOnly, request: Request
) -> dict[str, Any]:
    """Posts a seek. The ticket in the answer is shown only this once: look at the
    seek with it (``GET /api/lobby/seeks/{id}``) every few seconds to keep it open."""
    user = await caller.account(write=True)
    tc = check_time_control(None if body.time_control is None else body.time_control.model_dump())
    game, players = await asyncio.to_thread(_checked_game, body.game, dict(body.options))
    address = client_of(request.scope)
    seek, ticket = seeks.post(
        game, body.options, tc, body.casual, players, user, body.name, address
    )
    return {"seek": _seek_view(seek, seek.poster), "ticket": ticket}


@router.get("/lobby/seeks/{seek_id}", tags=["lobby"], responses=refusals(401, 403, 404))
async def look_at_seek(seek_id: SeekId, seeks: OpenSeeks, caller: TokenOrSession) -> dict[str, Any]:
    """A participant's look (ticket needed): keeps them in it; once the game started,
    ``seat`` is their seat in it: ``{id, token, seats}``."""
    seek, ticket = seeks.look(seek_id, caller.token)
    return {"seek": _seek_view(seek, ticket)}


@router.post(
    "/lobby/seeks/{seek_id}/accept", tags=["lobby"], responses=refusals(401, 403, 404, 409, 503)
)
async def accept_seek(
    seek_id: SeekId,
    seeks: OpenSeeks,
    caller: TokenOrSession,
    body: AcceptSeek | None = None,
) -> dict[str, Any]:
    """Accepts a seek (not your own): when it is full, the game starts and ``seat`` is
    yours; otherwise look at the seek with the ticket until it starts."""
    user = await caller.account(write=True)
    name = None if body is None else body.name
    seek, ticket, token = await seeks.accept(seek_id, user, name, caller.token)
    return {"seek": _seek_view(seek, ticket), "ticket": token}


@router.delete("/lobby/seeks/{seek_id}", tags=["lobby"], responses=refusals(401, 403, 404, 409))
async def cancel_seek(seek_id: SeekId, seeks: OpenSeeks, caller: TokenOrSession) -> dict[str, Any]:
    """The poster withdraws the seek; another participant leaves it."""
    seeks.cancel(seek_id, caller.token)
    return {"ok": True}


@router.post("/lobby/pairing", status_code=201, tags=["lobby"], responses=refusals(403, 503))
async def start_waiting(body: QuickPairing, desk: Desk, caller: SessionOnly) -> dict[str, Any]:
    """Waits for someone to play now: look with the ticket every few seconds
    (``GET /api/lobby/pairing``) to keep waiting and to learn the game."""
    user = await caller.account(write=True)
    tc = check_time_control(None if body.time_control is None else body.time_control.model_dump())
    entry, ticket = await desk.join(game_class(body.game).id, tc, body.casual, user, body.name)
    return {"wait": entry.public(desk.time()), "ticket": ticket}


@router.get("/lobby/pairing", tags=["lobby"], responses=refusals(401, 404))
async def look_at_wait(desk: Desk, caller: TokenOrSession) -> dict[str, Any]:
    """How the wait goes: seconds waited, the current rating range (null: any), and
    once paired, ``seat``: ``{id, token, seats}``."""
    entry = await desk.look(caller.token)
    return {"wait": entry.public(desk.time())}


@router.delete("/lobby/pairing", tags=["lobby"], responses=refusals(401, 404, 409))
async def stop_waiting(desk: Desk, caller: TokenOrSession) -> dict[str, Any]:
    """Stops waiting."""
    desk.cancel(caller.token)
    return {"ok": True}


@router.get("/account/games", tags=["accounts"], responses=refusals(401))
async def my_games(service: Service, caller: SessionOnly) -> dict[str, Any]:
    """The signed-in player's games in play (their seats bound to the account)."""
    user = await caller.account(write=False)
    if user is None:
        raise ApiError(401, "not_signed_in", "this needs a signed-in session (log in first)")
    return {"games": await service.store.read(lambda c: _my_games(c, user.id))}


@router.post("/games/{game_id}/watching", tags=["games"], responses=refusals(401, 403, 404))
async def watching(
    game_id: GameId, body: Watching, service: Service, caller: TokenOrSession
) -> dict[str, Any]:
    """The creator turns watching by link on or off (off: only players see the game)."""
    who = await caller.acting(write=True)
    live = await service.get(game_id)
    await set_watchable(service.rounds, service.hub, live, who, body.watchable)
    return {"id": live.id, "watchable": live.watchable}
