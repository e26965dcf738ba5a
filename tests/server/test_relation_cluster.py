"""Who is online, in one process without Redis: every node of a cluster counts the
accounts online through any node, as one server would count its own; an account's event
stream counts as a socket; the window's option."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansu.cli.main import main
from sansu.server.accounts import Online
from sansu.server.app.assemble import assemble
from sansu.server.cluster.presence import FORGET_AFTER, SharedPresence
from sansu.server.lobby.streams import EventStreams
from sansu.server.play.hub import Connection, Hub
from tests.server.test_cluster_parts import GAME, Bus, Rounds, Socket

sockets = st.lists(st.tuples(st.integers(0, 2), st.integers(1, 4)), max_size=10)
"""Sockets of signed-in accounts: on which node, of which account."""


def cluster(clock: list[float]) -> list[Hub]:
    bus = Bus()
    hubs = [Hub(online=Online(clock=lambda: clock[0])) for _ in range(3)]
    for i, hub in enumerate(hubs):
        SharedPresence(bus.of(f"n{i}"), hub, Rounds(GAME), clock=lambda: clock[0]).install()  # type: ignore[arg-type]
    return hubs


@settings(max_examples=60, deadline=None)
@given(sockets, st.data(), st.lists(st.tuples(st.integers(0, 2), st.integers(1, 4)), max_size=4))
def test_every_node_counts_who_is_online_on_any_node(
    opened: list[tuple[int, int]], data: st.DataObject, requests: list[tuple[int, int]]
) -> None:
    clock = [100.0]
    hubs = cluster(clock)
    one = Hub(online=Online(clock=lambda: clock[0]))
    live: list[tuple[int, Connection, Connection]] = []
    for node, user in opened:
        here = Connection(Socket(), GAME.id, frozenset(), user)
        alone = Connection(Socket(), GAME.id, frozenset(), user)
        hubs[node].add(GAME, here)  # type: ignore[arg-type]
        one.add(GAME, alone)  # type: ignore[arg-type]
        live.append((node, here, alone))
    for node, user in requests:
        hubs[node].online.seen(user)
        one.online.seen(user)
    if requests:  # a request is told to the others with the next report
        for hub in hubs:
            hub.online.elsewhere._report_all()  # type: ignore[union-attr]
    clock[0] += data.draw(st.sampled_from([0.0, 61.0]))
    for node, here, alone in (
        data.draw(st.lists(st.sampled_from(live), unique_by=id)) if live else ()
    ):
        hubs[node].remove(GAME, here)  # type: ignore[arg-type]
        one.remove(GAME, alone)  # type: ignore[arg-type]
    for hub in hubs:
        hub.online.elsewhere._report_all()  # type: ignore[union-attr]
    for hub in hubs:
        assert hub.online.everyone() == one.online.here()


def test_a_silent_nodes_accounts_are_forgotten() -> None:
    clock = [0.0]
    hubs = cluster(clock)
    hubs[0].add(GAME, Connection(Socket(), GAME.id, frozenset(), 7))  # type: ignore[arg-type]
    assert all(hub.online.is_online(7) for hub in hubs)
    shared = hubs[1].online.elsewhere
    assert isinstance(shared, SharedPresence)
    clock[0] = FORGET_AFTER + 1  # node n0 stops reporting (it died); n2 still speaks
    hubs[2].online.elsewhere._report_all()  # type: ignore[union-attr]
    shared.forget_silent()
    assert not hubs[1].online.is_online(7)
    assert set(shared.heard_at) == {"n2"}


def test_an_account_with_an_event_stream_open_is_online() -> None:
    """A bot listening on its event stream counts as online, as a player's page does."""
    clock = [0.0]
    online = Online(clock=lambda: clock[0], window=60.0)
    streams = EventStreams(online)

    async def opening() -> list[dict[str, Any]]:
        return [{"type": "hello"}]

    async def scenario() -> None:
        stream = streams.stream(7, opening)
        await anext(stream)
        clock[0] += 600
        assert online.is_online(7)
        await stream.aclose()
        assert online.is_online(7)  # for the window after it closed
        clock[0] += 61
        assert not online.is_online(7)

    asyncio.run(scenario())


@pytest.mark.parametrize("value", ["-1", "nan", "1e9"])
def test_serve_refuses_a_bad_online_window(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--online-window", value]) == 2
    assert "--online-window" in capsys.readouterr().err


def test_the_online_window_reaches_the_tracker(tmp_path: Path) -> None:
    server = assemble(str(tmp_path / "a.db"), online_window=5.0)
    assert server.online.window == 5.0
    assert server.hub.online is server.online
