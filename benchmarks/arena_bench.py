"""Bots in one arena: N bot accounts play an Ultimate Tic-Tac-Toe arena on loopback.

Starts ``sansu serve`` on a free port with a fresh SQLite file, signs up N
bot accounts with API tokens and a person who creates the arena, and runs
the N bots in this process as asyncio clients of the bot API (their event
stream, one stream per game, moves by POST): each enters the arena through
``/api/bot/tournament/{id}/join``, plays every game it is given with a random
legal move after a random pause (uniform, ``--think-ms`` on average), and is
paired again as soon as it is free. Reports games finished per minute, the
move latency at p50/p99 — from sending the move to its event arriving on the
bot's game stream, so the commit, the fan-out and the stream are all in it —
and errors (refused moves, failed streams; the target is zero), with the CPU
load seen. The figures are absolute: compare runs on the same machine.

Usage: ``python benchmarks/arena_bench.py [--bots 100] [--seconds 120]
[--think-ms 200] [--time 60+1]`` (``benchmarks/run.py arena`` uses the defaults).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from bench_processes import (  # a sibling: benchmarks/
    children_cpu,
    cpu_seconds,
    free_port,
    print_problems,
    stop,
    wait_healthy,
)

PASSWORD = "benchmark-password"


class Stats:
    """What the bots saw (a plain class: benchmarks/run.py loads this file unregistered)."""

    def __init__(self) -> None:
        self.measuring = False
        self.stopped = False
        """Set when the bots are stopped: what fails after that is the stopping."""
        self.latencies: list[float] = []
        self.pending: dict[tuple[str, int], float] = {}
        self.started: set[str] = set()
        self.finished: set[str] = set()
        self.moves = 0
        self.errors: list[str] = []

    def error(self, what: str) -> None:
        if not self.stopped:
            self.errors.append(what)


class Bot:
    """One bot account: its event stream, and a task per game it is given."""

    def __init__(
        self, url: str, token: str, tid: str, stats: Stats, rng: random.Random, think: float
    ) -> None:
        self.client = httpx.AsyncClient(
            base_url=url,
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(30.0, read=60.0),
            limits=httpx.Limits(max_connections=8),
        )
        self.tid = tid
        self.stats = stats
        self.rng = rng
        self.think = think
        self.games: dict[str, asyncio.Task[None]] = {}
        self.sending: set[asyncio.Task[None]] = set()

    async def join(self) -> None:
        r = await self.client.post(f"/api/bot/tournament/{self.tid}/join")
        r.raise_for_status()

    async def run(self) -> None:
        try:
            async with self.client.stream("GET", "/api/bot/stream/events") as r:
                async for line in r.aiter_lines():
                    if not line.strip():
                        continue
                    event = json.loads(line)
                    game = event.get("game") or {}
                    ours = event["type"] == "gameStart" and game.get("tournament") == self.tid
                    if ours and game["id"] not in self.games:
                        self.games[game["id"]] = asyncio.create_task(self.play(game["id"]))
        finally:
            for task in [*self.games.values(), *self.sending]:
                task.cancel()
            await self.client.aclose()

    async def play(self, gid: str) -> None:
        stats = self.stats
        you: list[int] = []
        posted = -1
        try:
            async with self.client.stream("GET", f"/api/bot/game/stream/{gid}") as r:
                async for line in r.aiter_lines():
                    if not line.strip():
                        continue
                    message = json.loads(line)
                    kind = message.get("type")
                    if kind == "gameFull":
                        you = message["you"]
                        stats.started.add(gid)
                    elif kind == "move":
                        sent = stats.pending.pop((gid, message["state"]), None)
                        if sent is not None and stats.measuring:
                            stats.latencies.append(time.perf_counter() - sent)
                    elif kind == "game_over":
                        if stats.measuring:
                            stats.finished.add(gid)
                        return
                    if kind not in ("gameFull", "move") or message.get("status") != "active":
                        continue
                    view, state = message["view"], message["state"]
                    if view["to_move"] in you and state != posted:
                        posted = state
                        move = self.rng.choice(view["legal_moves"])
                        task = asyncio.create_task(self.move(gid, move, state))
                        self.sending.add(task)
                        task.add_done_callback(self.sending.discard)
        except (httpx.HTTPError, json.JSONDecodeError, KeyError) as error:
            stats.error(f"game {gid} stream: {error!r}")

    async def move(self, gid: str, move: str, state: int) -> None:
        await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
        self.stats.pending[(gid, state + 1)] = time.perf_counter()
        try:
            r = await self.client.post(
                f"/api/bot/game/{gid}/move", json={"move": move, "state": state}
            )
        except httpx.HTTPError as error:
            self.stats.error(f"move {gid}@{state}: {error!r}")
            return
        if r.status_code == 200:
            self.stats.moves += self.stats.measuring
        elif not (r.status_code == 409 and r.json()["error"]["code"] == "game_over"):
            self.stats.error(f"move {gid}@{state}: {r.status_code} {r.text[:120]}")


async def sign_up(url: str, n: int) -> tuple[list[str], httpx.AsyncClient, dict[str, str]]:
    """N bot tokens, and the signed-in host (its client and CSRF header)."""
    gate = asyncio.Semaphore(4)

    async def account(name: str, bot: bool) -> tuple[httpx.AsyncClient, dict[str, str]]:
        async with gate:
            web = httpx.AsyncClient(base_url=url, timeout=60)
            body = {"name": name, "password": PASSWORD, "bot": bot}
            r = await web.post("/api/account/signup", json=body)
            r.raise_for_status()
            return web, {"X-CSRF-Token": r.json()["csrf_token"]}

    async def token(i: int) -> str:
        web, csrf = await account(f"bench{i:03d}", True)
        try:
            r = await web.post("/api/account/tokens", json={"label": "bench"}, headers=csrf)
            r.raise_for_status()
            return r.json()["token"]
        finally:
            await web.aclose()

    tokens = await asyncio.gather(*(token(i) for i in range(n)))
    host, csrf = await account("benchhost", False)
    return list(tokens), host, csrf


async def drive(url: str, args: argparse.Namespace) -> tuple[Stats, float]:
    stats = Stats()
    t0 = time.perf_counter()
    tokens, host, csrf = await sign_up(url, args.bots)
    initial, _, increment = args.time.partition("+")
    spec = {
        "format": "arena",
        "game": "uttt",
        "time_control": {
            "initial_seconds": float(initial),
            "increment_seconds": float(increment or 0),
        },
        "minutes": max(1, math.ceil(args.seconds / 60) + 1),
        "streak": True,
    }
    r = await host.post("/api/tournaments", json=spec, headers=csrf)
    r.raise_for_status()
    tid = r.json()["id"]
    bots = [
        Bot(url, t, tid, stats, random.Random(i), args.think_ms / 1000)
        for i, t in enumerate(tokens)
    ]
    for b in bots:
        await b.join()
    print(f"  {args.bots} bot accounts signed up and entered in {time.perf_counter() - t0:.1f} s")
    tasks = [asyncio.create_task(b.run()) for b in bots]
    await asyncio.sleep(1.0)  # every event stream open
    r = await host.post(f"/api/tournaments/{tid}/start", headers=csrf)
    r.raise_for_status()
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    start = time.perf_counter()
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - start
    stats.stopped = True
    for task in tasks:
        task.cancel()
    for result in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            stats.error(f"bot failed: {result!r}")
    await host.aclose()
    return stats, elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=120.0, help="measured (after warm-up)")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think-ms", type=float, default=200.0, help="mean pause before a move")
    parser.add_argument("--time", default="60+1", help="time control INITIAL+INCREMENT seconds")
    args = parser.parse_args(argv if argv is not None else [])
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    limits = "100000000/minute"
    with tempfile.TemporaryDirectory(prefix="sansu-arena-") as tmp:
        log = Path(tmp) / "server.log"
        with log.open("wb") as out:
            server = subprocess.Popen(
                [sys.executable, "-m", "sansu", "serve", "--port", str(port),
                 "--db", str(Path(tmp) / "arena.db"), "--log-level", "warning",
                 "--rate-limit-requests", limits, "--rate-limit-creates", limits,
                 "--rate-limit-accounts", limits, "--rate-limit-sockets", "none"],
                stdout=out, stderr=out,
            )  # fmt: skip
        try:
            wait_healthy(url, server, log)
            print(
                f"arena benchmark: {args.bots} bots (asyncio clients of the bot API in one "
                f"process), uttt {args.time}, random moves after {args.think_ms:.0f} ms mean,"
                f" {args.seconds:.0f} s measured, {os.cpu_count()} cores"
            )
            load_before = os.getloadavg()
            cpu0, kids0 = cpu_seconds(server.pid), children_cpu(server.pid)
            client0, wall0 = time.process_time(), time.perf_counter()
            stats, elapsed = asyncio.run(drive(url, args))
            whole = time.perf_counter() - wall0
            client_share = (time.process_time() - client0) / whole
            server_cpu = cpu_seconds(server.pid) - cpu0 + children_cpu(server.pid) - kids0
        finally:
            stop(server)
        tail = log.read_text()[-2000:]
    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else float("nan")
    minutes = elapsed / 60
    print(
        f"  games finished: {len(stats.finished)} in {elapsed:.0f} s ="
        f" {len(stats.finished) / minutes:.1f} games/minute; moves {stats.moves}"
        f" ({stats.moves / elapsed:.0f}/s); games started in all {len(stats.started)}"
    )
    print(
        f"  move latency (sent -> its event on the game stream): p50 {p50:.1f} ms,"
        f" p99 {p99:.1f} ms over {len(lat)} moves; errors {len(stats.errors)} (target 0)"
    )
    print(
        f"  client process CPU {100 * client_share:.0f}% of a core; server CPU"
        f" {100 * server_cpu / whole:.0f}% of a core; load average before"
        f" {load_before[0]:.1f}, after {os.getloadavg()[0]:.1f}"
    )
    print_problems(stats.errors, tail)


if __name__ == "__main__":
    main(sys.argv[1:])
