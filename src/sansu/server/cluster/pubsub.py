"""Listening on Redis pub/sub channels for as long as a node runs.

Pub/sub keeps nothing for a subscriber that is away, so both users of it (the
games' news in :mod:`sansu.server.cluster.fanout` and the shared parts' bus in
:mod:`sansu.server.cluster.bus`) need the same loop: subscribe, say so (the
caller then catches up on what it may have missed), read until Redis fails,
and subscribe again after a short pause.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RECONNECT_EVERY = 0.5


async def listen(
    redis: Redis,
    channels: Iterable[str] | Callable[[], Iterable[str]],
    *,
    connected: asyncio.Event,
    on_connect: Callable[[], None],
    receive: Callable[[dict[str, Any]], None],
    what: str,
    on_pubsub: Callable[[PubSub | None], None] | None = None,
) -> None:
    """Hands every message on ``channels`` to ``receive`` until cancelled.

    ``connected`` is set while subscribed; ``on_connect`` runs after each
    (re)subscription; ``what`` names the stream in the warning a failure logs.
    ``channels`` may be a function, asked at each (re)subscription; then
    ``on_pubsub`` is given the subscription while it lasts (``None`` after), to
    subscribe to more channels and leave them meanwhile, and ``receive`` gets the
    confirmations of those too (``type`` ``subscribe`` or ``unsubscribe``).
    """
    while True:
        pubsub = redis.pubsub(ignore_subscribe_messages=on_pubsub is None)
        try:
            await pubsub.subscribe(*(channels() if callable(channels) else channels))
            if on_pubsub is not None:
                on_pubsub(pubsub)
            connected.set()
            on_connect()
            while True:
                message = await pubsub.get_message(timeout=1.0)
                if message is not None:
                    receive(message)
        except (RedisError, OSError) as error:
            connected.clear()
            log.warning("%s interrupted (%s); reconnecting", what, error)
        finally:
            if on_pubsub is not None:
                on_pubsub(None)
            with contextlib.suppress(Exception):
                await pubsub.aclose()
        await asyncio.sleep(RECONNECT_EVERY)
