"""Load on the game server: hundreds of games played at once over WebSockets on loopback.

Starts ``sansu serve`` on a free port with a fresh SQLite file, creates the
games over HTTP (a mix of every game, plus some against the computer), opens
one WebSocket per human seat, and lets every client play random legal moves
after a random thinking pause; finished games go on as rematches. Reports
moves per second, the move round trip (sent → acknowledged, which is after
the move is committed) at p50/p99, errors, and the CPU load seen.

Usage: ``python benchmarks/server_bench.py [--games 500] [--computer-games 20]
[--seconds 30] [--think-ms 1000]`` (``benchmarks/run.py server`` uses the defaults).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

HUMAN_MIX = ("uttt", "sansumoku", "thirtyfive", "sumodoku", "challenge")
COMPUTER_MIX = ("uttt", "sansumoku")
AVOID = {"timeout", "sudoku", "challenge"}
TARGET_P99_MS = 100.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its children that were waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(f) for f in fields[11:15]) / ticks


def children_cpu(pid: int) -> float:
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parts = stat.rsplit(")", 1)[1].split()
        if int(parts[1]) == pid:
            total += (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
    return total


class Stats:
    """What the clients saw (a plain class: benchmarks/run.py loads this file unregistered)."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.moves = 0
        self.games_finished = 0
        self.reconnects = 0
        self.measuring = False


class Seat:
    """One player's browser: a WebSocket on its game, playing random legal moves."""

    def __init__(
        self,
        url: str,
        game_id: str,
        token: str,
        stats: Stats,
        rng: random.Random,
        think: float,
        stop: asyncio.Event,
        leader: bool,
    ) -> None:
        self.url = url
        self.game_id = game_id
        self.token = token
        self.stats = stats
        self.rng = rng
        self.think = think
        self.stop = stop
        self.leader = leader
        self.pending: dict[int, float] = {}
        self.next_id = 0

    async def run(self) -> None:
        while not self.stop.is_set():
            next_game = await self._play_game()
            if next_game is None:
                return
            self.game_id = next_game
            self.stats.reconnects += 1

    async def _play_game(self) -> str | None:
        ws_url = f"{self.url}/api/games/{self.game_id}/ws?token={self.token}"
        async with connect(ws_url, max_size=2**22, open_timeout=60, compression=None) as ws:
            seats: list[int] = []
            view: dict[str, Any] = {}
            state = 0
            status = "active"
            mover: asyncio.Task[None] | None = None
            moved_in = -1
            offered = False
            try:
                async for raw in ws:
                    message = json.loads(raw)
                    kind = message["type"]
                    if kind == "hello":
                        seats = message["you"]
                    if kind == "ack":
                        sent = self.pending.pop(message["id"], None)
                        if sent is not None and self.stats.measuring:
                            self.stats.latencies.append(time.perf_counter() - sent)
                            self.stats.moves += 1
                        continue
                    if kind == "error":
                        self.pending.pop(message.get("id"), None)
                        if self.stats.measuring:
                            self.stats.errors.append(f"{message['code']}: {message['message']}")
                    if kind == "rematch":
                        return str(message["game_id"])
                    if "view" in message:
                        view = message["view"]
                        state = message["state"]
                        status = message["status"]
                    if kind == "game_over" or status != "active":
                        status = "finished"
                        if not offered:
                            offered = True
                            if self.leader and self.stats.measuring:
                                self.stats.games_finished += 1
                            await ws.send(json.dumps({"type": "rematch"}))
                        continue
                    if view.get("to_move") in seats and state > moved_in:
                        moved_in = state  # one move per state: later messages repeat the view
                        mover = asyncio.ensure_future(self._move(ws, view, state))
            finally:
                if mover is not None:
                    mover.cancel()
        return None

    async def _move(self, ws: Any, view: dict[str, Any], state: int) -> None:
        await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
        moves = [m for m in view["legal_moves"] if m not in AVOID] or view["legal_moves"]
        if not moves:
            return
        self.next_id += 1
        self.pending[self.next_id] = time.perf_counter()
        await ws.send(
            json.dumps(
                {"type": "move", "move": self.rng.choice(moves), "state": state, "id": self.next_id}
            )
        )


async def create_games(
    url: str, games: int, computer_games: int, rng: random.Random
) -> list[tuple[str, str, bool]]:
    """(game id, token, leader) for every human seat."""
    seats: list[tuple[str, str, bool]] = []
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as c:
        sem = asyncio.Semaphore(20)

        async def human_game(i: int) -> None:
            async with sem:
                game = HUMAN_MIX[i % len(HUMAN_MIX)]
                r = await c.post("/api/games", json={"game": game})
                r.raise_for_status()
                created = r.json()
                joined = (await c.post(f"/api/games/{created['id']}/join", json={})).json()
                seats.append((created["id"], created["token"], True))
                seats.append((created["id"], joined["token"], False))

        async def computer_game(i: int) -> None:
            async with sem:
                game = COMPUTER_MIX[i % len(COMPUTER_MIX)]
                body = {
                    "game": game,
                    "seats": [{"kind": "human"}, {"kind": "computer", "level": "easy"}],
                }
                r = await c.post("/api/games", json=body)
                r.raise_for_status()
                seats.append((r.json()["id"], r.json()["token"], True))

        await asyncio.gather(
            *(human_game(i) for i in range(games)),
            *(computer_game(i) for i in range(computer_games)),
        )
    rng.shuffle(seats)
    return seats


async def drive(url: str, args: argparse.Namespace) -> tuple[Stats, float]:
    rng = random.Random(1)
    stats = Stats()
    stop = asyncio.Event()
    started = time.perf_counter()
    seats = await create_games(url, args.games, args.computer_games, rng)
    print(
        f"  created {args.games + args.computer_games} games in "
        f"{time.perf_counter() - started:.1f} s; connecting {len(seats)} clients"
    )
    clients = [
        Seat(
            url.replace("http", "ws", 1),
            gid,
            token,
            stats,
            random.Random(i),
            args.think_ms / 1000,
            stop,
            leader,
        )
        for i, (gid, token, leader) in enumerate(seats)
    ]
    tasks = []
    for i, client in enumerate(clients):
        tasks.append(asyncio.ensure_future(client.run()))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    stop.set()
    for task in tasks:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            stats.errors.append(f"client failed: {result!r}")
    return stats, elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games between two human clients")
    parser.add_argument("--computer-games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--think-ms",
        type=float,
        default=1000.0,
        help="mean thinking pause of a client before each move",
    )
    args = parser.parse_args(argv if argv is not None else [])
    gc.set_threshold(50_000, 20, 20)  # the clients' own pauses would count as round trip
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="sansu-bench-") as tmp:
        log = Path(tmp) / "server.log"
        with log.open("wb") as out:
            profile = os.environ.get("SANSU_BENCH_PROFILE")  # a file: profile the server
            wrap = ["-m", "cProfile", "-o", profile] if profile else []
            server = subprocess.Popen(
                [
                    sys.executable,
                    *wrap,
                    "-m",
                    "sansu",
                    "serve",
                    "--port",
                    str(port),
                    "--db",
                    str(Path(tmp) / "bench.db"),
                    "--log-level",
                    "warning",
                ],
                stdout=out,
                stderr=out,
            )
        try:
            end = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    if time.monotonic() > end or server.poll() is not None:
                        raise SystemExit(log.read_text()) from None
                    time.sleep(0.1)
            load_before = os.getloadavg()
            cpu0 = cpu_seconds(server.pid)
            kids0 = children_cpu(server.pid)
            health0 = httpx.get(f"{url}/api/health").json()
            print(
                f"server load benchmark: {args.games} games of two WebSocket clients + "
                f"{args.computer_games} against the computer (easy), think {args.think_ms:.0f}"
                f" ms mean, {args.seconds:.0f} s measured, {os.cpu_count()} cores"
            )
            client0 = time.process_time()
            wall0 = time.perf_counter()
            stats, elapsed = asyncio.run(drive(url, args))
            client_share = (time.process_time() - client0) / (time.perf_counter() - wall0)
            cpu1 = cpu_seconds(server.pid)
            kids1 = children_cpu(server.pid)
            health = httpx.get(f"{url}/api/health").json()
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        tail = log.read_text()[-2000:]
    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan")
    commits = health["commits"] - health0["commits"]
    writes = health["writes"] - health0["writes"]
    whole = elapsed + args.warmup
    print(
        f"  moves acknowledged: {stats.moves} in {elapsed:.1f} s = {stats.moves / elapsed:.0f}"
        f" moves/s; games finished {stats.games_finished}, rematches joined"
        f" {stats.reconnects}; computer moves {health['computer_moves']}"
    )
    print(
        f"  round trip: p50 {p50:.1f} ms, p99 {p99:.1f} ms (target p99 < {TARGET_P99_MS:.0f}"
        f" ms: {'met' if p99 < TARGET_P99_MS else 'NOT met'}); errors {len(stats.errors)}"
    )
    spent = {
        k: health["store_seconds"][k] - health0["store_seconds"][k]
        for k in ("statements", "commits")
    }
    print(
        f"  store: {writes} writes in {commits} commits"
        f" ({writes / max(commits, 1):.1f} per fsync); mean commit"
        f" {1000 * spent['commits'] / max(commits, 1):.1f} ms, statements"
        f" {1000 * spent['statements'] / max(commits, 1):.1f} ms per batch"
    )
    handling = health.get("handling_ms") or {}
    print(
        f"  server-side handling of a socket move (arrival to answer): p50"
        f" {handling.get('p50', float('nan'))} ms, p99 {handling.get('p99', float('nan'))} ms;"
        f" event loop lag {health.get('loop_lag_ms')} ms"
    )
    print(
        f"  client process CPU {100 * client_share:.0f}% of a core;"
        f" server CPU {100 * (cpu1 - cpu0) / whole:.0f}% of a core, computer workers"
        f" {100 * (kids1 - kids0) / whole:.0f}%; load average before"
        f" {load_before[0]:.1f}, after {os.getloadavg()[0]:.1f}"
    )
    for error in stats.errors[:5]:
        print(f"  error: {error}")
    if "Traceback" in tail:
        print("  server log:\n" + tail)


if __name__ == "__main__":
    main(sys.argv[1:])
