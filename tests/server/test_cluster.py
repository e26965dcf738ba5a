"""A cluster on loopback: three ``sansu serve --redis`` nodes on one PostgreSQL and one Redis.

Games are played with every request going to the next node in turn, watched
from every node; one node is killed with SIGKILL mid-game and Redis is
restarted mid-game. Afterwards every acknowledged move is stored, every
watcher received every event live, once and in order, the nodes agree on
every game and its clocks, the computer moved exactly once per turn and a
fallen flag was applied exactly once.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.conftest import ROOT, pick
from tests.server.test_crash import Server, auth, free_port

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")

LONG: dict[str, Any] = {"game": "thirtyfive", "options": {"rows": 12, "cols": 12}}
"""A game long enough to be still on when the test ends."""
TIMED = {"initial_seconds": 900, "increment_seconds": 5}
CATCH_UP = 15.0
"""Seconds the watchers have, once the players stopped, to receive every stored event live."""


class Redis:
    """``redis-server`` in a subprocess on a fixed port, so that it can be restarted."""

    def __init__(self, workdir: Path) -> None:
        found = subprocess.run(
            [str(ROOT / "scripts" / "redis-for-tests"), "bin"],
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
        self.binary = found.stdout.strip().splitlines()[-1]
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *(self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""),
                *("--appendonly", "no", "--dir", str(self.workdir)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import socket

        end = time.monotonic() + 10
        while time.monotonic() < end:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=10)


class Node(Server):
    """One node: ``sansu serve --db postgresql://… --redis redis://…``."""

    def __init__(self, db: str, redis: str, log: Path) -> None:
        super().__init__(
            Path("/"),
            log,
            "--computer-workers",
            "0",
            "--rate-limit-requests",
            "none",
            "--rate-limit-creates",
            "none",
            "--redis",
            redis,
        )
        self.db = db  # type: ignore[assignment]
        self.dead = False

    def kill(self) -> None:
        self.dead = True
        super().kill()


class Watcher(threading.Thread):
    """A spectator's socket on one game, moving to the next node when its node goes."""

    def __init__(self, gid: str, nodes: list[Node], first: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.gid, self.nodes, self.index, self.stop = gid, nodes, first, stop
        self.seen = 0
        """Highest event number this client has (from events, or a hello's state)."""
        self.problems: list[str] = []
        self.events = 0
        self.reconnections = 0
        self.failures: list[str] = []

    def run(self) -> None:
        while not self.stop.is_set():
            node = self.nodes[self.index % len(self.nodes)]
            url = f"ws://127.0.0.1:{node.port}/api/games/{self.gid}/ws?since={self.seen}"
            try:
                with connect(url, open_timeout=3, close_timeout=1) as ws:
                    while not self.stop.is_set():
                        try:
                            self.take(json.loads(ws.recv(timeout=0.3)))
                        except TimeoutError:
                            continue
            except (OSError, ConnectionClosed, TimeoutError):
                pass
            except Exception as error:  # noted; then the client reconnects
                self.failures.append(repr(error))
            if not self.stop.is_set():
                self.index += 1
                self.reconnections += 1
                time.sleep(0.1)

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] == "hello":
            for event in message["missed"]:
                self.event(event["seq"])
            if message["seq"] < self.seen:
                self.problems.append(f"hello at {message['seq']} after {self.seen}")
            self.seen = max(self.seen, message["seq"])
        elif "seq" in message:
            self.event(message["seq"])

    def event(self, seq: int) -> None:
        self.events += 1
        if seq != self.seen + 1:
            self.problems.append(f"event {seq} after {self.seen}")
        self.seen = max(self.seen, seq)


class Player(threading.Thread):
    """Plays the human seats of one game with random moves, each request to the next node."""

    def __init__(
        self, gid: str, tokens: dict[int, str], nodes: list[Node], stop: threading.Event, seed: int
    ) -> None:
        super().__init__(daemon=True)
        self.gid, self.tokens, self.nodes, self.stop = gid, tokens, nodes, stop
        self.rng = random.Random(seed)
        self.index = seed
        self.acked: list[tuple[int, str]] = []
        self.ack_times: list[float] = []
        self.errors: dict[int | str, int] = {}
        self.ended: str | None = None

    def run(self) -> None:
        with httpx.Client(timeout=5) as c:
            while not self.stop.is_set():
                self.index += 1
                node = self.nodes[self.index % len(self.nodes)]
                if node.dead:
                    continue
                try:
                    game = c.get(f"{node.url}/api/games/{self.gid}").json()
                    if "error" in game:
                        code = f"get {game['error']['code']}"
                        self.errors[code] = self.errors.get(code, 0) + 1
                        continue
                    if game["status"] != "active":
                        self.ended = game["status"]
                        return
                    seat = game["view"]["to_move"]
                    if seat not in self.tokens:
                        time.sleep(0.02)  # the computer's turn
                        continue
                    move = pick(game["view"]["legal_moves"], self.rng)
                    r = c.post(
                        f"{node.url}/api/games/{self.gid}/moves",
                        headers=auth(self.tokens[seat]),
                        json={"move": move, "state": game["state"]},
                    )
                except (httpx.HTTPError, ValueError, KeyError) as error:
                    name = type(error).__name__
                    self.errors[name] = self.errors.get(name, 0) + 1
                    continue
                if r.status_code == 200:
                    self.acked.append((game["ply"] + 1, move))
                    self.ack_times.append(time.monotonic())
                else:
                    self.errors[r.status_code] = self.errors.get(r.status_code, 0) + 1
                time.sleep(0.03)


def new_game(node: Node, other: Node, **body: Any) -> tuple[str, dict[int, str]]:
    r = httpx.post(f"{node.url}/api/games", json={"game": "uttt"} | body, timeout=10)
    assert r.status_code == 201, r.text
    created = r.json()
    tokens = {created["seats"][0]: created["token"]}
    for seat in created["game"]["seats"]:
        if seat["kind"] == "human" and seat["seat"] not in tokens:
            joined = httpx.post(
                f"{other.url}/api/games/{created['id']}/join", json={"seat": seat["seat"]}
            )
            assert joined.status_code == 200, joined.text
            tokens[seat["seat"]] = joined.json()["token"]
    return created["id"], tokens


def test_a_cluster_survives_a_killed_node_and_a_redis_restart(
    tmp_path: Path, postgres_url: str
) -> None:
    redis = Redis(tmp_path)
    redis.start()
    nodes = [Node(postgres_url, redis.url, tmp_path / f"node{i}.log") for i in range(3)]
    stop = threading.Event()
    quiet = threading.Event()
    """Set after the players stopped and the computers answered: the watchers stop."""
    threads: list[threading.Thread] = []
    try:
        for node in nodes:  # one at a time: the first one migrates the schema
            node.start()
        games = [
            new_game(nodes[i % 3], nodes[(i + 1) % 3], time_control=TIMED, **LONG) for i in range(6)
        ]
        versus = [
            new_game(nodes[i], nodes[i], seats=[{"kind": "human"}, {"kind": "computer"}], **LONG)
            for i in range(2)
        ]
        players = [
            Player(gid, tokens, nodes, stop, seed)
            for seed, (gid, tokens) in enumerate(games + versus)
        ]
        watchers = [Watcher(gid, nodes, i, quiet) for gid, _ in games + versus for i in range(3)]
        threads = [*players, *watchers]
        for thread in threads:
            thread.start()
        time.sleep(4)
        # the flagged game's clock runs out after node 0, its judge, is gone
        flagged, flag_tokens = new_game(
            nodes[0], nodes[1], time_control={"initial_seconds": 4, "increment_seconds": 0}
        )
        for ply, seat in enumerate((0, 1)):
            game = httpx.get(f"{nodes[0].url}/api/games/{flagged}").json()
            r = httpx.post(
                f"{nodes[0].url}/api/games/{flagged}/moves",
                headers=auth(flag_tokens[seat]),
                json={"move": game["view"]["legal_moves"][0], "state": ply},
            )
            assert r.status_code == 200, r.text
        killed_at, killed_wall = time.monotonic(), time.time()
        nodes[0].kill()
        time.sleep(5)
        redis.kill()
        time.sleep(0.5)
        redis.start()
        time.sleep(5)
        stop.set()
        for player in players:
            player.join(timeout=15)
        # every watcher gets every stored event live (the computers answer meanwhile): the
        # stored event numbers stay put for a second and every watcher has reached them
        engine = sa.create_engine(postgres_url)
        stopped_at = time.monotonic()
        seqs: dict[str, int] = {}
        steady_since = stopped_at
        caught_up: float | None = None
        while time.monotonic() < stopped_at + CATCH_UP:
            time.sleep(0.25)
            with engine.connect() as c:
                now_seqs = dict(c.execute(sa.text("SELECT id, seq FROM games")).all())
            if now_seqs != seqs:
                seqs, steady_since = now_seqs, time.monotonic()
            if not all(w.seen == seqs[w.gid] for w in watchers):
                caught_up = None
                continue
            caught_up = caught_up or time.monotonic() - stopped_at
            if time.monotonic() - steady_since >= 1.0:
                break
        quiet.set()
        for watcher in watchers:
            watcher.join(timeout=15)

        alive = nodes[1:]
        for player in players:
            # the judges of node 0's games changed: their moves went on within seconds
            after = [t - killed_at for t in player.ack_times if t > killed_at]
            assert after and after[0] < 8, (
                player.gid,
                after[:3],
                player.errors,
                len(player.acked),
                player.ended,
            )
            assert len(player.acked) > 10, (player.gid, player.errors)
        for player in players:
            views = [httpx.get(f"{n.url}/api/games/{player.gid}").json() for n in alive]
            stored = {m["ply"]: m for m in views[0]["moves"]}
            for ply, move in player.acked:
                assert stored[ply]["move"] == move, (player.gid, ply, move)
            assert list(stored) == list(range(1, len(stored) + 1))
            for other in views[1:]:
                for key in ("state", "seq", "moves", "status", "result"):
                    assert other[key] == views[0][key], (player.gid, key)
            if views[0]["time_control"]:
                check_clock(views)
            else:  # the computer moved once per turn, never twice
                seats = [stored[ply]["seat"] for ply in sorted(stored)]
                assert all(a != b for a, b in itertools.pairwise(seats)), seats
                assert seats.count(1) >= 5
        for watcher in watchers:
            assert not watcher.problems, (watcher.gid, watcher.problems[:5])
            assert watcher.seen == seqs[watcher.gid], (watcher.gid, watcher.seen, seqs[watcher.gid])
        with engine.connect() as c:
            rows = c.execute(
                sa.text("SELECT type, at FROM events WHERE game_id = :g ORDER BY seq"),
                {"g": flagged},
            ).all()
        kinds = [row[0] for row in rows]
        flag_at = next(row[1] for row in rows if row[0] == "flag")
        assert kinds.count("flag") == 1 and kinds.count("game_over") == 1, kinds
        engine.dispose()
        judged_by_killed = {games[0][0], games[3][0], versus[0][0]}
        failover = max(
            next(t for t in p.ack_times if t > killed_at) - killed_at
            for p in players
            if p.gid in judged_by_killed
        )
        flag_late = flag_at - killed_wall
        assert flag_late < 10, flag_late
        print(
            f"cluster test: {sum(len(p.acked) for p in players)} moves acknowledged,"
            f" {sum(w.events for w in watchers)} events watched,"
            f" {sum(w.reconnections for w in watchers)} reconnections; first move on each"
            f" of the killed node's games within {failover:.2f} s of the kill, its flag"
            f" {flag_late:.2f} s after; every watcher had every event live {caught_up:.1f} s"
            f" after the players stopped; errors {[p.errors for p in players]}"
        )
    finally:
        stop.set()
        quiet.set()
        for node in nodes:
            node.stop()
        if redis.process is not None and redis.process.poll() is None:
            redis.process.terminate()
            redis.process.wait(timeout=10)
        for node in nodes:
            if os.environ.get("SANSU_SHOW_CLUSTER_LOGS") and node.log.exists():
                print(node.log.read_text()[-3000:])


def check_clock(views: list[dict[str, Any]]) -> None:
    """Every node shows the same clock, and it adds up: no seat used less than nothing,
    together no more than the game lasted, and the running seat's time ends at the
    stored deadline."""
    first = views[0]
    clock = first["clock"]
    for other in views[1:]:
        assert other["clock"]["flag_deadline"] == clock["flag_deadline"]
    moves = first["moves"]
    counts = [sum(1 for m in moves if m["seat"] == s) for s in (0, 1)]
    used = [
        TIMED["initial_seconds"] + TIMED["increment_seconds"] * counts[s] - clock["remaining"][s]
        for s in (0, 1)
    ]
    lasted = (first["finished_at"] or clock["now"]) - first["created_at"]
    assert all(u >= -1e-6 for u in used) and sum(used) <= lasted + 0.05, (used, lasted)
    running = clock["running"]
    if running is None:
        assert first["status"] == "finished" and clock["flag_deadline"] is None
        return
    assert abs(clock["flag_deadline"] - clock["now"] - clock["remaining"][running]) < 0.05
