"""Messages of a cluster's shared parts (presence, bots' events, lobby, tournaments).

Apart from the games' news and requests (:mod:`~sansu.server.cluster.fanout`), so
that each shared part only names its own **topics** and **kinds** of
request:

- a topic (``sansu:shared:TOPIC``) is heard by every node; a node's own
  messages come back to it and are skipped (it acts on them at once);
- a request (``sansu:shared:node:ID``) goes to one node and gets one reply.

Messages leave in the order they were published (one sender task), so what
one node says about one thing arrives everywhere in that order. Pub/sub
keeps nothing: a message published while Redis is away is lost, so every
part that uses the bus also repeats its state, or reads it again, now and
then (see each part). The reader reconnects by itself.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from sansu.server.base import ApiError, Background
from sansu.server.cluster.pubsub import listen

log = logging.getLogger("sansu.server")

PREFIX = "sansu:shared:"
MAX_WAITING = 10_000
"""Messages waiting to be published before new ones are dropped (Redis away)."""

Listener = Callable[[dict[str, Any]], None]
Answerer = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


def topic_channel(topic: str) -> str:
    return f"{PREFIX}{topic}"


def node_channel(node: str) -> str:
    return f"{PREFIX}node:{node}"


class Unanswered(Exception):
    """The asked node did not answer: nobody listens on its channel (``delivered`` false:
    asking again is safe), or no answer came in time (the request may have been done)."""

    def __init__(self, node: str, *, delivered: bool) -> None:
        super().__init__(node)
        self.delivered = delivered


class Bus:
    """One node's topics and requests over Redis pub/sub."""

    def __init__(self, redis: Redis, node: str) -> None:
        self.redis = redis
        self.node = node
        self._listeners: dict[str, Listener] = {}
        self._answerers: dict[str, Answerer] = {}
        self._on_connect: list[Callable[[], None]] = []
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self.background = Background()
        self.connected = asyncio.Event()

    # -- wiring -----------------------------------------------------------------------

    def listen(self, topic: str, listener: Listener) -> None:
        """Calls ``listener(data)`` for every message other nodes publish on ``topic``."""
        self._listeners[topic] = listener

    def answer(self, kind: str, answerer: Answerer) -> None:
        """Answers the requests of ``kind`` other nodes send this node."""
        self._answerers[kind] = answerer

    def on_connect(self, callback: Callable[[], None]) -> None:
        """Calls ``callback`` after each (re)connection (to repeat what may have been lost)."""
        self._on_connect.append(callback)

    async def start(self) -> None:
        self.background.spawn(self._read())
        self.background.spawn(self._send())

    async def stop(self) -> None:
        await self.background.stop()

    # -- out --------------------------------------------------------------------------

    def publish(self, topic: str, data: dict[str, Any]) -> None:
        """Tells every other node ``data`` on ``topic`` (in order; lost if Redis is away)."""
        if self._out.qsize() >= MAX_WAITING:
            log.warning("cluster bus: too many messages waiting; one on %s dropped", topic)
            return
        self._out.put_nowait((topic_channel(topic), json.dumps({**data, "node": self.node})))

    async def _send(self) -> None:
        while True:
            channel, message = await self._out.get()
            try:
                await self.redis.publish(channel, message)
            except (RedisError, OSError) as error:
                log.warning("cannot publish to %s: %s", channel, error)

    async def ask(
        self, node: str, kind: str, data: dict[str, Any], timeout: float = 5.0
    ) -> dict[str, Any]:
        """Sends a request of ``kind`` to ``node`` and returns its reply; :class:`Unanswered`
        when it does not answer within ``timeout`` seconds."""
        rid = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        try:
            body = json.dumps({"kind": kind, "data": data, "rid": rid, "from": self.node})
            try:
                listeners = await self.redis.publish(node_channel(node), body)
            except (RedisError, OSError) as error:
                log.warning("cannot reach node %s: %s", node, error)
                raise ApiError(503, "cluster_unavailable", "the cluster is unavailable") from None
            if not listeners:
                raise Unanswered(node, delivered=False)
            try:
                return await asyncio.wait_for(future, timeout)
            except TimeoutError:
                raise Unanswered(node, delivered=True) from None
        finally:
            self._waiting.pop(rid, None)

    # -- in ---------------------------------------------------------------------------

    async def _read(self) -> None:
        await listen(
            self.redis,
            [*(topic_channel(t) for t in self._listeners), node_channel(self.node)],
            connected=self.connected,
            on_connect=self._connected,
            receive=self._receive,
            what="cluster bus",
        )

    def _connected(self) -> None:
        for callback in self._on_connect:
            callback()

    def _receive(self, message: dict[str, Any]) -> None:
        try:
            data = json.loads(message["data"])
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else str(channel)
        except (ValueError, TypeError, KeyError):
            log.warning("an unreadable cluster message was ignored")
            return
        if not isinstance(data, dict):
            return
        if channel == node_channel(self.node):
            if "reply" in data:
                future = self._waiting.get(str(data["reply"]))
                if future is not None and not future.done():
                    future.set_result(data.get("data") or {})
            else:
                self.background.spawn(self._answer(data))
            return
        if data.get("node") == self.node:
            return
        listener = self._listeners.get(channel.removeprefix(PREFIX))
        if listener is None:
            return
        try:
            listener(data)
        except Exception:
            log.exception("a cluster message on %s failed", channel)

    async def _answer(self, request: dict[str, Any]) -> None:
        answerer = self._answerers.get(str(request.get("kind")))
        try:
            if answerer is None:
                raise ApiError(400, "bad_request", "unknown cluster request")
            reply = await answerer(request.get("data") or {})
        except ApiError as error:
            reply = {"error": {"status": error.status, **error.to_dict()["error"]}}
        except Exception:
            log.exception("a cluster request failed")
            reply = {"error": {"status": 500, "code": "internal", "message": "the server failed"}}
        body = json.dumps({"reply": request.get("rid"), "data": reply})
        try:
            await self.redis.publish(node_channel(str(request.get("from"))), body)
        except (RedisError, OSError) as error:
            log.warning("cannot answer node %s: %s", request.get("from"), error)
