"""Presence across a cluster, on loopback: one PostgreSQL, one Redis and three
``sansu serve --redis`` nodes (started as in ``test_cluster.py``): presence made on one
node is shown to the clients of every node, as on one server."""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.server.test_cluster import Node, Redis
from tests.server.test_crash import auth

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")

def until(
    check: Callable[[], Any],
    seconds: float = 8.0,
    what: str = "",
    explain: Callable[[], str] = str,
) -> Any:
    """``check()``'s first true answer, asked every 0.1 s for up to ``seconds``."""
    end = time.monotonic() + seconds
    while True:
        answer = check()
        if answer:
            return answer
        assert time.monotonic() < end, f"not within {seconds} s: {what} {explain()}"
        time.sleep(0.1)


def alive(nodes: list[Node]) -> list[Node]:
    return [n for n in nodes if not n.dead]


# -- presence ---------------------------------------------------------------------------


def presence_of(ws: ClientConnection, expected: dict[str, Any], seconds: float = 8.0) -> None:
    """Reads ``ws`` until its latest presence is ``expected``."""
    end = time.monotonic() + seconds
    last = None
    while time.monotonic() < end:
        try:
            message = json.loads(ws.recv(timeout=0.2))
        except TimeoutError:
            continue
        if message["type"] == "presence":
            last = {k: message[k] for k in ("seats", "spectators")}
            if last == expected:
                return
    raise AssertionError(f"presence {last} instead of {expected}")


def check_presence(nodes: list[Node]) -> None:
    r = httpx.post(f"{nodes[0].url}/api/games", json={"game": "uttt"})
    assert r.status_code == 201, r.text
    gid, first = r.json()["id"], r.json()["token"]
    r = httpx.post(f"{nodes[1].url}/api/games/{gid}/join", json={"seat": 1})
    assert r.status_code == 200, r.text
    second = r.json()["token"]

    def ws(node: Node, token: str | None) -> ClientConnection:
        headers = auth(token) if token else None
        url = f"ws://127.0.0.1:{node.port}/api/games/{gid}/ws"
        return connect(url, additional_headers=headers, open_timeout=5)

    with contextlib.ExitStack() as stack:
        seat0, seat1, spectator = (
            stack.enter_context(ws(n, t))
            for n, t in ((nodes[0], first), (nodes[1], second), (nodes[2], None))
        )
        everyone = {"seats": [True, True], "spectators": 1}
        for client in (seat0, seat1, spectator):
            presence_of(client, everyone)
        seat1.close()  # the second player leaves node 1
        without = {"seats": [True, False], "spectators": 1}
        presence_of(seat0, without)
        presence_of(spectator, without)
        # a node with no socket on the game answers the same presence over HTTP
        shown = httpx.get(f"{nodes[1].url}/api/games/{gid}").json()["presence"]
        assert {k: shown[k] for k in ("seats", "spectators")} == without


# -- the test ---------------------------------------------------------------------------


@pytest.fixture
def cluster(postgres_url: str, tmp_path: Path) -> Iterator[tuple[list[Node], Redis]]:
    redis = Redis(tmp_path)
    redis.start()
    nodes = [Node(postgres_url, redis.url, tmp_path / f"node{i}.log") for i in range(3)]
    try:
        for node in nodes:  # one at a time: the first one migrates the schema
            node.start()
        yield nodes, redis
    finally:
        for node in nodes:
            node.stop()
        if redis.process is not None and redis.process.poll() is None:
            redis.process.terminate()
            redis.process.wait(timeout=10)


def test_presence_is_shown_on_every_node(
    cluster: tuple[list[Node], Redis],
) -> None:
    nodes, _ = cluster
    check_presence(nodes)
