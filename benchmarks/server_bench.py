"""Load on the game server: hundreds of games played at once over WebSockets on loopback.

Starts ``sansu serve`` on a free port with a fresh SQLite file, creates the
games over HTTP (a mix of every game, plus some against the computer), opens
one WebSocket per human seat, and lets every client play random legal moves
after a random thinking pause; finished games go on as rematches. Reports
moves per second, the move round trip (sent → acknowledged, which is after
the move is committed) at p50/p99, errors, and the CPU load seen.

The floor: a bare Starlette WebSocket echo, served by uvicorn with the same
settings, is driven by as many clients with the same pauses, in rounds that
alternate with the game's (the game's clients pause meanwhile; the computer
games go on), so the move round trip reads as a multiple of what the
framework alone takes under the same load: the median, mean and worst of the
rounds' ratios. The echo answers each message as a move is answered (the
text back to its sender, then to each of the two clients of its room), so
that its CPU per message (from ``/proc``, during its rounds) is the floor of
the server's CPU per acknowledged move (the server process alone, during the
game's rounds; the computer's moves in those rounds count on top).

Usage: ``python benchmarks/server_bench.py [--games 500] [--computer-games 20]
[--seconds 30] [--rounds 3] [--think-ms 1000]`` (``benchmarks/run.py server``
uses the defaults).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from bench_processes import (  # a sibling: benchmarks/
    children_cpu,
    cpu_seconds,
    free_port,
    print_problems,
    serve_echo,
    stop,
    wait_healthy,
)
from websockets.asyncio.client import connect

HUMAN_MIX = ("uttt", "sansumoku", "thirtyfive", "sumodoku", "challenge")
COMPUTER_MIX = ("uttt", "sansumoku")
AVOID = {"timeout", "sudoku", "challenge"}
TARGET_P99_MS = 100.0
SETTLE = 1.0
"""Seconds after a switch of rounds before measuring (moves in flight land)."""


class Stats:
    """What the clients saw (a plain class: benchmarks/run.py loads this file unregistered)."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.moves = 0
        self.games_finished = 0
        self.reconnects = 0
        self.measuring = False
        self.echoes: list[float] = []
        self.rounds: list[tuple[list[float], list[float]]] = []
        """Round trips of each round: the game's, then the echo's."""
        self.measuring_echo = False
        self.playing = asyncio.Event()
        """Cleared while the echo's round runs: the game's clients hold their moves."""
        self.echoing = asyncio.Event()
        self.echo_moves = 0
        self.cpu: list[tuple[float, int, float, int]] = []
        """Each round's server CPU seconds and moves acknowledged, then the echo's CPU
        seconds and messages answered."""


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
        *,
        always: bool = False,
    ) -> None:
        self.url = url
        self.game_id = game_id
        self.token = token
        self.stats = stats
        self.rng = rng
        self.think = think
        self.stop = stop
        self.leader = leader
        self.always = always
        """Plays through the echo's rounds too (a game against the computer: its searches
        load the machine in both kinds of round alike)."""
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
        ws_url = f"{self.url}/api/games/{self.game_id}/ws"
        protocols: Any = ["sansu", f"token.{self.token}"]  # the token never in the URL
        async with connect(
            ws_url, subprotocols=protocols, max_size=2**22, open_timeout=60, compression=None
        ) as ws:
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
        while not (self.always or self.stats.playing.is_set()):  # the echo's round: wait
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


class Echo:
    """A client of the bare echo server, one of a room of two: the same pauses, a message
    of the same shape, answered as a move is."""

    def __init__(self, url: str, name: int, stats: Stats, rng: random.Random, think: float) -> None:
        self.url = f"{url}?room={name // 2}"
        self.name = name
        self.stats = stats
        self.rng = rng
        self.think = think
        self.pending: dict[int, float] = {}

    async def run(self) -> None:
        async with connect(self.url, open_timeout=60, compression=None) as ws:
            reader = asyncio.ensure_future(self._read(ws))
            try:
                n = 0
                while True:
                    await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
                    if not self.stats.echoing.is_set():
                        continue
                    n += 1
                    self.pending[n] = time.perf_counter()
                    message = {"type": "move", "move": "r5c5", "state": n, "id": n}
                    await ws.send(json.dumps({**message, "from": self.name}))
            finally:
                reader.cancel()

    async def _read(self, ws: Any) -> None:
        async for raw in ws:
            message = json.loads(raw)
            if message["from"] != self.name:
                continue  # the other client's event
            sent = self.pending.pop(message["id"], None)  # the first copy: the answer
            if sent is not None and self.stats.measuring_echo:
                self.stats.echoes.append(time.perf_counter() - sent)
                self.stats.echo_moves += 1


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


async def create_games(
    url: str,
    games: int,
    computer_games: int,
    rng: random.Random,
    against_computer: set[str] | None = None,
) -> list[tuple[str, str, bool]]:
    """(game id, token, leader) for every human seat; the ids of the games against the
    computer go into ``against_computer``."""
    seats: list[tuple[str, str, bool]] = []
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as c:
        sem = asyncio.Semaphore(20)

        async def human_game(i: int) -> None:
            async with sem:
                game = HUMAN_MIX[i % len(HUMAN_MIX)]
                # The clients pick from the view's legal moves, which lists Sumodoku's
                # placements only in a game with aids (between people they are off).
                body = {"game": game, "options": {"aids": True} if game == "sumodoku" else {}}
                r = await c.post("/api/games", json=body)
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
                if against_computer is not None:
                    against_computer.add(r.json()["id"])

        await asyncio.gather(
            *(human_game(i) for i in range(games)),
            *(computer_game(i) for i in range(computer_games)),
        )
    rng.shuffle(seats)
    return seats


async def drive(
    url: str, echo_url: str, args: argparse.Namespace, pids: tuple[int, int]
) -> tuple[Stats, float]:
    """Plays the rounds; ``pids``: the server's and the echo's, whose CPU each round reads."""
    rng = random.Random(1)
    stats = Stats()
    stop = asyncio.Event()
    started = time.perf_counter()
    against_computer: set[str] = set()
    seats = await create_games(url, args.games, args.computer_games, rng, against_computer)
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
            always=gid in against_computer,
        )
        for i, (gid, token, leader) in enumerate(seats)
    ]
    echoes = [
        Echo(echo_url, i, stats, random.Random(10_000 + i), args.think_ms / 1000)
        for i in range(len(clients))
    ]
    tasks = []
    for i, client in enumerate([*clients, *echoes]):
        tasks.append(asyncio.ensure_future(client.run()))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    stats.playing.set()
    await asyncio.sleep(args.warmup)
    each = args.seconds / args.rounds
    elapsed = 0.0
    spied = os.environ.get("SANSU_BENCH_PYSPY")
    """py-spy samples the server during the game's rounds only, into this file."""
    parts: list[str] = []
    samplers: list[subprocess.Popen[bytes]] = []
    for _ in range(args.rounds):
        # the game's round
        stats.echoing.clear()
        stats.playing.set()
        await asyncio.sleep(SETTLE)
        before = len(stats.latencies)
        moves0, cpu0 = stats.moves, cpu_seconds(pids[0], children=False)
        stats.measuring = True
        t0 = time.perf_counter()
        if spied:
            parts.append(f"{spied}.{len(parts)}")
            samplers.append(sample_stacks(pids[0], parts[-1], each))
        await asyncio.sleep(each)
        stats.measuring = False
        elapsed += time.perf_counter() - t0
        server_round = (cpu_seconds(pids[0], children=False) - cpu0, stats.moves - moves0)
        game_round = stats.latencies[before:]
        # the echo's round, under the same load but for the game's own moves
        stats.playing.clear()
        stats.echoing.set()
        await asyncio.sleep(SETTLE)
        before = len(stats.echoes)
        echoed0, cpu0 = stats.echo_moves, cpu_seconds(pids[1], children=False)
        stats.measuring_echo = True
        await asyncio.sleep(each)
        stats.measuring_echo = False
        stats.cpu.append(
            (*server_round, cpu_seconds(pids[1], children=False) - cpu0, stats.echo_moves - echoed0)
        )
        stats.rounds.append((game_round, stats.echoes[before:]))
    stop.set()
    for sampler in samplers:
        await asyncio.to_thread(sampler.wait)
    if spied:
        gather_stacks(spied, parts)
    for task in tasks:
        task.cancel()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            stats.errors.append(f"client failed: {result!r}")
    return stats, elapsed


def sample_stacks(pid: int, out: str, seconds: float) -> subprocess.Popen[bytes]:
    """py-spy samples the server's stacks for ``seconds`` into ``out`` (collapsed, for a
    flame graph): unlike ``SANSU_BENCH_PROFILE``'s cProfile, it costs the server next to
    nothing."""
    spy = Path(sys.executable).with_name("py-spy")
    command = [str(spy), "record", "--pid", str(pid), "--rate", "200", "--nonblocking"]
    duration = ["--duration", str(max(1, round(seconds)))]
    return subprocess.Popen(
        [*command, *duration, "--format", "raw", "--output", out], stdout=subprocess.DEVNULL
    )


def gather_stacks(out: str, parts: list[str]) -> None:
    """Sums the rounds' collapsed stacks into ``out`` (one line per stack, as py-spy writes)."""
    counts: dict[str, int] = {}
    for part in parts:
        with contextlib.suppress(FileNotFoundError):
            for line in Path(part).read_text().splitlines():
                stack, _, count = line.rpartition(" ")
                if stack and count.isdigit():
                    counts[stack] = counts.get(stack, 0) + int(count)
            Path(part).unlink()
    Path(out).write_text("".join(f"{stack} {n}\n" for stack, n in counts.items()))


def print_cpu(rounds: list[tuple[float, int, float, int]]) -> None:
    """The server's CPU per acknowledged move beside the echo's per message, and their ratio."""
    server_cpu, moves, echo_cpu, echoed = (sum(r[i] for r in rounds) for i in range(4))
    if not moves or not echoed:
        print("  CPU per move: too few moves or echoes measured")
        return
    per_move = 1000 * server_cpu / moves
    floor = 1000 * echo_cpu / echoed
    ratio = per_move / floor if floor else float("inf")
    print(
        f"  CPU per acknowledged move: server {per_move:.3f} ms ({moves} moves), echo floor"
        f" {floor:.3f} ms ({echoed} messages): {ratio:.1f}x (target 2x and 0.3 ms: "
        f"{'met' if ratio <= 2 and per_move <= 0.3 else 'NOT met'})"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games between two human clients")
    parser.add_argument("--computer-games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds of the game, each followed by the echo's"
    )
    parser.add_argument(
        "--limits",
        default="100000000/minute",
        help="the server's rate limits (on, set high by default: their cost counts; 'none': off)",
    )
    parser.add_argument("--echo-server", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument(
        "--think-ms",
        type=float,
        default=1000.0,
        help="mean thinking pause of a client before each move",
    )
    args = parser.parse_args(argv if argv is not None else [])
    if args.echo_server:
        serve_echo(args.echo_server)
        return
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
                    "--rate-limit-requests",
                    args.limits,
                    "--rate-limit-creates",
                    args.limits,
                    "--rate-limit-sockets",
                    "none",
                ],
                stdout=out,
                stderr=out,
            )
            echo_port = free_port()
            echo = subprocess.Popen(
                [sys.executable, __file__, "--echo-server", str(echo_port)],
                stdout=out,
                stderr=out,
            )
        echo_url = f"ws://127.0.0.1:{echo_port}/ws"
        try:
            wait_healthy(url, server, log)
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
            stats, elapsed = asyncio.run(drive(url, echo_url, args, (server.pid, echo.pid)))
            whole = time.perf_counter() - wall0
            client_share = (time.process_time() - client0) / whole
            cpu1 = cpu_seconds(server.pid)
            kids1 = children_cpu(server.pid)
            health = httpx.get(f"{url}/api/health").json()
        finally:
            echo.send_signal(signal.SIGINT)
            stop(server)
            try:
                echo.wait(timeout=15)
            except subprocess.TimeoutExpired:
                echo.kill()
        tail = log.read_text()[-2000:]
    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan")
    commits = health["commits"] - health0["commits"]
    writes = health["writes"] - health0["writes"]
    print(
        f"  moves acknowledged: {stats.moves} in {elapsed:.1f} s = {stats.moves / elapsed:.0f}"
        f" moves/s; games finished {stats.games_finished}, rematches joined"
        f" {stats.reconnects}; computer moves {health['computer_moves']}"
    )
    print(
        f"  round trip: p50 {p50:.1f} ms, p99 {p99:.1f} ms (target p99 < {TARGET_P99_MS:.0f}"
        f" ms: {'met' if p99 < TARGET_P99_MS else 'NOT met'}); errors {len(stats.errors)}"
    )
    ratios = [
        (
            percentile(game, 0.99) / percentile(floor, 0.99),
            percentile(game, 0.5) / percentile(floor, 0.5),
        )
        for game, floor in stats.rounds
        if game and floor
    ]
    if ratios and stats.echoes:
        p99s = [r[0] for r in ratios]
        p50s = [r[1] for r in ratios]
        print(
            f"  bare Starlette echo, same clients and pauses, {len(ratios)} interleaved rounds:"
            f" p50 {percentile(stats.echoes, 0.5):.1f} ms, p99 {percentile(stats.echoes, 0.99):.1f}"
            f" ms; move / echo p99: median {statistics.median(p99s):.1f}x, mean"
            f" {statistics.mean(p99s):.1f}x, worst {max(p99s):.1f}x (p50: median"
            f" {statistics.median(p50s):.1f}x, worst {max(p50s):.1f}x)"
        )
    print_cpu(stats.cpu)
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
    print_problems(stats.errors, tail)


if __name__ == "__main__":
    main(sys.argv[1:])
