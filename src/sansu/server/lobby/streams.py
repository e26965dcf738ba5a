"""Each account's stream of incoming events: challenges, game starts and ends.

An account may have several streams open (a bridge that reconnects before
the server noticed the old one is gone); every event goes to all of them.
Events are JSON objects with a ``type``; new types (a tournament's pairing)
can be added without touching the streams. A stream is ND-JSON: one object
per line, and an empty line as a keep-alive when nothing happened for a
while. At server shutdown every stream sends ``{"type": "serverShutdown"}``
and ends, so that clients reconnect instead of waiting on a dead socket.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from sansu.server.accounts import Online
from sansu.server.play import LiveGame, dumps

KEEPALIVE = 7.0
"""Seconds of silence after which a stream sends an empty line."""
TICK = 0.5
"""How often a quiet stream looks whether the server is stopping."""
MAX_QUEUE = 1000
"""Events a stream may have waiting before it is ended as too slow."""
SHUTDOWN = {"type": "serverShutdown"}


def finished_game(live: LiveGame) -> dict[str, Any]:
    """What a ``gameFinish`` event says of a game."""
    return {
        "id": live.id,
        "game": live.game.id,
        "status": live.status,
        "result": live.result,
        "termination": live.termination,
        "rated": not live.casual,
    }


class EventStreams:
    """The open event streams, by account; ends them all when the server stops."""

    def __init__(self, online: Online | None = None) -> None:
        self.queues: dict[int, set[asyncio.Queue[dict[str, Any] | None]]] = {}
        self.accounts_online = online
        """The accounts online: one with a stream open here counts (a bot listening)."""
        self.closing = False
        self._announced: OrderedDict[tuple[str, int], None] = OrderedDict()

    def online(self, user_id: int) -> bool:
        return bool(self.queues.get(user_id))

    def send(self, user_id: int, event: dict[str, Any]) -> None:
        for queue in list(self.queues.get(user_id, ())):
            if queue.qsize() >= MAX_QUEUE:
                queue.put_nowait(None)  # too slow: ended; the client reconnects
            else:
                queue.put_nowait(event)

    def close(self) -> None:
        """Ends every stream (the server is stopping) and refuses new ones."""
        self.closing = True
        for queues in self.queues.values():
            for queue in queues:
                queue.put_nowait(SHUTDOWN)

    def game_changed(self, live: LiveGame) -> None:
        """A ``Rounds.on_change`` listener: tells the seated accounts when a game ends
        (finished or aborted)."""
        if live.status not in ("finished", "aborted") or not live.events:
            return
        last = live.events[-1]
        if last.type != "game_over":
            return
        key = (live.id, last.seq)
        if key in self._announced:
            return
        self._announced[key] = None
        if len(self._announced) > 10_000:
            self._announced.popitem(last=False)
        for user_id in {s.user_id for s in live.seats if s.user_id is not None}:
            seats = [s.seat for s in live.seats if s.user_id == user_id]
            self.send(
                user_id, {"type": "gameFinish", "game": {**finished_game(live), "you": seats}}
            )

    async def stream(
        self, user_id: int, first: Callable[[], Awaitable[list[dict[str, Any]]]]
    ) -> AsyncIterator[bytes]:
        """The account's events as ND-JSON lines: what ``first()`` reads (the games
        being played, the open challenges), then every new event.

        The stream listens before ``first()`` reads, so that an event sent while it
        reads (a game starting just then) is not lost; one the reading already holds
        is not sent twice.
        """
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.queues.setdefault(user_id, set()).add(queue)
        if self.accounts_online is not None:
            self.accounts_online.opened(user_id)
        try:
            opening = await first()
            for event in opening:
                yield (dumps(event) + "\n").encode()
            sent = {key for key in map(_key, opening) if key is not None}

            def already_sent(event: dict[str, Any] | str) -> bool:
                key = _key(event)
                if key in sent:
                    sent.discard(key)
                    return True
                return False

            async for line in lines(queue, self, skip=already_sent):
                yield line
        finally:
            queues = self.queues.get(user_id)
            if queues is not None:
                queues.discard(queue)
                if not queues:
                    del self.queues[user_id]
            if self.accounts_online is not None:
                self.accounts_online.closed(user_id)


def _key(event: dict[str, Any] | str) -> tuple[str, str] | None:
    """What makes an event of the stream's opening the same as a queued one."""
    if not isinstance(event, dict):
        return None
    kind = event.get("type")
    if kind == "gameStart":
        return kind, event["game"]["id"]
    if kind == "challenge":
        return kind, event["challenge"]["id"]
    return None


async def lines(
    queue: asyncio.Queue[Any],
    streams: EventStreams,
    *,
    last: Callable[[str], bool] | None = None,
    skip: Callable[[dict[str, Any] | str], bool] | None = None,
) -> AsyncIterator[bytes]:
    """ND-JSON lines of what comes on ``queue`` (dicts or JSON text), but those for
    which ``skip`` is true, with keep-alives, until ``None`` comes, the server
    stops, or a line for which ``last`` is true was sent."""
    quiet = 0.0
    while True:
        if streams.closing and queue.empty():
            yield (dumps(SHUTDOWN) + "\n").encode()
            return
        try:
            item = await asyncio.wait_for(queue.get(), TICK)
        except TimeoutError:
            quiet += TICK
            if quiet >= KEEPALIVE:
                quiet = 0.0
                yield b"\n"
            continue
        quiet = 0.0
        if item is None:
            return
        if skip is not None and skip(item):
            continue
        text = item if isinstance(item, str) else dumps(item)
        yield (text + "\n").encode()
        if item is SHUTDOWN:
            return
        if last is not None and last(text):
            return
