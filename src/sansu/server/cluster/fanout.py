"""Messages between the nodes of a cluster, over Redis pub/sub.

Two kinds travel:

- **news** of a game, published by its judge after each commit on the game's
  own channel (``sansu:game:ID``): the change's events with their numbers and
  what the other nodes need to apply it to their copy
  (:mod:`~sansu.server.cluster.news`). A node listens to the channels of the
  copies it keeps (:meth:`Fanout.follow`), and to no other: a node whose
  clients are all on games it judges reads no news at all. The events are
  committed and numbered in the database first, so a news lost (Redis
  restarting) or repeated can neither skip nor repeat an event for a client:
  a node that sees a gap in the numbers reads the store. A judge whose last news
  of a game reached no node sends none of its next ones (usually nobody follows:
  the judge is where the game's players are); once a second it asks Redis whether
  a node listens now (:meth:`Fanout.probe`), and if one does, sends news again. The
  listener reads what it missed from the store, as it does for a news lost.
- **requests** to a judging node (``sansu:node:ID``) and their replies: a
  move, a resignation or a join made on a node that does not judge the game.

A node publishes its news and replies in order, from one queue, in batches
(one round trip for all that waits): a game's news arrive in the order of its
commits, and a reply after the news of the change it answers.

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

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from sansu.server.base import ApiError, Background
from sansu.server.cluster.pubsub import listen

log = logging.getLogger("sansu.server")

NEWS = "sansu:game"
"""News channels: ``sansu:game:ID``, one a game, so a game's news stay in order."""
REQUEST_TIMEOUT = 3.0
"""Seconds to wait for a judging node's reply before asking again who judges."""
BATCH = 256
"""Most messages published in one round trip."""
CONFIRM_TIMEOUT = 2.0
"""Seconds to wait for Redis to confirm a subscription to a game's news."""


def encode(message: dict[str, Any]) -> bytes:
    """A message as JSON, by orjson (several times faster: a judge writes one a move);
    what orjson refuses (a lone surrogate, an integer past 64 bits) is written by the
    standard library, escaped to ASCII so that Redis takes it."""
    try:
        return orjson.dumps(message)
    except TypeError:
        return json.dumps(message, separators=(",", ":")).encode()


def decode(raw: bytes | str) -> Any:
    """A message read back: by orjson, or by the standard library for what only it reads
    (an escaped lone surrogate)."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


def node_channel(node: str) -> str:
    return f"sansu:node:{node}"


def news_channel(game_id: str) -> str:
    """The channel of ``game_id``'s news."""
    return f"{NEWS}:{game_id}"


def game_of(channel: str) -> str | None:
    """The game whose news ``channel`` carries (``None``: not a news channel)."""
    return channel[len(NEWS) + 1 :] if channel.startswith(NEWS + ":") else None


NewsHandler = Callable[[dict[str, Any]], None]
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
        self._outbox: asyncio.Queue[tuple[str, str | bytes]] = asyncio.Queue()
        self.background = Background()
        self.connected = asyncio.Event()
        self.published = 0
        self.skipped = 0
        """News not sent: nobody listened to the game's last one."""
        self.quiet: set[str] = set()
        """The games whose last news reached no node: their news are not sent."""
        self.batches = 0
        self.received = 0
        """News received (of the games this node follows)."""
        self.following: set[str] = set()
        """The games whose news this node listens to."""
        self._pubsub: PubSub | None = None
        self._confirming: dict[str, asyncio.Future[None]] = {}

    # -- out -------------------------------------------------------------------------

    def unheard(self, game_id: str) -> bool:
        """True (and the news counted as skipped) when ``game_id``'s last news reached no
        node: its judge then neither builds nor sends the next one (:meth:`probe`)."""
        if game_id in self.quiet:
            self.skipped += 1
            return True
        return False

    def announce(self, news: dict[str, Any]) -> None:
        """Publishes the news of game ``news["g"]`` to the nodes that follow it (:mod:`.news`)."""
        self._outbox.put_nowait((news_channel(str(news["g"])), encode({**news, "node": self.node})))

    def heard(self, game_id: str) -> None:
        """A node asked about ``game_id``, so it follows it: news go out again at once."""
        self.quiet.discard(game_id)

    async def probe(self, judged: set[str]) -> None:
        """The quiet games still ``judged`` here that a node listens to now get news again
        (one round trip to Redis for them all). What the listener missed meanwhile it
        reads from the store, as for a news lost: once a second for a game a client of
        its watches, at once for one asked for."""
        self.quiet &= judged
        games = list(self.quiet)
        if not games:
            return
        counts = await self.redis.pubsub_numsub(*(news_channel(g) for g in games))
        for game_id, (_channel, listeners) in zip(games, counts, strict=True):
            if listeners:
                self.quiet.discard(game_id)

    async def _publisher(self) -> None:
        """Publishes the queued messages in order, all that wait in one round trip."""
        while True:
            batch = [await self._outbox.get()]
            while len(batch) < BATCH and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, message in batch:
                        pipe.publish(channel, message)
                    listeners = await pipe.execute()
                self.published += len(batch)
                for (channel, _), count in zip(batch, listeners, strict=True):
                    game_id = game_of(channel)
                    if game_id is not None and not count:
                        self.quiet.add(game_id)
                self.batches += 1
            except (RedisError, OSError) as error:  # the others fill the gap from the store
                log.warning("cannot publish %d cluster messages: %s", len(batch), error)

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

    async def follow(self, game_id: str) -> None:
        """Listens to ``game_id``'s news from now on: returns once Redis has the
        subscription, so a read of the store that follows misses no news (without Redis,
        at once: the subscription is made on reconnecting, and the node then catches up)."""
        if game_id in self.following:
            return
        self.following.add(game_id)
        pubsub = self._pubsub
        if pubsub is None:
            return
        channel = news_channel(game_id)
        confirmed = self._confirming.get(channel)
        if confirmed is None:
            confirmed = asyncio.get_running_loop().create_future()
            self._confirming[channel] = confirmed
        try:
            await pubsub.subscribe(channel)
            await asyncio.wait_for(asyncio.shield(confirmed), CONFIRM_TIMEOUT)
        except (RedisError, OSError, TimeoutError) as error:
            log.warning("game %s: its news may come late: %r", game_id, error)
        finally:
            if self._confirming.get(channel) is confirmed:
                del self._confirming[channel]

    def unfollow(self, game_id: str) -> None:
        """Stops listening to ``game_id``'s news (this node judges it, or forgot it)."""
        if game_id not in self.following:
            return
        self.following.discard(game_id)
        if self._pubsub is not None:
            self.background.spawn(self._unsubscribe(self._pubsub, news_channel(game_id)))

    @staticmethod
    async def _unsubscribe(pubsub: PubSub, channel: str) -> None:
        with contextlib.suppress(RedisError, OSError):  # a new subscription will not have it
            await pubsub.unsubscribe(channel)

    def _channels(self) -> list[str]:
        return [node_channel(self.node), *(news_channel(g) for g in sorted(self.following))]

    def _subscribed(self, pubsub: PubSub | None) -> None:
        self._pubsub = pubsub

    async def run(self) -> None:
        """Reads news, requests and replies until cancelled, reconnecting as needed (and
        publishes this node's own messages meanwhile)."""
        self.background.spawn(self._publisher())
        await listen(
            self.redis,
            self._channels,
            connected=self.connected,
            on_connect=self.on_connect,
            receive=self._receive,
            what="cluster messages",
            on_pubsub=self._subscribed,
        )

    def _receive(self, message: dict[str, Any]) -> None:
        channel = message["channel"]
        channel = channel.decode() if isinstance(channel, bytes) else channel
        if message["type"] != "message":
            confirmed = self._confirming.get(channel)
            if message["type"] == "subscribe" and confirmed is not None and not confirmed.done():
                confirmed.set_result(None)
            return
        try:
            data = decode(message["data"])
        except (ValueError, TypeError):
            log.warning("an unreadable cluster message was ignored")
            return
        if game_of(channel) is not None:
            self.received += 1
            if isinstance(data, dict) and data.get("node") != self.node:
                try:
                    self.on_news(data)
                except Exception:  # a news this node cannot read: the store has it
                    log.exception("a cluster news was ignored")
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
        self._outbox.put_nowait((node_channel(str(request["from"])), json.dumps(reply)))

    async def stop(self) -> None:
        await self.background.stop()
