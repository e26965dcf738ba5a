"""The shared parts of a cluster in one process, without Redis: presence merged from
several nodes' reports, and the fence that keeps two directors from pairing twice."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from sansu.server.cluster.presence import FORGET_AFTER, SharedPresence
from sansu.server.play.hub import Connection, Hub
from sansu.server.tournaments.tables import pairings, tournaments
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import make_client
from tests.server.test_tournaments_api import act, create, people


class Bus:
    """Every node's bus in one: a message published by one node reaches the others."""

    def __init__(self) -> None:
        self.nodes: dict[str, tuple[Any, Any]] = {}

    def of(self, node: str) -> NodeBus:
        return NodeBus(self, node)


@dataclass
class NodeBus:
    everyone: Bus
    node: str

    def listen(self, topic: str, listener: Any) -> None:
        self.everyone.nodes[self.node] = (topic, listener)

    def on_connect(self, callback: Any) -> None:
        pass

    def publish(self, topic: str, data: dict[str, Any]) -> None:
        for node, (their_topic, listener) in self.everyone.nodes.items():
            if node != self.node and their_topic == topic:
                listener({**data, "node": self.node})


@dataclass
class Seat:
    seat: int
    kind: str = "human"


@dataclass
class Game:
    id: str
    seats: list[Seat]


class Socket:
    async def send_text(self, data: str) -> None:
        pass

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        pass


class Rounds:
    def __init__(self, game: Game) -> None:
        self.games = {game.id: game}


GAME = Game("g1", [Seat(0), Seat(1), Seat(2, "computer")])
clients = st.lists(
    st.tuples(st.integers(0, 2), st.frozensets(st.integers(0, 1), max_size=2)), max_size=8
)
"""Sockets on one game: on which node, holding which seats (none: a spectator)."""


@settings(max_examples=60, deadline=None)
@given(clients, st.data())
def test_every_node_shows_the_presence_one_server_would(
    sockets: list[tuple[int, frozenset[int]]], data: st.DataObject
) -> None:
    bus = Bus()
    hubs = [Hub() for _ in range(3)]
    for i, hub in enumerate(hubs):
        SharedPresence(bus.of(f"n{i}"), hub, Rounds(GAME)).install()  # type: ignore[arg-type]
    one = Hub()
    open_: list[tuple[int, Connection, Connection]] = []
    for node, seats in sockets:
        here, alone = Connection(Socket(), GAME.id, seats), Connection(Socket(), GAME.id, seats)
        hubs[node].add(GAME, here)  # type: ignore[arg-type]
        one.add(GAME, alone)  # type: ignore[arg-type]
        open_.append((node, here, alone))
    for node, here, alone in (
        data.draw(st.lists(st.sampled_from(open_), unique_by=id)) if open_ else ()
    ):
        hubs[node].remove(GAME, here)  # type: ignore[arg-type]
        one.remove(GAME, alone)  # type: ignore[arg-type]
    expected = one.presence(GAME)  # type: ignore[arg-type]
    for hub in hubs:
        assert hub.presence(GAME) == expected  # type: ignore[arg-type]
        assert hub.players_seen_since(time.time() + 1) == one.players_seen_since(time.time() + 1)


def test_a_silent_node_no_longer_counts() -> None:
    now = [0.0]
    bus = Bus()
    hubs = [Hub(), Hub()]
    shares = [
        SharedPresence(bus.of(f"n{i}"), hub, Rounds(GAME), clock=lambda: now[0])  # type: ignore[arg-type]
        for i, hub in enumerate(hubs)
    ]
    for share in shares:
        share.install()
    hubs[0].add(GAME, Connection(Socket(), GAME.id, frozenset({1})))  # type: ignore[arg-type]
    assert hubs[1].presence(GAME)["seats"] == [False, True, True]  # type: ignore[arg-type]
    now[0] = FORGET_AFTER + 1  # node n0 stops reporting (it died)

    async def one_round() -> None:
        task = asyncio.create_task(shares[1].run())
        await asyncio.sleep(1.6)
        task.cancel()

    asyncio.run(one_round())
    assert hubs[1].presence(GAME)["seats"] == [False, False, True]  # type: ignore[arg-type]


def test_two_directors_pairing_at_once_pair_each_player_once(
    tmp_path: Any, fast_hashing: None
) -> None:
    """Two nodes that both believe they direct an arena advance it at the same moment
    (no common lock): the fence lets one pairing through, the other reads again."""
    with make_client(str(tmp_path / "t.db")) as client:
        ps = people(client, "Alice", "Bob", "Carol", "Dave")
        tid = create(ps["Alice"], format="arena", minutes=10)["id"]
        for b in ps.values():
            act(b, tid, "join")
        service = client.app.state.service  # type: ignore[attr-defined]
        director = client.app.state.tournaments.director
        now = time.time()
        service.store.write_now(
            lambda c: c.execute(
                sa.update(tournaments)
                .where(tournaments.c.id == tid)
                .values(status="running", started_at=now, ends_at=now + 600)
            )
        )

        async def both() -> None:
            await asyncio.gather(director.advance(tid), director.advance(tid))

        client.portal.call(both)  # type: ignore[union-attr]
        rows = service.store.read_now(
            lambda c: c.execute(
                sa.select(pairings.c.players).where(pairings.c.tournament_id == tid)
            ).all()
        )
        seated = sorted(p for row in rows for p in row.players)
        assert len(rows) == 2 and seated == sorted(set(seated)) and len(seated) == 4
