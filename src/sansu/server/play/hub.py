"""Live updates: the WebSocket connections of each game, what each one is sent, and presence.

Each connection has its own outgoing queue and sender task, so a slow
client never delays the others; one that falls too far behind is closed
and catches up when it reconnects. Events that change the position carry
the position as the recipient may see it (``state.view(seat)``, or
``view(None)`` for a spectator), so a client needs no engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from sansu.server.accounts import Online
from sansu.server.base import ApiError
from sansu.server.play.live import Event, LiveGame, dumps

log = logging.getLogger("sansu.server")

MAX_SOCKETS_PER_CLIENT = 200
"""Sockets one client address may hold open at once on this server (a household or a
school may share one address; one person's tabs come nowhere near)."""
MAX_QUEUE = 1000
"""Messages a connection may have waiting before it is dropped as too slow."""


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Connection:
    """One client's WebSocket on one game: the seats its token holds, its queue, and the
    account signed in on it (``None``: anonymous), which is online while it is open."""

    def __init__(
        self, socket: Socket, game_id: str, seats: frozenset[int], user_id: int | None = None
    ) -> None:
        self.socket = socket
        self.game_id = game_id
        self.seats = seats
        self.user_id = user_id
        """The account the socket is signed in as, if any."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.farewell = (1013, "too slow")
        """The close code and reason the sender gives once the queue ends."""

    def viewer(self, to_move: int | None) -> int | None:
        """The seat whose view this connection is sent (``None``: a spectator's)."""
        if not self.seats:
            return None
        if to_move in self.seats:
            return to_move
        return min(self.seats)

    def send(self, message: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= MAX_QUEUE:
            log.warning("dropping a client of game %s that fell behind", self.game_id)
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)

    async def run_sender(self) -> None:
        """Sends queued messages until the connection closes."""
        while True:
            message = await self.queue.get()
            if message is None:
                code, reason = self.farewell
                with contextlib.suppress(Exception):
                    await self.socket.close(code=code, reason=reason)
                return
            try:
                await self.socket.send_text(message)
            except Exception:
                # Gone, or a message that cannot be sent: close rather than stay
                # counted as present while answering nothing.
                self.closed = True
                with contextlib.suppress(Exception):
                    await self.socket.close(code=1011, reason="cannot send")
                return


class Elsewhere(Protocol):
    """The presence the other nodes of a cluster report, and this node's own to report."""

    def seen(self, game_id: str) -> tuple[set[int], int]: ...

    def players_seen(self) -> set[str]: ...

    def changed(self, game_id: str, seats: set[int], spectators: int) -> None: ...


class Hub:
    """Every open connection, by game."""

    def __init__(
        self, clock: Callable[[], float] = time.time, online: Online | None = None
    ) -> None:
        self.connections: dict[str, set[Connection]] = {}
        self.online = online if online is not None else Online()
        """The accounts online: those with a connection here count while it is open."""
        self._presence: dict[str, str] = {}
        self._clock = clock
        self._players_left: dict[str, float] = {}
        """When the last socket of a seat's holder left each game (for abandoned games)."""
        self._seat_left: dict[str, dict[int, float]] = {}
        self.elsewhere: Elsewhere | None = None
        """On a node of a cluster: who is connected to each game on the other nodes
        (:mod:`~sansu.server.cluster.presence`)."""
        self.per_client: dict[str, int] = {}
        """Open sockets by client address (see :meth:`admit`)."""
        self.max_per_client: int | None = MAX_SOCKETS_PER_CLIENT
        """The cap (``None``: none); the server's is its ``RateLimits.sockets``."""

    def admit(self, client: str) -> None:
        """Counts one more open socket of ``client``; refuses it past the cap
        (``429 too_many_sockets``), so that one address cannot hold every socket. Each
        admitted socket is :meth:`release` d once, when it ends."""
        held = self.per_client.get(client, 0)
        if self.max_per_client is not None and held >= self.max_per_client:
            raise ApiError(
                429,
                "too_many_sockets",
                f"at most {self.max_per_client} open sockets from one address: close some first",
                limit=self.max_per_client,
            )
        self.per_client[client] = held + 1

    def release(self, client: str) -> None:
        held = self.per_client.get(client, 0) - 1
        if held > 0:
            self.per_client[client] = held
        else:
            self.per_client.pop(client, None)

    def count(self) -> int:
        return sum(len(c) for c in self.connections.values())

    def add(self, live: LiveGame, connection: Connection) -> None:
        self.connections.setdefault(live.id, set()).add(connection)
        if connection.user_id is not None:
            self.online.opened(connection.user_id)
        self._changed(live)

    def remove(self, live: LiveGame, connection: Connection) -> None:
        connection.closed = True
        connection.queue.put_nowait(None)
        conns = self.connections.get(live.id)
        if conns is not None and connection in conns:
            conns.discard(connection)
            if connection.user_id is not None:
                self.online.closed(connection.user_id)
            if not conns:
                del self.connections[live.id]
        if connection.seats and not any(c.seats for c in conns or ()):
            self._players_left[live.id] = self._clock()
        still = set().union(*(c.seats for c in conns or ()))
        for seat in connection.seats - still:
            self._seat_left.setdefault(live.id, {})[seat] = self._clock()
        self._changed(live)

    def close_account(self, user_id: int) -> int:
        """Closes every socket signed in as the account (a moderator closed it), with code
        4403; how many."""
        closing = [
            c
            for conns in self.connections.values()
            for c in conns
            if c.user_id == user_id and not c.closed
        ]
        for connection in closing:
            connection.farewell = (4403, "account closed")
            connection.closed = True
            connection.queue.put_nowait(None)
        return len(closing)

    def seat_left(self, game_id: str, seat: int) -> float | None:
        """When the last socket of ``seat``'s holder on this process closed (``None``: not
        since the game came into memory); for claims against a player who left."""
        return self._seat_left.get(game_id, {}).get(seat)

    def players_seen_since(self, since: float) -> set[str]:
        """Ids of the games a seat's holder is connected to now, or left at ``since`` or later."""
        for game_id, left in list(self._players_left.items()):
            if left < since:
                del self._players_left[game_id]
        seen = set(self._players_left)
        for game_id, conns in self.connections.items():
            if any(c.seats for c in conns):
                seen.add(game_id)
        if self.elsewhere is not None:
            seen |= self.elsewhere.players_seen()
        return seen

    def here(self, game_id: str) -> tuple[set[int], int]:
        """The seats held by this process's connections to a game, and its spectators."""
        seats: set[int] = set()
        spectators = 0
        for c in self.connections.get(game_id, ()):
            if c.seats:
                seats |= c.seats
            else:
                spectators += 1
        return seats, spectators

    def presence(self, live: LiveGame) -> dict[str, Any]:
        """Which seats have someone here, or on any node of a cluster (computers always
        do), and how many watch."""
        here, spectators = self.here(live.id)
        if self.elsewhere is not None:
            there, watching = self.elsewhere.seen(live.id)
            here = here | there
            spectators += watching
        seats = [s.kind == "computer" or s.seat in here for s in live.seats]
        return {"type": "presence", "seats": seats, "spectators": spectators}

    def _changed(self, live: LiveGame) -> None:
        if self.elsewhere is not None:
            self.elsewhere.changed(live.id, *self.here(live.id))
        self.send_presence(live)

    def send_presence(self, live: LiveGame) -> None:
        message = dumps(self.presence(live))
        if self._presence.get(live.id) == message:
            return
        self._presence[live.id] = message
        for c in self.connections.get(live.id, ()):
            c.send(message)

    def forget(self, game_id: str) -> None:
        self._presence.pop(game_id, None)
        self._seat_left.pop(game_id, None)

    def publish(self, live: LiveGame, events: Iterable[Event]) -> None:
        """Sends ``events`` (already committed) to every connection of the game."""
        conns = self.connections.get(live.id)
        if not conns:
            return
        for event in events:
            base = dumps(event.to_json())
            if not event.position:
                for c in conns:
                    c.send(base)
                continue
            extras: dict[int | None, str] = {}
            to_move = live.state.to_move
            for c in conns:
                viewer = c.viewer(to_move)
                message = extras.get(viewer)
                if message is None:
                    message = (
                        base[:-1]
                        + ',"view":'
                        + live.view_json(viewer)
                        + ","
                        + (live.status_json()[1:])
                    )
                    extras[viewer] = message
                c.send(message)
