"""The lobby across a cluster: seeks, quick pairing and challenges kept by one node.

The lobby is a moment's meeting place (docs/server.md: it lives in memory,
a restart drops it), and pairing two players or accepting a seek must
happen once. So one node at a time **holds the lobby**: the holder of the
lease ``sansu:lease:lobby`` (:mod:`~sansu.server.cluster.leases`, renewed like a
game's). Its seeks, pairing desk and challenges are the cluster's; every
other node forwards the lobby's requests (:func:`forwarded`) to it over the
bus, whole (method, path, headers, body, the client's address), and answers
its client with the holder's answer. The holder runs them through the same
routes as its own clients' requests, so the answers, errors and limits are
those of one server. A node that finds the lease free takes it (so a single
node, or the first request, needs no election); when the holder dies, the
next request after its lease expired moves the lobby to another node,
empty: its seeks, waits and open challenges are gone, as after a restart.
"""

from __future__ import annotations

import asyncio
import base64
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from redis.exceptions import RedisError

from sansu.server.accounts import User
from sansu.server.base import ApiError, send_error
from sansu.server.cluster.bus import Bus, Unanswered
from sansu.server.cluster.leases import Leases
from sansu.server.lobby import Challenges, PairingDesk, Seeks

log = logging.getLogger("sansu.server")

LOBBY = "lobby"
"""The lobby's lease id: the key ``sansu:lease:lobby``."""
EXACT = ("/api/lobby/seeks", "/api/lobby/pairing", "/api/challenges")
UNDER = ("/api/lobby/seeks/", "/api/challenge/", "/api/challenges/", "/api/bot/challenge/")
FORWARD_TIMEOUT = 10.0
"""Seconds a forwarded request may take on the holder (accepting creates a game)."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]


def forwarded(path: str) -> bool:
    """Whether a request to ``path`` is the lobby's (served by the node holding it)."""
    return path in EXACT or path.startswith(UNDER)


class SharedLobby:
    """Which node holds the lobby, and the forwarding of its requests to it."""

    def __init__(
        self,
        bus: Bus,
        leases: Leases,
        seeks: Seeks,
        desk: PairingDesk,
        challenges: Challenges,
        renew_every: float,
    ) -> None:
        self.bus = bus
        self.leases = leases
        self.seeks = seeks
        self.desk = desk
        self.challenges = challenges
        self.renew_every = renew_every
        self.holding = False
        self.app: Any = None
        """The whole app (``scope["app"]`` of a forwarded request)."""
        self.inner: ASGIApp | None = None
        """What runs a request here: the app inside :class:`LobbyForward`."""
        self.served = 0
        self.sent = 0

    def install(self, app: Any) -> None:
        self.app = app
        self.bus.answer("http", self._serve)
        self.bus.answer("challenges", self._open_challenges)
        local = self.challenges.open_events

        async def open_events(user: User) -> list[dict[str, Any]]:
            try:
                if not await self.here():
                    return list((await self._ask("challenges", {"u": user.id}))["events"])
            except _HereNow:
                pass
            return await local(user)

        self.challenges.open_events = open_events  # type: ignore[method-assign]

    # -- holding the lobby -----------------------------------------------------------

    async def here(self) -> bool:
        """True when this node holds the lobby (taking it if nobody does)."""
        try:
            got = await self.leases.claim(LOBBY)
        except RedisError as error:
            log.warning("lobby: no lease: %s", error)
            raise ApiError(503, "cluster_unavailable", "the cluster is unavailable") from None
        if got and not self.holding:
            self._empty()  # whatever this node held before is stale now
            log.info("lobby: held by node %s", self.leases.node)
        self.holding = bool(got)
        return self.holding

    def _empty(self) -> None:
        self.seeks.seeks.clear()
        self.desk.entries.clear()
        self.challenges.by_id.clear()

    async def run(self) -> None:
        """Renews the lease while holding the lobby."""
        while True:
            await asyncio.sleep(self.renew_every)
            if not self.holding:
                continue
            try:
                if await self.leases.renew([LOBBY]):
                    log.warning("lobby: its lease went to another node")
                    self.holding = False
            except (RedisError, OSError) as error:
                log.warning("lobby: cannot renew the lease: %s", error)

    async def stop(self) -> None:
        if self.holding:
            self.holding = False
            await self.leases.release(LOBBY)

    # -- forwarding --------------------------------------------------------------------

    async def _ask(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """Asks the lobby's holder; waits out a dead holder's lease, then takes the lobby."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.leases.lease_ms / 1000 + FORWARD_TIMEOUT
        while True:
            try:
                holder = await self.leases.holder(LOBBY)
            except RedisError:
                raise ApiError(503, "cluster_unavailable", "the cluster is unavailable") from None
            if holder is None or holder == self.leases.node:
                if await self.here():
                    raise _HereNow
            else:
                try:
                    reply = await self.bus.ask(holder, kind, data, FORWARD_TIMEOUT)
                except Unanswered as silence:
                    if silence.delivered:  # it may have been done: never done twice
                        raise ApiError(
                            503, "lobby_unavailable", "the lobby's node did not answer in time"
                        ) from None
                    reply = None
                if reply is not None:
                    error = reply.get("error")
                    if error is None:
                        return reply
                    if error.get("code") != "lobby_moved":
                        raise ApiError(
                            int(error.get("status", 500)), str(error["code"]), str(error["message"])
                        )
            if loop.time() > give_up:
                raise ApiError(503, "lobby_unavailable", "the lobby's node does not answer")
            await asyncio.sleep(0.2)

    async def forward(self, scope: Scope, receive: Any, send: Any) -> None:
        """Serves an HTTP request of the lobby: here if this node holds it, else on its holder."""
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        request = {
            "method": scope["method"],
            "path": scope["path"],
            "query": scope.get("query_string", b"").decode("latin-1"),
            "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
            "client": list(scope["client"]) if scope.get("client") else None,
            "body": base64.b64encode(bytes(body)).decode(),
        }
        try:
            if await self.here():
                await self._here(scope, bytes(body), send)
                return
            self.sent += 1
            reply = await self._ask("http", request)
        except _HereNow:
            await self._here(scope, bytes(body), send)
            return
        except ApiError as error:
            await send_error(send, error)
            return
        await send(
            {
                "type": "http.response.start",
                "status": int(reply["status"]),
                "headers": [
                    (k.encode("latin-1"), v.encode("latin-1")) for k, v in reply["headers"]
                ],
            }
        )
        await send({"type": "http.response.body", "body": base64.b64decode(reply["body"])})

    async def _here(self, scope: Scope, body: bytes, send: Any) -> None:
        """Serves a request of this node's own client here (its body read already)."""
        assert self.inner is not None, "the lobby's middleware is not installed"
        given = False

        async def receive() -> Message:
            nonlocal given
            if given:
                await asyncio.Event().wait()  # nothing more comes; the route answers first
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.inner(scope, receive, send)

    async def _serve(self, request: dict[str, Any]) -> dict[str, Any]:
        if not await self.here():
            raise ApiError(503, "lobby_moved", "another node holds the lobby now")
        self.served += 1
        return await self._run(request)

    async def _run(self, request: dict[str, Any]) -> dict[str, Any]:
        """Runs a (forwarded) request through this node's routes; its answer, whole."""
        path = str(request["path"])
        client = request.get("client")
        scope: Scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": str(request["method"]),
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": str(request.get("query", "")).encode("latin-1"),
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in request["headers"]],
            "client": (str(client[0]), int(client[1])) if client else None,
            "server": None,
            "app": self.app,
            "state": {},
        }
        answer: dict[str, Any] = {"status": 500, "headers": [], "body": b""}

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["headers"] = [
                    [k.decode("latin-1"), v.decode("latin-1")]
                    for k, v in message.get("headers", [])
                ]
            elif message["type"] == "http.response.body":
                answer["body"] += message.get("body", b"")

        try:
            await self._here(scope, base64.b64decode(request["body"]), send)
        except Exception:
            log.exception("lobby: a request failed")
            answer = {"status": 0, "headers": [], "body": b""}
            await send_error(
                send, ApiError(500, "internal", "the server failed; nothing was changed")
            )
        return {**answer, "body": base64.b64encode(answer["body"]).decode()}

    async def _open_challenges(self, data: dict[str, Any]) -> dict[str, Any]:
        if not await self.here():
            raise ApiError(503, "lobby_moved", "another node holds the lobby now")
        return {"events": self.challenges.open_events_of(int(data["u"]))}


class _HereNow(Exception):
    """The lobby's lease was free and this node took it: serve the request here."""


class LobbyForward:
    """ASGI middleware: sends the lobby's requests to the node holding the lobby."""

    def __init__(self, app: ASGIApp, lobby: SharedLobby) -> None:
        self.app = app
        self.lobby = lobby
        lobby.inner = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and forwarded(scope.get("path", "")):
            await self.lobby.forward(scope, receive, send)
            return
        await self.app(scope, receive, send)
