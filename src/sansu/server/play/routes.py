"""The HTTP routes of games: creating, joining, playing, the archive (the server's health
and the catalog: :mod:`sansu.server.play.routes_info`).

Everything lives under ``/api``; ``/api/docs`` shows the OpenAPI schema.
A seat's token travels as ``Authorization: Bearer TOKEN``; the WebSocket of
a game is :mod:`sansu.server.play.socket`. Each route is a function of this
module: the game service comes in as :data:`Service` and the caller as a
:class:`~sansu.server.accounts.Caller`, both through ``Depends``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Path, Query
from pydantic import BaseModel, ConfigDict, Field

from sansu.core.registry import game_class
from sansu.server.accounts import SessionOnly, SignedIn, TokenOrSession, Who
from sansu.server.base import (
    REQUEST,
    ApiError,
    GameChoice,
    GameId,
    GameName,
    SeatSpec,
    TimeControl,
    part,
    refusals,
)
from sansu.server.play.live import LiveGame
from sansu.server.play.privacy import (
    check_join,
    check_watch,
    invitation_path,
    new_join_secret,
    private_default,
)
from sansu.server.play.rated import end_ratings
from sansu.server.play.service import GameService
from sansu.server.play.views import game_json


class CreateGame(GameChoice):
    seats: list[SeatSpec] | None = Field(
        None, max_length=8, description="one per player, in turn order (default: all human)"
    )
    take: list[Annotated[int, Field(ge=0, le=7)]] | None = Field(
        None,
        max_length=8,
        description="seats the creator takes (default: the first human seat); one token holds them",
    )
    name: str | None = Field(None, max_length=64, description="the creator's name")
    casual: bool = Field(
        True,
        description="false: a rated game, between signed-in players only (no computer seat,"
        " no takeback); casual games against the computer allow takebacks",
    )
    time_control: TimeControl | None = None
    private: bool | None = Field(
        None,
        description="joined only through the invitation (join secret) and never listed"
        " (default: false, anyone with the link may join; the web app's friend games are"
        " private)",
    )
    watchable: bool = Field(True, description="anyone with the link may watch")


class JoinGame(BaseModel):
    model_config = REQUEST
    seat: int | None = Field(None, ge=0, le=7, description="default: the first free seat")
    name: str | None = Field(None, max_length=64)
    secret: str | None = Field(
        None, max_length=64, description="a private game's join secret (from its invitation)"
    )


class PlayMove(BaseModel):
    model_config = REQUEST
    move: str = Field(max_length=64, description="the move's text, e.g. r5c5 or r5c5=7")
    state: int = Field(ge=0, le=2**31, description="the state number the move was made in")


class StateRef(BaseModel):
    model_config = REQUEST
    state: int | None = Field(None, ge=0, le=2**31, description="the state number seen")


class Claim(StateRef):
    draw: bool = Field(False, description="true: call it a draw (rules that can draw) instead")


class GameView(BaseModel):
    """A game as one client may see it (abridged in the schema: see docs/server.md)."""

    model_config = ConfigDict(extra="allow")
    id: str
    game: str
    status: str
    state: int
    seq: int
    seats: list[dict[str, Any]]
    view: dict[str, Any]
    you: list[int]


class Created(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    token: str | None
    seats: list[int]
    game: GameView
    join_secret: str | None = Field(None, description="a private game's, shown only this once")
    invitation: str | None = Field(None, description="the invitation link's path, with the secret")


Service = Annotated[GameService, part("service")]
"""The game service, as the composition root built it."""


async def watched(game_id: GameId, service: Service, caller: TokenOrSession) -> LiveGame:
    """The game, for someone who may watch it (anyone, unless its creator turned
    watching off); also a route dependency (:data:`Watched`)."""
    live = await service.get(game_id)
    if not live.watchable:
        check_watch(live, live.seats_of(await caller.acting(write=False)))
    return live


Watched = Annotated[LiveGame, Depends(watched)]
"""A route's game, refused to whoever may not watch it."""


def move_answer(live: LiveGame) -> dict[str, Any]:
    """The answer to a move just played: the new state number and where the game stands."""
    return {
        "state": live.version,
        "seq": live.seq,
        "move": live.moves[-1].public(),
        "status": live.status,
        "result": live.result,
        "ratings": end_ratings(live),
    }


router = APIRouter(prefix="/api")


@router.post(
    "/games",
    status_code=201,
    tags=["games"],
    responses=refusals(403, 409, 503),
    response_model=Created,
)
async def create_game(body: CreateGame, service: Service, caller: SessionOnly) -> dict[str, Any]:
    """Creates a game. The token in the answer is shown only this once: keep it.
    A signed-in creator's seats are bound to their account as well."""
    user = await caller.account(write=True)
    private = private_default(body.private)
    secret, secret_hash = new_join_secret() if private else (None, None)
    live, token = await service.create(
        body.game,
        body.options,
        None if body.seats is None else [s.model_dump() for s in body.seats],
        take=body.take,
        name=body.name,
        casual=body.casual,
        time_control=None if body.time_control is None else body.time_control.model_dump(),
        user=user,
        private=private,
        join_secret_hash=secret_hash,
        watchable=body.watchable,
    )
    held = live.seats_of(token)
    return {
        "id": live.id,
        "token": token,
        "seats": sorted(held),
        "game": await service.rated.decorate(live, game_json(service, live, held)),
        "join_secret": secret,
        "invitation": None if secret is None else invitation_path(live.id, secret),
    }


@router.get("/games", tags=["archive"])
async def list_games(
    status: Annotated[
        Literal["active", "abandoned", "finished", "aborted", "imported", "archive"] | None,
        Query(
            description="active: being played; abandoned: in play but left"
            " (no move and no player for a while); archive: finished or imported"
        ),
    ] = None,
    game: Annotated[GameName | None, Query(description="a game id or alias")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
    *,
    service: Service,
) -> dict[str, Any]:
    """Games, most recently changed first: to watch (active) or replay (archive)."""
    if game is not None:
        try:
            game = game_class(game).id
        except ValueError as error:
            raise ApiError(422, "unknown_game", str(error)) from None
    total, games = await service.archive.list_games(
        status=status, game=game, limit=limit, offset=offset
    )
    return {"total": total, "games": games}


@router.get(
    "/games/{game_id}",
    tags=["games"],
    response_model=GameView,
    responses=refusals(401, 403, 404),
)
async def get_game(game_id: GameId, service: Service, caller: TokenOrSession) -> dict[str, Any]:
    """The game as the token's seat (or the signed-in account's) sees it; without
    either, as a spectator."""
    live = await service.get(game_id)
    token = caller.token
    who = await caller.acting(write=False)
    held = live.holder(who) if token else live.seats_of(who)
    check_watch(live, held)
    return await service.rated.decorate(live, game_json(service, live, held))


@router.post("/games/{game_id}/join", tags=["games"], responses=refusals(401, 403, 404, 409))
async def join_game(
    game_id: GameId,
    service: Service,
    caller: TokenOrSession,
    body: Annotated[JoinGame | None, Body()] = None,
) -> dict[str, Any]:
    """Takes a free seat. Answers a new token, shown only this once; with a token
    of this game the seat joins it instead (two players on one device). A
    signed-in player's seat is bound to their account as well."""
    body = body or JoinGame()
    user = await caller.account(write=True)
    given = caller.token
    check_join(
        await service.get(game_id),
        body.secret,
        given if user is None else SignedIn(user.id, given),
    )
    live, seat, token = await service.join(
        game_id, body.seat, body.name, token=caller.token, user=user
    )
    held = live.seats_of(token)
    return {
        "id": live.id,
        "seat": seat,
        "token": token,
        "seats": sorted(held),
        "game": await service.rated.decorate(live, game_json(service, live, held)),
    }


@router.post("/games/{game_id}/moves", tags=["play"], responses=refusals(401, 403, 404, 409, 503))
async def play(
    game_id: GameId, body: PlayMove, service: Service, caller: TokenOrSession
) -> dict[str, Any]:
    """Plays a move for the token's seat (or the signed-in account's); refused if
    ``state`` is not the current one."""
    who = await caller.acting(write=True)
    return move_answer(await service.play(game_id, who, body.move, body.state))


async def ended(
    call: Callable[[str, Who, int | None], Awaitable[LiveGame]],
    game_id: str,
    caller: TokenOrSession,
    body: StateRef | None,
) -> dict[str, Any]:
    """Ends the game by ``call`` (resign, abort, claim) for the caller; what it became."""
    who = await caller.acting(write=True)
    live = await call(game_id, who, None if body is None else body.state)
    return {
        "state": live.version,
        "status": live.status,
        "result": live.result,
        "ratings": end_ratings(live),
    }


@router.post("/games/{game_id}/resign", tags=["play"], responses=refusals(401, 403, 404, 409))
async def resign(
    game_id: GameId,
    service: Service,
    caller: TokenOrSession,
    body: Annotated[StateRef | None, Body()] = None,
) -> dict[str, Any]:
    """Resigns the token's seat: everyone else wins (before every player moved in a rated
    game: aborts it)."""
    return await ended(service.resign, game_id, caller, body)


@router.post("/games/{game_id}/abort", tags=["play"], responses=refusals(401, 403, 404, 409))
async def abort(
    game_id: GameId,
    service: Service,
    caller: TokenOrSession,
    body: Annotated[StateRef | None, Body()] = None,
) -> dict[str, Any]:
    """Aborts a rated game that not every player has moved in: no result, no rating."""
    return await ended(service.abort, game_id, caller, body)


@router.post("/games/{game_id}/claim", tags=["play"], responses=refusals(401, 403, 404, 409))
async def claim(
    game_id: GameId,
    service: Service,
    caller: TokenOrSession,
    body: Annotated[Claim | None, Body()] = None,
) -> dict[str, Any]:
    """Claims a rated game whose player to move left it (no page open, no move) for the
    grace period: they lose (``draw``: it is drawn); before every player moved, the game
    is aborted instead."""
    draw = body is not None and body.draw
    return await ended(
        lambda g, who, seen: service.claim(g, who, seen, draw), game_id, caller, body
    )


@router.post("/games/{game_id}/takeback", tags=["play"], responses=refusals(401, 403, 404, 409))
async def takeback(
    game_id: GameId,
    service: Service,
    caller: TokenOrSession,
    body: Annotated[StateRef | None, Body()] = None,
) -> dict[str, Any]:
    """Casual games against the computer: undoes your last move and the replies after it."""
    who = await caller.acting(write=True)
    live = await service.take_back(game_id, who, None if body is None else body.state)
    return {"state": live.version, "ply": len(live.moves)}


@router.post("/games/{game_id}/rematch", tags=["play"], responses=refusals(401, 403, 404, 409))
async def rematch(game_id: GameId, service: Service, caller: TokenOrSession) -> dict[str, Any]:
    """Offers or accepts a rematch; once every player agreed, ``game_id`` is the new game
    (seats turned by one; each player's token holds their new seat)."""
    who = await caller.acting(write=True)
    live = await service.offer_rematch(game_id, who)
    return {"offers": live.rematch_offers, "game_id": live.rematch_id}


@router.delete("/games/{game_id}/rematch", tags=["play"], responses=refusals(401, 403, 404, 409))
async def decline_rematch(
    game_id: GameId, service: Service, caller: TokenOrSession
) -> dict[str, Any]:
    """Withdraws or declines a rematch offer."""
    who = await caller.acting(write=True)
    live = await service.decline_rematch(game_id, who)
    return {"offers": live.rematch_offers, "game_id": live.rematch_id}


@router.get("/games/{game_id}/positions/{ply}", tags=["archive"], responses=refusals(401, 403, 404))
async def position(
    game_id: GameId,
    ply: Annotated[int, Path(ge=0, le=100000)],
    service: Service,
    caller: TokenOrSession,
) -> dict[str, Any]:
    """The position after ``ply`` moves, as a spectator sees it: for replay."""
    live = await watched(game_id, service, caller)
    return await service.archive.position(live, ply)


@router.get("/games/{game_id}/record", tags=["archive"], responses=refusals(401, 403, 404, 409))
async def record(game_id: GameId, service: Service, caller: TokenOrSession) -> dict[str, Any]:
    """The game's JSON record (``sansu show --record`` reads it)."""
    live = await watched(game_id, service, caller)
    return service.archive.record(live)


@router.post(
    "/records", status_code=201, tags=["archive"], responses=refusals(401, 409, 422, 503)
)
async def import_record(
    record: Annotated[Any, Body(description="a sansu game record (JSON object)")],
    service: Service,
    caller: TokenOrSession,
) -> dict[str, Any]:
    """Stores a JSON record as an archived game, after replaying every move; a copy of a
    game in play is refused as its analysis would be (409 ``game_in_play``)."""
    live = await service.archive.import_record(record, await caller.acting(write=False))
    return {"id": live.id, "status": live.status, "ply": len(live.moves)}
