"""Who is online on a real cluster, on loopback: one PostgreSQL, one Redis and two
``sansu serve --redis`` nodes. A player's socket on one node makes them online on the
other node's answers, and closing it makes them offline there too."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.test_cluster import Node, Redis
from tests.server.test_cluster_shared import until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="subprocesses and Redis")

WINDOW = "1"
"""Seconds a request keeps a player online (a minute on a real site)."""


@pytest.fixture
def nodes(postgres_url: str, tmp_path: Path) -> Iterator[list[Node]]:
    redis = Redis(tmp_path)
    redis.start()
    started = []
    try:
        for i in range(2):  # one at a time: the first one migrates the schema
            node = Node(postgres_url, redis.url, tmp_path / f"node{i}.log")
            node.options = (*node.options, "--online-window", WINDOW)
            node.start()
            started.append(node)
        yield started
    finally:
        for node in started:
            node.stop()
        if redis.process is not None and redis.process.poll() is None:
            redis.process.terminate()
            redis.process.wait(timeout=10)


def signed_up(node: Node, name: str) -> httpx.Client:
    client = httpx.Client(base_url=node.url, timeout=20)
    r = client.post("/api/account/signup", json={"name": name, "password": "long enough pw"})
    assert r.status_code == 201, r.text
    client.headers["X-CSRF-Token"] = r.json()["csrf_token"]
    return client


def test_a_socket_on_one_node_makes_its_player_online_on_the_other(nodes: list[Node]) -> None:
    ann = signed_up(nodes[0], "Ann")
    bob = signed_up(nodes[1], "Bob")
    try:
        assert ann.post("/api/users/Bob/follow").status_code == 200
        game = bob.post("/api/games", json={"game": "uttt"})
        assert game.status_code == 201, game.text
        gid = game.json()["id"]

        def bob_online() -> bool:
            return ann.get("/api/account/following").json()["following"][0]["online"]

        until(lambda: not bob_online(), 20, "Bob offline once his requests are old")
        cookie = f"sansu_session={bob.cookies['sansu_session']}"
        url = f"ws://127.0.0.1:{nodes[1].port}/api/games/{gid}/ws"
        headers = {"Cookie": cookie, "Origin": nodes[1].url}
        with connect(url, additional_headers=headers, open_timeout=20) as ws:
            assert '"hello"' in ws.recv(timeout=20)
            until(bob_online, 20, "Bob online on node 0 by his socket on node 1")
            seen = ann.get("/api/account/following").json()["following"][0]
            assert seen["playing"] == {"id": gid, "game": "uttt"}
            assert ann.get("/api/online").json()["players"] == 2
        until(lambda: not bob_online(), 20, "Bob offline on node 0 once his socket closed")
    finally:
        ann.close()
        bob.close()
