"""Who is online: an account with a socket or stream open to the site, or that made a
request lately.

The sockets (a game's, an account's event stream) count while they are open; a
request counts for :data:`WINDOW` seconds. On a node of a cluster the other nodes'
accounts come in through :attr:`Online.elsewhere` (:mod:`sansu.server.cluster.presence`),
so that every node gives the cluster's answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

WINDOW = 60.0
"""Seconds an account counts as online after its latest request."""


class Elsewhere(Protocol):
    """The accounts the other nodes of a cluster hold online."""

    def users_seen(self) -> set[int]: ...


class Online:
    """This node's online accounts, and (on a cluster) the other nodes'."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, window: float = WINDOW) -> None:
        self.clock = clock
        self.window = window
        self.sockets: dict[int, int] = {}
        """Open sockets and streams, by account."""
        self.requests: dict[int, float] = {}
        """When each account last made a request (pruned as they age)."""
        self.elsewhere: Elsewhere | None = None
        self.on_change: Callable[[], None] | None = None
        """Called when an account comes online or leaves through its sockets (a cluster's
        node tells the others at once)."""

    def opened(self, user_id: int) -> None:
        """One more socket of ``user_id`` is open; each is :meth:`closed` once."""
        held = self.sockets.get(user_id, 0)
        self.sockets[user_id] = held + 1
        if not held:
            self._changed()

    def closed(self, user_id: int) -> None:
        held = self.sockets.get(user_id, 0) - 1
        if held > 0:
            self.sockets[user_id] = held
            return
        self.sockets.pop(user_id, None)
        # The account stays online for the window, as after a request: a page reloaded
        # or a socket that reconnects does not flicker offline.
        self.requests[user_id] = self.clock()
        self._changed()

    def seen(self, user_id: int) -> None:
        """``user_id`` made a request now."""
        self.requests[user_id] = self.clock()

    def here(self) -> set[int]:
        """The accounts online through this node."""
        cutoff = self.clock() - self.window
        for user_id, at in list(self.requests.items()):
            if at < cutoff:
                del self.requests[user_id]
        return set(self.sockets) | set(self.requests)

    def everyone(self) -> set[int]:
        """The accounts online anywhere (every node of a cluster)."""
        found = self.here()
        if self.elsewhere is not None:
            found |= self.elsewhere.users_seen()
        return found

    def is_online(self, user_id: int) -> bool:
        return user_id in self.everyone()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()
