"""Messages between the nodes of a cluster, over Redis pub/sub.

Two kinds travel:

- **news** of a game (``sansu:games``): "game G now has events up to number
  N", published by the judge after each commit. It carries no event: a node
  reads the events from the database, where they are numbered and committed,
  so a message lost (Redis restarting) or repeated can neither skip nor
  repeat an event for a client — the next news, or the resync after a
  reconnection, brings everything after the last number delivered.
- **requests** to a judging node (``sansu:node:ID``) and their replies: a
  move, a resignation or a join made on a node that does not judge the game.

The reader reconnects by itself; after each (re)connection it calls
``on_connect`` so the node catches up on what it may have missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from sansu.server.background import Background
from sansu.server.errors import ApiError

log = logging.getLogger("sansu.server")

NEWS = "sansu:games"
REQUEST_TIMEOUT = 3.0
"""Seconds to wait for a judging node's reply before asking again who judges."""
RECONNECT_EVERY = 0.5


def node_channel(node: str) -> str:
    return f"sansu:node:{node}"


NewsHandler = Callable[[str, int, str], None]
RequestHandler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class Fanout:
    """This node's side of the cluster's messages: news out and in, requests and replies."""

    def __init__(
        self,
        redis: Redis,
        node: str,
        on_news: NewsHandler,
        on_request: RequestHandler,
        on_connect: Callable[[], None],
    ) -> None:
        self.redis = redis
        self.node = node
        self.on_news = on_news
        self.on_request = on_request
        self.on_connect = on_connect
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.background = Background()
        self.connected = asyncio.Event()

    # -- out -------------------------------------------------------------------------

    def announce(self, game_id: str, seq: int) -> None:
        """Tells every node that ``game_id`` has committed events up to ``seq``."""
        message = json.dumps({"g": game_id, "seq": seq, "node": self.node})
        self.background.spawn(self._publish(NEWS, message))

    async def _publish(self, channel: str, message: str) -> None:
        try:
            await self.redis.publish(channel, message)
        except RedisError as error:  # the others catch up from the store on reconnection
            log.warning("cannot publish to %s: %s", channel, error)

    async def ask(self, node: str, request: dict[str, Any]) -> dict[str, Any]:
        """Sends ``request`` to ``node`` and waits for its reply; ``TimeoutError`` if none."""
        rid = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        try:
            body = json.dumps({**request, "rid": rid, "from": self.node})
            try:
                listeners = await self.redis.publish(node_channel(node), body)
            except RedisError as error:
                log.warning("cannot reach node %s: %s", node, error)
                raise ApiError(503, "cluster_unavailable", "the cluster is unavailable") from None
            if not listeners:
                raise TimeoutError
            return await asyncio.wait_for(future, REQUEST_TIMEOUT)
        finally:
            self._waiting.pop(rid, None)

    # -- in --------------------------------------------------------------------------

    async def run(self) -> None:
        """Reads news, requests and replies until cancelled, reconnecting as needed."""
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(NEWS, node_channel(self.node))
                self.connected.set()
                self.on_connect()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._receive(message)
            except (RedisError, OSError) as error:
                self.connected.clear()
                log.warning("cluster messages interrupted (%s); reconnecting", error)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
            await asyncio.sleep(RECONNECT_EVERY)

    def _receive(self, message: dict[str, Any]) -> None:
        try:
            data = json.loads(message["data"])
        except (ValueError, TypeError):
            log.warning("an unreadable cluster message was ignored")
            return
        channel = message["channel"]
        channel = channel.decode() if isinstance(channel, bytes) else channel
        if channel == NEWS:
            if data.get("node") != self.node:
                self.on_news(str(data["g"]), int(data["seq"]), str(data.get("node")))
        elif "reply" in data:
            future = self._waiting.get(data["reply"])
            if future is not None and not future.done():
                future.set_result(data)
        else:
            self.background.spawn(self._answer(data))

    async def _answer(self, request: dict[str, Any]) -> None:
        try:
            reply = await self.on_request(request)
        except ApiError as error:
            reply = {"error": {"status": error.status, **error.to_dict()["error"]}}
        except Exception:
            log.exception("a forwarded request failed")
            reply = {"error": {"status": 500, "code": "internal", "message": "the server failed"}}
        reply["reply"] = request["rid"]
        await self._publish(node_channel(str(request["from"])), json.dumps(reply))

    async def stop(self) -> None:
        await self.background.stop()
