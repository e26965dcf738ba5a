"""Offers on a cluster of three nodes: every offer and answer is judged by the game's
node, whichever node a player asks, and every node then shows the same offers."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.test_cluster import Node, Redis, new_game
from tests.server.test_crash import auth

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def game_on(node: Node, gid: str) -> dict[str, Any]:
    r = httpx.get(f"{node.url}/api/games/{gid}", timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def test_offers_and_answers_are_forwarded_to_the_games_judge(
    tmp_path: Path, postgres_url: str
) -> None:
    redis = Redis(tmp_path)
    redis.start()
    nodes = [Node(postgres_url, redis.url, tmp_path / f"node{i}.log") for i in range(3)]
    try:
        for node in nodes:
            node.start()
        gid, tokens = new_game(nodes[0], nodes[1])  # node 0 created it: it judges it

        def call(node: int, method: str, path: str, seat: int, **body: Any) -> dict[str, Any]:
            url = f"{nodes[node].url}/api/games/{gid}{path}"
            r = httpx.request(method, url, headers=auth(tokens[seat]), json=body or None)
            assert r.status_code == 200, r.text
            return r.json()

        def everywhere(key: str) -> list[Any]:
            return [game_on(node, gid)[key] for node in nodes]

        state = game_on(nodes[1], gid)["state"]
        call(1, "POST", "/moves", 0, move="r5c5", state=state)
        assert call(1, "POST", "/offers/draw", 0)["offers"] == {"draw": 0}
        assert everywhere("offers") == [{"draw": 0}] * 3
        assert call(2, "DELETE", "/offers/draw", 1)["offers"] == {}
        assert everywhere("offers") == [{}] * 3
        assert call(2, "POST", "/offers/takeback", 0)["offers"] == {"takeback": 0}
        call(1, "POST", "/offers/takeback/accept", 1)
        assert everywhere("ply") == [0] * 3
        call(2, "POST", "/moves", 0, move="r5c5", state=game_on(nodes[2], gid)["state"])
        call(2, "POST", "/offers/draw", 0)
        done = call(1, "POST", "/offers/draw/accept", 1)
        assert done["status"] == "finished" and done["result"]["draw"] is True
        assert everywhere("termination") == ["agreement"] * 3
        # nodes 1 and 2 forwarded each call to node 0, and no node failed doing so
        logs = [(tmp_path / f"node{i}.log").read_text() for i in range(3)]
        assert not any("Traceback" in text for text in logs)
    finally:
        for node in nodes:
            node.kill()
        redis.kill()
