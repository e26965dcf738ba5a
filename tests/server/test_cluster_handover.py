"""The judge follows the players: a node with no client of a game hands it over to the
node its players' sockets are on, when they open; a node with clients keeps it; the
clock runs on at the new judge, and the flag falls there once. Only a node that keeps
a copy of a game is sent its news."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.sync.client import ClientConnection, connect

from tests.server.test_cluster import Node, Redis, new_game
from tests.server.test_cluster_offers import game_on
from tests.server.test_cluster_shared import lease_holder, node_ids
from tests.server.test_crash import auth

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def socket(
    sockets: contextlib.ExitStack, node: Node, gid: str, token: str | None = None
) -> ClientConnection:
    protocols: Any = ["sansu", f"token.{token}"] if token else None
    url = f"ws://127.0.0.1:{node.port}/api/games/{gid}/ws"
    ws = sockets.enter_context(connect(url, subprotocols=protocols))
    assert receive(ws, lambda m: m["type"] == "hello")["type"] == "hello"
    return ws


def receive(ws: ClientConnection, wanted: Any, seconds: float = 15.0) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, end - time.monotonic())))
        if wanted(message):
            return message


def judge(redis: Redis, gid: str) -> str:
    return asyncio.run(lease_holder(redis.url, f"sansu:lease:{gid}"))


def until(condition: Any, seconds: float = 15.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def cluster_of(node: Node) -> dict[str, Any]:
    return httpx.get(f"{node.url}/api/health", timeout=10).json()["cluster"]


def test_the_judge_moves_to_the_node_of_the_games_sockets(
    tmp_path: Path, postgres_url: str
) -> None:
    redis = Redis(tmp_path)
    redis.start()
    nodes = [Node(postgres_url, redis.url, tmp_path / f"node{i}.log") for i in range(3)]
    sockets = contextlib.ExitStack()
    try:
        for node in nodes:
            node.start()
        ids = {node.port: node_id for node_id, node in node_ids(nodes).items()}
        gid, tokens = new_game(nodes[0], nodes[0])  # node 0 created it: it judges it
        assert judge(redis, gid) == ids[nodes[0].port]
        players = [socket(sockets, nodes[1], gid, tokens[seat]) for seat in (0, 1)]

        # the players' sockets opened on node 1: node 0, with no client of the game,
        # hands it over, and node 1 judges it from then on (before anyone moved)
        until(lambda: judge(redis, gid) == ids[nodes[1].port])
        assert cluster_of(nodes[0])["handovers"] == 1
        players[0].send(json.dumps({"type": "move", "move": "r5c5", "state": 0, "id": 1}))
        assert receive(players[0], lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        assert judge(redis, gid) == ids[nodes[1].port]
        assert cluster_of(nodes[0])["answered"] == 0  # the move was not forwarded to it

        # node 2 with a spectator's socket asks for a move: node 1 has clients, it keeps it
        spectator = socket(sockets, nodes[2], gid)
        view = game_on(nodes[2], gid)
        move = view["view"]["legal_moves"][0]
        r = httpx.post(
            f"{nodes[2].url}/api/games/{gid}/moves",
            headers=auth(tokens[1]),
            json={"move": move, "state": view["state"]},
        )
        assert r.status_code == 200, r.text
        assert judge(redis, gid) == ids[nodes[1].port]
        seen = receive(spectator, lambda m: m.get("type") == "move")
        assert seen["state"] == r.json()["state"]
        # the spectator's node had the move from the judge's news, not from the store;
        # node 0, with no copy left, was sent no news at all
        spectating, handed = cluster_of(nodes[2]), cluster_of(nodes[0])
        assert spectating["news_applied"] == 1 and spectating["store_reads"] == 0
        assert handed["news_received"] == 0 and handed["following"] == 0

        # node 0, without a client, asks too: node 1 keeps it
        view = game_on(nodes[0], gid)
        r = httpx.post(
            f"{nodes[0].url}/api/games/{gid}/moves",
            headers=auth(tokens[0]),
            json={"move": view["view"]["legal_moves"][0], "state": view["state"]},
        )
        assert r.status_code == 200, r.text
        assert judge(redis, gid) == ids[nodes[1].port]
        assert [game_on(node, gid)["ply"] for node in nodes] == [3, 3, 3]
        states = {json.dumps(game_on(node, gid)["view"], sort_keys=True) for node in nodes}
        assert len(states) == 1

        # a timed game: handed over when its players' sockets open, its clock runs out at node 1,
        # which applies the flag once; every node shows it
        timed, timed_tokens = new_game(
            nodes[0], nodes[0], time_control={"initial_seconds": 3, "increment_seconds": 0}
        )
        watched = [socket(sockets, nodes[1], timed, timed_tokens[seat]) for seat in (0, 1)]
        until(lambda: judge(redis, timed) == ids[nodes[1].port])
        watched[0].send(json.dumps({"type": "move", "move": "r1c1", "state": 0, "id": 1}))
        assert receive(watched[0], lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
        assert judge(redis, timed) == ids[nodes[1].port]
        receive(watched[1], lambda m: m.get("type") == "game_over", seconds=20)
        for node in nodes:
            assert game_on(node, timed)["termination"] == "time"
        engine = sa.create_engine(postgres_url)
        with engine.connect() as c:
            kinds = (
                c.execute(
                    sa.text("SELECT type FROM events WHERE game_id = :g ORDER BY seq"), {"g": timed}
                )
                .scalars()
                .all()
            )
        engine.dispose()
        assert kinds.count("flag") == 1 and kinds.count("game_over") == 1, kinds
        sockets.close()
        logs = [(tmp_path / f"node{i}.log").read_text() for i in range(3)]
        assert not any("Traceback" in text for text in logs)
    finally:
        sockets.close()
        for node in nodes:
            node.kill()
        redis.kill()
