"""A judge sends no news that no node listens to: with a game's players all on its
judge, its news reach nobody, so the judge stops sending them. A spectator that comes
to another node still sees every move: what its node missed it reads from the store
(within a second for a watched game), and the judge, finding the new listener within a
second, sends news again."""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection

from tests.server.test_cluster import Node, Redis, new_game
from tests.server.test_cluster_handover import cluster_of, receive, socket, until
from tests.server.test_cluster_offers import game_on

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


def play(ws: ClientConnection, node: Node, gid: str, ply: int) -> str:
    """Plays the first legal move on ``ws`` and waits for its ``ack``; the move's text."""
    move = game_on(node, gid)["view"]["legal_moves"][0]
    ws.send(json.dumps({"type": "move", "move": move, "state": ply, "id": ply}))
    answer = receive(ws, lambda m: m["type"] in ("ack", "error"))
    assert answer["type"] == "ack", answer
    return str(move)


def moves_seen(ws: ClientConnection, count: int) -> list[dict[str, Any]]:
    return [receive(ws, lambda m: m.get("type") == "move") for _ in range(count)]


def test_news_nobody_hears_are_skipped_and_a_new_spectator_misses_nothing(
    tmp_path: Path, postgres_url: str
) -> None:
    redis = Redis(tmp_path)
    redis.start()
    judge, other = (Node(postgres_url, redis.url, tmp_path / f"node{i}.log") for i in range(2))
    sockets = contextlib.ExitStack()
    try:
        judge.start()
        other.start()
        gid, tokens = new_game(judge, judge)  # created, joined and played on one node
        players = [socket(sockets, judge, gid, tokens[seat]) for seat in (0, 1)]
        played = [play(players[0], judge, gid, 0)]
        until(lambda: cluster_of(judge)["news_quiet"] == 1)  # its news reached no node
        played += [play(players[ply % 2], judge, gid, ply) for ply in (1, 2)]
        report = cluster_of(judge)  # so the next two were not sent
        assert report["news_skipped"] >= 2 and report["news_quiet"] == 1, report

        spectator = socket(sockets, other, gid)  # its hello has the three moves
        played.append(play(players[1], judge, gid, 3))  # maybe skipped: the probe is due
        assert [m["move"] for m in moves_seen(spectator, 1)] == played[3:]
        until(lambda: cluster_of(judge)["news_quiet"] == 0)  # a listener: news again
        applied = cluster_of(other)["news_applied"]
        played.append(play(players[0], judge, gid, 4))
        seen = moves_seen(spectator, 1)[0]
        assert (seen["move"], seen["ply"]) == (played[4], 5)
        assert cluster_of(other)["news_applied"] == applied + 1  # by its news, not the store
        assert [m["move"] for m in game_on(other, gid)["moves"]] == played
        views = {json.dumps(game_on(node, gid)["view"], sort_keys=True) for node in (judge, other)}
        assert len(views) == 1
    finally:
        sockets.close()
        judge.kill()
        other.kill()
        redis.kill()
