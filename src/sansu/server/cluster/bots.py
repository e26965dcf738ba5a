"""Accounts' event streams across a cluster: an event reaches every stream of the account,
on whatever node it is open.

:meth:`EventStreams.send` on any node (a challenge made on the lobby's
node, a game started by a tournament's director, a game's end on its judge)
delivers to the node's own streams at once and publishes the event on the
``accounts`` topic; every other node delivers it to its own streams of that
account. Which accounts have a stream open (``online`` in ``GET /api/bots``)
is reported by each node when it changes and every :data:`HEARTBEAT`
seconds, and forgotten when a node goes silent.

A stream opened on a node that does not hold the lobby gets the account's
open challenges from the node that holds them (:mod:`~sansu.server.cluster.lobby`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from sansu.server.cluster.bus import Bus
from sansu.server.lobby import EventStreams

log = logging.getLogger("sansu.server")

EVENTS = "accounts"
ONLINE = "online"
HEARTBEAT = 1.5
"""Seconds between two reports of the accounts with a stream open on a node."""
LOOK_EVERY = 0.25
"""Seconds between two looks at this node's open streams (to report a change)."""
FORGET_AFTER = 5.0


class SharedStreams:
    """Hooks a node's :class:`EventStreams` to the other nodes'."""

    def __init__(
        self, bus: Bus, streams: EventStreams, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.bus = bus
        self.streams = streams
        self.clock = clock
        self._deliver = streams.send
        self._online_here = streams.online
        self.online_there: dict[str, set[int]] = {}
        self.heard_at: dict[str, float] = {}
        self._reported: frozenset[int] = frozenset()

    def install(self) -> None:
        self.streams.send = self.send  # type: ignore[method-assign]
        self.streams.online = self.online  # type: ignore[method-assign]
        self.bus.listen(EVENTS, self._heard)
        self.bus.listen(ONLINE, self._heard_online)
        self.bus.on_connect(self._report)

    def send(self, user_id: int, event: dict[str, Any]) -> None:
        self._deliver(user_id, event)
        self.bus.publish(EVENTS, {"u": user_id, "e": event})

    def online(self, user_id: int) -> bool:
        return self._online_here(user_id) or any(
            user_id in users for users in self.online_there.values()
        )

    def _heard(self, data: dict[str, Any]) -> None:
        event = data.get("e")
        if isinstance(event, dict):
            self._deliver(int(data["u"]), event)

    def _heard_online(self, data: dict[str, Any]) -> None:
        node = str(data["node"])
        self.heard_at[node] = self.clock()
        self.online_there[node] = {int(u) for u in data["users"]}

    def _report(self) -> None:
        self._reported = frozenset(self.streams.queues)
        self.bus.publish(ONLINE, {"users": sorted(self._reported)})

    async def run(self) -> None:
        """Reports this node's open streams when they change and now and then; forgets
        the nodes gone silent."""
        last = self.clock()
        while True:
            await asyncio.sleep(LOOK_EVERY)
            try:
                now = self.clock()
                if frozenset(self.streams.queues) != self._reported or now - last >= HEARTBEAT:
                    last = now
                    self._report()
                for node, at in list(self.heard_at.items()):
                    if now - at > FORGET_AFTER:
                        del self.heard_at[node]
                        self.online_there.pop(node, None)
            except Exception:
                log.exception("event streams keeper failed")
