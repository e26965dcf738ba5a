"""Presence across a cluster: who is connected to each game, on every node.

Each node reports on the ``presence`` topic what its own sockets hold for a
game (the seats of its players' connections, how many spectators) when that
changes, and every :data:`HEARTBEAT` seconds all its reports at once (which
also replaces any report of it that was lost). Every node keeps the others'
latest reports and shows its clients the union of the seats and the sum of
the spectators, exactly as one server counts its own sockets; a node whose
reports stop (it died) is forgotten after :data:`FORGET_AFTER` seconds.

The same reports carry the accounts online through each node (``users``: sockets
open, recent requests; :class:`~sansu.server.accounts.Online`), sent at once when
an account's sockets open or close and with every heartbeat, so that each node
counts who is online on the whole cluster.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from sansu.server.cluster.bus import Bus
from sansu.server.play import Hub, Rounds

log = logging.getLogger("sansu.server")

TOPIC = "presence"
HEARTBEAT = 1.5
"""Seconds between two reports of everything a node holds."""
FORGET_AFTER = 5.0
"""Seconds after which a silent node's reports no longer count (it is gone)."""

Part = tuple[frozenset[int], int]
"""The seats held by one node's sockets to a game, and its spectators."""


class SharedPresence:
    """This node's reports and the other nodes' reports, for :class:`Hub`."""

    def __init__(
        self, bus: Bus, hub: Hub, rounds: Rounds, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.bus = bus
        self.hub = hub
        self.rounds = rounds
        self.clock = clock
        self.mine: dict[str, Part] = {}
        self.theirs: dict[str, dict[str, Part]] = {}
        """By node, by game: its latest reports."""
        self.heard_at: dict[str, float] = {}
        """By node: when it last reported."""
        self.users: dict[str, frozenset[int]] = {}
        """By node: the accounts online through it, as it last reported."""

    def install(self) -> None:
        self.hub.elsewhere = self
        self.hub.online.elsewhere = self
        self.hub.online.on_change = self._report_users
        self.bus.listen(TOPIC, self._heard)
        self.bus.on_connect(self._report_all)

    # -- what the hub asks -----------------------------------------------------------

    def seen(self, game_id: str) -> tuple[set[int], int]:
        seats: set[int] = set()
        spectators = 0
        for games in self.theirs.values():
            part = games.get(game_id)
            if part is not None:
                seats |= part[0]
                spectators += part[1]
        return seats, spectators

    def players_seen(self) -> set[str]:
        return {g for games in self.theirs.values() for g, part in games.items() if part[0]}

    def users_seen(self) -> set[int]:
        """The accounts online through the other nodes."""
        return set().union(*self.users.values())

    def changed(self, game_id: str, seats: set[int], spectators: int) -> None:
        part = (frozenset(seats), spectators)
        if self.mine.get(game_id, (frozenset(), 0)) == part:
            return
        if part[0] or part[1]:
            self.mine[game_id] = part
        else:
            self.mine.pop(game_id, None)
        self.bus.publish(TOPIC, {"g": game_id, "p": _encode(part)})

    # -- the others' reports ---------------------------------------------------------

    def _heard(self, data: dict[str, Any]) -> None:
        node = str(data["node"])
        self.heard_at[node] = self.clock()
        if "users" in data:
            self.users[node] = frozenset(int(u) for u in data["users"])
        games = self.theirs.setdefault(node, {})
        if "all" in data:
            reported = {str(g): _decode(p) for g, p in dict(data["all"]).items()}
            touched = set(games) | set(reported)
            games.clear()
            games.update(reported)
        elif "g" in data:
            game_id = str(data["g"])
            part = _decode(data["p"])
            if part[0] or part[1]:
                games[game_id] = part
            else:
                games.pop(game_id, None)
            touched = {game_id}
        else:
            touched = set()
        self._show(touched)

    def _show(self, game_ids: set[str]) -> None:
        for game_id in game_ids:
            live = self.rounds.games.get(game_id)
            if live is not None and self.hub.connections.get(game_id):
                self.hub.send_presence(live)

    def _report_all(self) -> None:
        mine = {g: _encode(p) for g, p in self.mine.items()}
        self.bus.publish(TOPIC, {"all": mine, "users": sorted(self.hub.online.here())})

    def _report_users(self) -> None:
        self.bus.publish(TOPIC, {"users": sorted(self.hub.online.here())})

    async def run(self) -> None:
        """Reports everything now and then, and forgets the nodes that went silent."""
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                self._report_all()
                self.forget_silent()
            except Exception:
                log.exception("presence keeper failed")

    def forget_silent(self) -> None:
        """Forgets the reports of the nodes silent for :data:`FORGET_AFTER` seconds."""
        now = self.clock()
        for node, at in list(self.heard_at.items()):
            if now - at > FORGET_AFTER:
                log.info("presence: node %s is silent; its sockets no longer count", node)
                del self.heard_at[node]
                self.users.pop(node, None)
                self._show(set(self.theirs.pop(node, {})))


def _encode(part: Part) -> list[Any]:
    return [sorted(part[0]), part[1]]


def _decode(data: Any) -> Part:
    seats, spectators = data
    return frozenset(int(s) for s in seats), int(spectators)
