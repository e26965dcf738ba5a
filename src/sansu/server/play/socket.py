"""The WebSocket of a game: who is connecting, and the answer to each message.

The seat's token never travels in the URL (servers and proxies log URLs):
a browser offers it as a subprotocol, ``Sec-WebSocket-Protocol: sansu,
token.TOKEN``, and the server accepts ``sansu``; other programs may send
``Authorization: Bearer TOKEN``. The old ``?token=TOKEN`` still works, and
the server's own log never shows it (:mod:`sansu.server.base.logs`). A browser
where a player is signed in also acts for the seats bound to their account,
by its session cookie, but only from this site's own pages (the ``Origin``
header is checked; :mod:`sansu.server.accounts.identity`).

Every message gets an answer (``ack``, ``error`` or ``pong``) and the socket
stays usable, whatever it held: binary frames, text that is not JSON, JSON
nested too deep, numbers too long, text that cannot be sent back (a lone
surrogate) are each refused with an ``error``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from sansu.server.accounts import SignedIn, Who, socket_account
from sansu.server.base import ApiError, Limiter, client_of, part
from sansu.server.play.hub import Connection
from sansu.server.play.live import LiveGame, dumps, is_text
from sansu.server.play.privacy import check_watch
from sansu.server.play.service import GameService
from sansu.server.play.views import game_json

MAX_WS_MESSAGE = 16 * 1024
"""Longest WebSocket message accepted from a client, in characters."""
PROTOCOL = "sansu"
TOKEN_PROTOCOL = "token."
"""Prefix of the subprotocol that carries a seat's token."""
MAX_ID = 2**53
"""Largest request ``id`` echoed back (what every JSON reader holds exactly)."""

CheckLimit = Callable[[WebSocket], Awaitable[None]]

log = logging.getLogger("sansu.server")


def socket_token(websocket: WebSocket) -> str | None:
    """The seat's token: from a ``token.`` subprotocol, a bearer header, or (old) the URL."""
    for offered in websocket.scope.get("subprotocols") or ():
        if offered.startswith(TOKEN_PROTOCOL) and len(offered) > len(TOKEN_PROTOCOL):
            return offered[len(TOKEN_PROTOCOL) :]
    scheme, _, value = (websocket.headers.get("authorization") or "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return websocket.query_params.get("token") or None


router = APIRouter(prefix="/api")


@router.websocket("/games/{game_id}/ws")
async def socket(
    websocket: WebSocket,
    game_id: str,
    service: Annotated[GameService, part("service")],
    limiter: Annotated[Limiter, part("limiter")],
    since: int | None = None,
) -> None:
    """A game's socket: its hello, its events, and an answer to each message."""

    async def check_limit(websocket: WebSocket) -> None:
        await limiter.hit(client_of(websocket.scope))

    offered = websocket.scope.get("subprotocols") or ()
    await websocket.accept(subprotocol=PROTOCOL if PROTOCOL in offered else None)
    client = client_of(websocket.scope)
    try:
        service.hub.admit(client)
    except ApiError as error:
        service.metrics.refused(error.code)
        await refuse(websocket, error)
        return
    try:
        await _serve(websocket, game_id, service, check_limit, since)
    finally:
        service.hub.release(client)


async def refuse(websocket: WebSocket, error: ApiError) -> None:
    """Sends ``error`` and closes the socket with code 4000 + its HTTP status."""
    await websocket.send_text(dumps({"type": "error", **error.to_dict()["error"]}))
    await websocket.close(code=4000 + error.status)


async def _serve(
    websocket: WebSocket,
    game_id: str,
    service: GameService,
    check_limit: CheckLimit,
    since: int | None,
) -> None:
    """An admitted socket, from its hello to its end."""
    token = socket_token(websocket)
    try:
        await check_limit(websocket)
        user = await socket_account(service.store, websocket)
        who: Who = token if user is None else SignedIn(user.id, token)
        live = await service.get(game_id)
        held = live.holder(who) if token else live.seats_of(who)
        check_watch(live, held)
    except ApiError as error:
        await refuse(websocket, error)
        return
    connection = Connection(websocket, live.id, held, None if user is None else user.id)
    missed = (
        [e.to_json() for e in await service.event_log.events_since(live, since)]
        if since is not None
        else []
    )
    hello = await service.rated.decorate(live, game_json(service, live, held))
    while hello["seq"] != live.seq:  # changed while the ratings were read: say it all
        hello = await service.rated.decorate(live, game_json(service, live, held))
    hello.pop("presence", None)
    hello.update(type="hello", missed=missed)
    connection.send(dumps(hello))
    service.hub.add(live, connection)
    sender = service.background.spawn(connection.run_sender())
    try:
        await receive(service, live, connection, websocket, who, check_limit)
    finally:
        service.hub.remove(live, connection)
        await sender


def parse(message: dict[str, Any]) -> dict[str, Any]:
    """The JSON object a socket message holds; refuses anything else with an ``ApiError``."""
    data = message.get("bytes")
    if data is not None:
        raise ApiError(400, "bad_message", "binary messages are not accepted: send JSON text")
    text = message.get("text")
    if not isinstance(text, str):
        raise ApiError(400, "bad_message", "a message is JSON text")
    if len(text) > MAX_WS_MESSAGE:
        raise ApiError(413, "too_large", f"a message is at most {MAX_WS_MESSAGE} characters")
    try:
        parsed = json.loads(text)
    except RecursionError:
        raise ApiError(400, "bad_message", "the JSON is nested too deep") from None
    except ValueError as error:  # not JSON, or a number too long to read
        raise ApiError(400, "malformed_json", f"not JSON: {error}") from None
    if not isinstance(parsed, dict):
        raise ApiError(400, "bad_message", "a message is a JSON object with a type")
    if ("\\u" in text or not text.isascii()) and not is_text(parsed):
        raise ApiError(400, "bad_message", "the message holds a lone surrogate (not Unicode text)")
    return parsed


def request_id(message: dict[str, Any]) -> int | str | None:
    """The ``id`` to echo: a whole number or a short text, else none."""
    value = message.get("id")
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and -MAX_ID <= value <= MAX_ID:
        return value
    if isinstance(value, str) and len(value) <= 64:
        return value
    return None


async def receive(
    service: GameService,
    live: LiveGame,
    connection: Connection,
    websocket: WebSocket,
    who: Who,
    check_limit: CheckLimit | None = None,
) -> None:
    """Answers a client's messages until it leaves: move, resign, abort, claim, takeback,
    rematch, ping."""
    while not connection.closed:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        answer_id: Any = None
        received = time.perf_counter()
        try:
            if check_limit is not None:
                await check_limit(websocket)
            request = parse(message)
            answer_id = request_id(request)
            if await handle(service, live, connection, who, request, answer_id):
                service.metrics.acknowledged(request.get("type"), time.perf_counter() - received)
        except ApiError as error:
            connection.send(dumps({"type": "error", "id": answer_id, **error.to_dict()["error"]}))
        except Exception:  # a fault of the server's: logged, answered, and the socket stays
            log.exception("game %s: a socket message failed", live.id)
            failed = ApiError(500, "internal", "the server failed; nothing was changed")
            connection.send(dumps({"type": "error", "id": answer_id, **failed.to_dict()["error"]}))


async def handle(
    service: GameService,
    live: LiveGame,
    connection: Connection,
    who: Who,
    request: dict[str, Any],
    answer_id: int | str | None,
) -> bool:
    """Does what one message asks; true when it changed the game (and was acknowledged)."""
    kind = request.get("type")
    state = request.get("state")
    if state is not None and (isinstance(state, bool) or not isinstance(state, int)):
        raise ApiError(422, "bad_message", "state is a whole number")
    if kind == "ping":
        connection.send(dumps({"type": "pong", "id": answer_id}))
        return False
    if kind == "move":
        move = request.get("move")
        if not isinstance(move, str):
            raise ApiError(422, "bad_message", "a move message has the move's text in move")
        await service.play(live.id, who, move, state)
    elif kind == "resign":
        await service.resign(live.id, who, state)
    elif kind == "abort":
        await service.abort(live.id, who, state)
    elif kind == "claim":
        await service.claim(live.id, who, state)
    elif kind == "takeback":
        await service.take_back(live.id, who, state)
    elif kind == "rematch":
        await service.offer_rematch(live.id, who)
    elif kind == "decline_rematch":
        await service.decline_rematch(live.id, who)
    else:
        shown = kind if isinstance(kind, str | int | None) and len(str(kind)) <= 32 else "…"
        raise ApiError(
            400,
            "bad_message",
            f"unknown message type {shown!r} (move, resign, abort, claim, takeback, rematch,"
            " decline_rematch, ping)",
        )
    connection.send(dumps({"type": "ack", "id": answer_id, "state": live.version, "seq": live.seq}))
    return True
