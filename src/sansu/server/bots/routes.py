"""The bot API (``/api/bot``) and challenges (``/api/challenge``), for programs and people.

A bot authenticates with a personal API token (``Authorization: Bearer
sansu_bot_...``, :mod:`sansu.server.bots.accounts`). Its event stream
(``GET /api/bot/stream/events``) says when it is challenged and when its
games start and end; a game's stream (``GET /api/bot/game/stream/{id}``)
sends the full game first, then every event of it as it happens, with the
clocks and state numbers; moves and resignations are plain POSTs. Both
streams are ND-JSON (one JSON object per line; empty lines keep the
connection alive). Challenges work the same for people, signed in by
cookie (with the CSRF header for writes), so the web app uses them too.
A person's account cannot use the bot API, nor a bot account a browser's
session to play (:mod:`sansu.server.accounts.identity`): docs/bots.md.
Each route is a function of this module: the server's parts come in through
``part`` and the caller as a :class:`~sansu.server.accounts.Caller` (:data:`BotCaller`),
both through ``Depends``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Path, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, select

from sansu.server.accounts import Caller, SignedIn, User, get_user, users_table
from sansu.server.base import ApiError, GameChoice, GameId, Store, TimeControl, part, refusals
from sansu.server.base import games as games_table
from sansu.server.base import seats as seats_table
from sansu.server.bots.accounts import TOKEN_PREFIX, token_user
from sansu.server.lobby import Challenge, Challenges, EventStreams, account_json, game_start, lines
from sansu.server.play import Connection as HubConnection
from sansu.server.play import GameService, Service, dumps, game_json, move_answer

NDJSON = "application/x-ndjson"
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
ChallengeId = Annotated[str, Path(min_length=1, max_length=20)]

OpenChallenges = Annotated[Challenges, part("challenges")]
"""The open challenges, as the composition root built them."""
Streams = Annotated[EventStreams, part("streams")]
"""The accounts' event streams, as the composition root built them."""


class NewChallenge(GameChoice):
    time_control: TimeControl | None = None
    rated: bool = Field(False, description="rated games change both players' ratings")
    challenger_seat: int | None = Field(None, ge=0, le=1, description="0 moves first; null: random")


class Decline(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str | None = Field(None, max_length=100)


class MoveState(BaseModel):
    model_config = ConfigDict(extra="forbid")
    state: int | None = Field(None, ge=0, le=2**31, description="the state number seen")


class BotMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(max_length=64, description="the move's text, e.g. r5c5")
    state: int = Field(ge=0, le=2**31, description="the state number the move was made in")


def _stream(body: AsyncIterator[bytes]) -> StreamingResponse:
    return StreamingResponse(body, media_type=NDJSON, headers=STREAM_HEADERS)


STREAM_DOC: dict[int | str, dict[str, Any]] = {
    200: {"content": {NDJSON: {"schema": {"type": "string"}}}, "description": "ND-JSON"},
    **refusals(401, 403, 404),
}


def bot_caller(request: Request, store: Annotated[Store, part("store")]) -> Caller:
    """The caller of a bot API route, with the ``Authorization`` header as it came: a bot's
    API token (docs/bots.md) or a seat's, read here rather than declared by each route."""
    return Caller(store, request, request.headers.get("authorization"))


BotCaller = Annotated[Caller, Depends(bot_caller)]
"""A bot API route's caller: a bot by its API token, or a person by the session."""


async def bot_of(caller: Caller) -> User:
    """The bot account of the caller's API token; a person is refused by name."""
    if not caller.authorization:
        person = await caller.account(write=False)
        if person is not None and not person.bot:
            raise ApiError(403, "not_a_bot", "a person's account cannot use the bot API")
        raise ApiError(401, "token_required", "the bot API needs Authorization: Bearer <API token>")
    token = caller.token or ""
    user = await caller.store.read(lambda c: token_user(c, token))
    if user is None:
        raise ApiError(401, "bad_token", "this API token is unknown or revoked")
    return user


async def anyone(caller: Caller, *, write: bool) -> User:
    """A bot by its API token, or a signed-in person by cookie."""
    header = caller.authorization or ""
    if header.partition(" ")[2].strip().startswith(TOKEN_PREFIX):
        return await bot_of(caller)
    user = await caller.account(write=write)
    if user is None:
        raise ApiError(
            401, "not_signed_in", "sign in, or send a bot's Authorization: Bearer <API token>"
        )
    return user


router = APIRouter(prefix="/api")
"""The bot API (``/api/bot``), challenges (``/api/challenge``) and ``GET /api/bots``."""

# -- bots -------------------------------------------------------------------------------


@router.get("/bot/account", tags=["bots"], responses=refusals(401, 403))
async def bot_account(caller: BotCaller) -> dict[str, Any]:
    """The bot account of this API token."""
    return account_json(await bot_of(caller))


@router.get("/bot/stream/events", tags=["bots"], responses=STREAM_DOC, response_model=None)
async def stream_events(
    caller: BotCaller, service: Service, challenges: OpenChallenges, streams: Streams
) -> StreamingResponse:
    """The bot's incoming events, ND-JSON: ``challenge``, ``challengeCanceled``,
    ``challengeDeclined``, ``challengeAccepted``, ``tournamentPairing``, ``gameStart``,
    ``gameFinish``, ``serverShutdown``. On connecting: a ``gameStart`` for every game
    it is playing and a ``challenge`` for every open one, so a bot that reconnects
    misses nothing."""
    user = await bot_of(caller)
    if streams.closing:
        raise ApiError(503, "shutting_down", "the server is stopping; reconnect shortly")

    async def first() -> list[dict[str, Any]]:
        return await _playing(service, challenges, user) + await challenges.open_events(user)

    return _stream(streams.stream(user.id, first))


async def _playing(
    service: GameService, challenges: Challenges, user: User
) -> list[dict[str, Any]]:
    """A ``gameStart`` for every game ``user`` is playing."""
    store = service.store

    def read(c: Connection) -> list[str]:
        rows = c.execute(
            select(seats_table.c.game_id)
            .join(games_table, games_table.c.id == seats_table.c.game_id)
            .where(seats_table.c.user_id == user.id, games_table.c.status == "active")
            .distinct()
        ).all()
        return [r[0] for r in rows]

    out = []
    for game_id in await store.read(read):
        live = await service.get(game_id)
        others = {s.user_id for s in live.seats if s.user_id not in (None, user.id)}
        opponent = challenges.opponent_in(live.meta.get("challenge"), user)
        if others and opponent is None:
            opponent_id = min(others)
            opponent = await store.read(lambda c: get_user(c, opponent_id))  # noqa: B023
        out.append(game_start(live, user, opponent or user, live.meta.get("challenge")))
    return out


@router.get("/bot/game/stream/{game_id}", tags=["bots"], responses=STREAM_DOC, response_model=None)
async def stream_game(
    game_id: GameId, caller: BotCaller, service: Service, streams: Streams
) -> StreamingResponse:
    """One of the bot's games, ND-JSON: ``gameFull`` (the whole game as the bot sees
    it: seats, moves, view, clock, ``state``) first, then every event of the game
    (``move`` with ``view``, ``clock`` and ``state``; ``resign``, ``flag``,
    ``game_over``, ``presence`` ...). The stream ends after ``game_over``."""
    user = await bot_of(caller)
    if streams.closing:
        raise ApiError(503, "shutting_down", "the server is stopping; reconnect shortly")
    live = await service.get(game_id)
    held = live.holder(SignedIn(user.id))
    # No await between the snapshot and the subscription: no event falls between.
    full = {"type": "gameFull", **game_json(service, live, held)}
    connection = HubConnection(_NoSocket(), live.id, held)
    service.hub.add(live, connection)

    async def body() -> AsyncIterator[bytes]:
        try:
            yield (dumps(full) + "\n").encode()
            if live.status != "active":
                return
            async for line in lines(connection.queue, streams, last=_game_over):
                yield line
        finally:
            service.hub.remove(live, connection)

    return _stream(body())


@router.post(
    "/bot/game/{game_id}/move/{move}", tags=["bots"], responses=refusals(401, 403, 404, 409)
)
async def bot_move(
    game_id: GameId,
    move: Annotated[str, Path(max_length=64)],
    caller: BotCaller,
    service: Service,
    state: Annotated[int | None, Query(ge=0, le=2**31)] = None,
    body: Annotated[MoveState | None, Body()] = None,
) -> dict[str, Any]:
    """Plays ``move`` for the bot's seat; the state number it was made in comes as
    ``?state=N`` or in the body ``{"state": N}``."""
    user = await bot_of(caller)
    seen = state if state is not None else (None if body is None else body.state)
    return await _play(service, game_id, user, move, seen)


@router.post("/bot/game/{game_id}/move", tags=["bots"], responses=refusals(401, 403, 404, 409))
async def bot_move_body(
    game_id: GameId, body: BotMove, caller: BotCaller, service: Service
) -> dict[str, Any]:
    """Plays a move given in the body ``{"move": "r5c5", "state": N}``."""
    return await _play(service, game_id, await bot_of(caller), body.move, body.state)


async def _play(
    service: GameService, game_id: str, user: User, move: str, seen: int | None
) -> dict[str, Any]:
    return move_answer(await service.play(game_id, SignedIn(user.id), move, seen))


@router.post("/bot/game/{game_id}/resign", tags=["bots"], responses=refusals(401, 403, 404, 409))
async def bot_resign(
    game_id: GameId,
    caller: BotCaller,
    service: Service,
    body: Annotated[MoveState | None, Body()] = None,
) -> dict[str, Any]:
    """Resigns the bot's seat: the opponent wins."""
    user = await bot_of(caller)
    live = await service.resign(game_id, SignedIn(user.id), None if body is None else body.state)
    return {"state": live.version, "result": live.result}


@router.post(
    "/bot/challenge/{challenge_id}/{answer}", tags=["bots"], responses=refusals(401, 403, 404)
)
async def bot_answer(
    challenge_id: ChallengeId,
    answer: Literal["accept", "decline"],
    caller: BotCaller,
    challenges: OpenChallenges,
    body: Annotated[Decline | None, Body()] = None,
) -> dict[str, Any]:
    """Accepts (the game starts: ``gameStart`` on both event streams) or declines a
    challenge made to the bot."""
    return await _answer(challenges, await bot_of(caller), challenge_id, answer, body)


async def _answer(
    challenges: Challenges, user: User, challenge_id: str, answer: str, body: Decline | None
) -> dict[str, Any]:
    if answer == "accept":
        challenge, _live = await challenges.accept(user, challenge_id)
        return {**challenge.public(), **challenge.hand_token(user)}
    elif answer == "decline":
        challenge = await challenges.decline(user, challenge_id, body and body.reason)
    else:
        challenge = await challenges.cancel(user, challenge_id)
    return challenge.public()


# -- challenges, for bots and people ----------------------------------------------------


@router.post(
    "/challenge/{name}",
    status_code=201,
    tags=["challenges"],
    responses=refusals(401, 403, 404, 409),
)
async def challenge(
    name: Annotated[str, Path(min_length=1, max_length=20)],
    body: NewChallenge,
    caller: BotCaller,
    challenges: OpenChallenges,
) -> dict[str, Any]:
    """Challenges the account ``name`` (a bot's API token, or a signed-in person's
    cookie with the CSRF header). Answers the open challenge; its id names it."""
    user = await anyone(caller, write=True)
    made: Challenge = await challenges.create(
        user,
        name,
        body.game,
        body.options,
        time_control=None if body.time_control is None else body.time_control.model_dump(),
        rated=body.rated,
        seat=body.challenger_seat,
    )
    return made.public()


@router.post(
    "/challenge/{challenge_id}/{answer}",
    tags=["challenges"],
    responses=refusals(401, 403, 404, 409),
)
async def answer_challenge(
    challenge_id: ChallengeId,
    answer: Literal["accept", "decline", "cancel"],
    caller: BotCaller,
    challenges: OpenChallenges,
    body: Annotated[Decline | None, Body()] = None,
) -> dict[str, Any]:
    """Accepts or declines a challenge made to you, or cancels one you made."""
    return await _answer(challenges, await anyone(caller, write=True), challenge_id, answer, body)


@router.get("/challenges", tags=["challenges"], responses=refusals(401))
async def my_challenges(caller: BotCaller, challenges: OpenChallenges) -> dict[str, Any]:
    """Your open challenges, made and received (a page polls this for its answers)."""
    user = await anyone(caller, write=False)
    return {"challenges": [c.public() for c in challenges.of(user)]}


@router.get("/challenges/{challenge_id}", tags=["challenges"], responses=refusals(401, 404))
async def one_challenge(
    challenge_id: ChallengeId, caller: BotCaller, challenges: OpenChallenges
) -> dict[str, Any]:
    """One of your challenges, open or answered (``game_id`` once accepted). A person
    is also handed their seat's token, once (``seat_token``, ``seat``), for browsers
    that keep seats by token."""
    user = await anyone(caller, write=False)
    found = challenges.get(challenge_id)
    if user.id not in (found.challenger.id, found.dest.id):
        raise ApiError(404, "no_challenge", f"no open challenge {challenge_id!r}")
    return {**found.public(), **found.hand_token(user)}


@router.get("/bots", tags=["bots"], responses=refusals())
async def list_bots(
    limit: Annotated[int, Query(ge=1, le=200)] = 100, *, service: Service, streams: Streams
) -> dict[str, Any]:
    """Bot accounts, the ones online (event stream open) first: whom to challenge."""

    def read(c: Connection) -> list[User]:
        rows = c.execute(
            select(users_table.c.id, users_table.c.name, users_table.c.created_at).where(
                users_table.c.bot.is_(True)
            )
        ).all()
        return [User(r.id, r.name, r.created_at, True) for r in rows]

    bots = await service.store.read(read)
    shown = [{**account_json(u), "online": streams.online(u.id)} for u in bots]
    shown.sort(key=lambda b: (not b["online"], b["name"].lower()))
    return {"bots": shown[:limit]}


def _game_over(text: str) -> bool:
    return text.startswith('{"type":"game_over"')


class _NoSocket:
    """The hub's connections have a socket; a stream reads their queue instead."""

    async def send_text(self, data: str) -> None:
        return None

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None
