"""What the nodes of a cluster share besides the games: presence, accounts' event
streams, the lobby (seeks, quick pairing, challenges), tournaments' direction and
rate limits.

Each part is a module of its own, wired here onto one node
(:class:`~sansu.server.cluster.node.Cluster`: its Redis connection, node id and
leases) and one message bus (:mod:`~sansu.server.cluster.bus`). Rate limits
need no messages: their counts live in Redis
(:func:`~sansu.server.base.ratelimit.shared_storage`, :func:`login_storage`).
"""

from __future__ import annotations

from typing import Any

from limits.storage import Storage, storage_from_string

from sansu.server.base import shared_storage
from sansu.server.bots import pairing_announcer
from sansu.server.cluster.bots import SharedStreams
from sansu.server.cluster.bus import Bus
from sansu.server.cluster.lobby import LobbyForward, SharedLobby
from sansu.server.cluster.node import Cluster
from sansu.server.cluster.presence import SharedPresence
from sansu.server.cluster.tournaments import SharedDirection
from sansu.server.lobby import LIMIT, Challenges, EventStreams, PairingDesk, Seeks
from sansu.server.play import GameService
from sansu.server.tournaments import Tournaments


def login_storage(redis_url: str) -> Storage:
    """The log-in limiter's (synchronous) storage in the cluster's Redis."""
    storage = storage_from_string(
        redis_url, wrap_exceptions=True, socket_timeout=2.0, socket_connect_timeout=2.0
    )
    assert isinstance(storage, Storage)
    return storage


class NodeHeader:
    """ASGI middleware: names the node that answered (``X-Sansu-Node``), to follow what a
    load balancer did."""

    def __init__(self, app: Any, node: str) -> None:
        self.app = app
        self.node = node.encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"x-sansu-node", self.node)]
            await send(message)

        await self.app(scope, receive, sending)


class SharedParts:
    """The shared parts of one node, started and stopped with it."""

    def __init__(
        self,
        cluster: Cluster,
        service: GameService,
        tournaments: Tournaments,
        streams: EventStreams,
        challenges: Challenges,
        seeks: Seeks,
        desk: PairingDesk,
        redis_url: str,
    ) -> None:
        self.node = cluster.node
        self.bus = Bus(cluster.redis, cluster.node)
        self.presence = SharedPresence(self.bus, service.hub, service.rounds)
        self.streams = SharedStreams(self.bus, streams)
        self.lobby = SharedLobby(
            self.bus, cluster.leases, seeks, desk, challenges, cluster.renew_every
        )
        self.direction = SharedDirection(
            self.bus,
            cluster.leases,
            tournaments.director,
            service.store,
            cluster.renew_every,
            pairing_announcer(service, streams, with_pairing=False),
        )
        challenges.set_limit(LIMIT, shared_storage(redis_url))

    def install(self, app: Any) -> None:
        """Hooks every part into the node, and the lobby's forwarding into ``app``."""
        self.presence.install()
        self.streams.install()
        self.lobby.install(app)
        self.direction.install()
        app.add_middleware(LobbyForward, lobby=self.lobby)
        app.add_middleware(NodeHeader, node=self.node)

    async def start(self) -> None:
        await self.bus.start()
        for task in (self.presence.run(), self.streams.run(), self.lobby.run()):
            self.bus.background.spawn(task)
        self.bus.background.spawn(self.direction.run())

    async def stop(self) -> None:
        await self.bus.stop()
        await self.lobby.stop()
        await self.direction.stop()
