"""Each node of a cluster reports its own metrics on its own ``--metrics-port``: the
sockets it holds and the moves acknowledged on them, not another node's."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from tests.server.test_cluster import Node, Redis, new_game
from tests.server.test_crash import free_port
from tests.server.test_process import answer

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="subprocesses")


def scrape(port: int) -> dict[str, float]:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    return {
        s.name: s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if not s.labels
    }


def test_each_node_reports_its_own_sockets_and_moves(tmp_path: Path, postgres_url: str) -> None:
    redis = Redis(tmp_path)
    redis.start()
    ports = [free_port(), free_port()]
    nodes = [Node(postgres_url, redis.url, tmp_path / f"node{i}.log") for i in range(2)]
    for node, port in zip(nodes, ports, strict=True):
        node.options = (*node.options, "--metrics-port", str(port))
    try:
        for node in nodes:  # one at a time: the first one migrates the schema
            node.start()
        gid, tokens = new_game(nodes[1], nodes[0])
        ws_url = f"ws://127.0.0.1:{nodes[0].port}/api/games/{gid}/ws"
        with connect(ws_url, subprotocols=["sansu", f"token.{tokens[0]}"]) as ws:
            ws.send(json.dumps({"type": "move", "move": "r5c5", "state": 0}))
            assert answer(ws)["type"] == "ack"
            first, second = scrape(ports[0]), scrape(ports[1])
        assert first["sansu_open_sockets"] == 1 and second["sansu_open_sockets"] == 0
        assert first["sansu_moves_total"] == 1 and second["sansu_moves_total"] == 0
        for node in nodes:
            assert httpx.get(f"{node.url}/metrics", timeout=10).status_code == 404
    finally:
        for node in nodes:
            node.stop()
        redis.kill()
