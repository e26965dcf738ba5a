"""A cluster of three nodes against one node, under the same load, and the failover time.

Starts PostgreSQL and Redis (``scripts/postgres-for-tests``,
``scripts/redis-for-tests``), one ``sansu serve`` node on a database of its
own, and three ``sansu serve --redis`` nodes on another. The same load is
put on each (games between two WebSocket clients playing random legal moves
after a random pause, games against the computer alongside; for the
cluster, the games are created round-robin and, with ``--route game`` (the
default), every socket of a game connects to one node, chosen by hashing the game
id as the shipped load balancer does, or with ``--route turn`` client *i* to node
*i* mod 3), in rounds that alternate between the two (the other side's
clients hold their moves meanwhile), and the figures of each side are
pooled over its rounds: moves per second, the move round trip (sent →
acknowledged) at p50/p99, errors. Then the failover: a game judged by one
node, that node killed with SIGKILL, and moves sent to another node until one
is acknowledged. With ``--ramp`` (the default), the load then rises step by
step, each step halving the clients' pause, until each side's round trip p99
passes 100 ms: the moves a second one node and three sustain, and their nodes'
CPU per move at each step.

Usage: ``python benchmarks/cluster_bench.py [--games 500] [--computer-games 20]
[--seconds 30] [--rounds 3] [--think-ms 1000] [--ramp 6] [--route game|turn]
[--node-cpu SHARE]``; the
defaults are the full load (500 games and 1,000 WebSocket clients per side), as
``./scripts/bench cluster`` runs it; ``--games 100 --computer-games 6 --seconds 12``
is a quick look.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
import uuid
import zlib
from pathlib import Path
from typing import Any

import httpx
from bench_processes import CpuQuota  # a sibling: benchmarks/

HERE = Path(__file__).resolve().parent
TARGET_MS = 100.0
"""The round trip p99 past which a side counts as saturated (``--ramp``)."""
STATS_FLUSH = 1.5
"""Seconds PostgreSQL may take to count a busy connection's transactions in its statistics."""
ROOT = HERE.parent


def _server_bench() -> Any:
    """The clients of the single server's benchmark (loaded as benchmarks/run.py does)."""
    spec = importlib.util.spec_from_file_location("server_bench", HERE / "server_bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sb = _server_bench()


def enough_files() -> None:
    """Raises this process's open-file limit (its nodes inherit it): every client holds a
    socket here and one in a node."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def script(name: str, *args: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [str(ROOT / "scripts" / name), *args], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def new_database(admin_url: str) -> str:
    import sqlalchemy as sa

    name = f"sansu_bench_{uuid.uuid4().hex[:8]}"
    engine = sa.create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with engine.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return admin_url.rsplit("/", 1)[0] + "/" + name


def start_node(
    db: str, log: Path, redis: str | None = None, quota: CpuQuota | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    """A ``sansu serve`` node, held to ``quota``'s share of a core if given."""
    port = sb.free_port()
    command = [sys.executable, "-m", "sansu", "serve", "--port", str(port), "--db", db]
    command += ["--log-level", "warning", "--computer-time-ms", "50"]
    command += ["--rate-limit-requests", "none", "--rate-limit-creates", "none"]
    command += ["--rate-limit-sockets", "none"]
    if redis:
        command += ["--redis", redis]
    if quota is not None:
        command = quota.wrap(command)
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=out)
    url = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 120
    while time.monotonic() < end:
        if process.poll() is not None:
            raise RuntimeError(log.read_text()[-2000:])
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError("a node did not start")


async def clients_for(
    urls: list[str], stats: Any, args: argparse.Namespace, stop: asyncio.Event
) -> list[Any]:
    """Creates the games (round-robin over ``urls``) and one client per human seat."""
    seats: list[tuple[str, str, bool, str]] = []
    per_node = [args.games // len(urls) + (i < args.games % len(urls)) for i in range(len(urls))]
    computers = [
        args.computer_games // len(urls) + (i < args.computer_games % len(urls))
        for i in range(len(urls))
    ]
    for url, games, computer_games in zip(urls, per_node, computers, strict=True):
        made = await sb.create_games(url, games, computer_games, random.Random(len(seats)))
        seats += [(gid, token, leader, url) for gid, token, leader in made]
    sockets = [url.replace("http", "ws", 1) for url in urls]
    return [
        RoutedSeat(
            sockets,
            i if args.route == "turn" else None,
            gid,
            token,
            stats,
            random.Random(i),
            args.think_ms / 1000,
            stop,
            leader,
        )
        for i, (gid, token, leader, _url) in enumerate(seats)
    ]


def node_of(game_id: str, urls: list[str]) -> str:
    """The node a load balancer hashing the game id sends a game's requests to (as
    ``deploy/nginx/upstream-cluster.conf`` does; which hash does not matter here)."""
    return urls[zlib.crc32(game_id.encode()) % len(urls)]


class RoutedSeat(sb.Seat):
    """A player's socket on the node of its game (``--route game``: every socket of a
    game, rematches included, on one node), or on a node of its own (``--route turn``:
    client ``i`` on node ``i`` mod N, as a load balancer without stickiness spreads them)."""

    def __init__(self, urls: list[str], turn: int | None, *args: Any) -> None:
        super().__init__(urls[0], *args)
        self.urls, self.turn = urls, turn

    async def _play_game(self) -> str | None:
        if self.turn is None:
            self.url = node_of(self.game_id, self.urls)
        else:
            self.url = self.urls[self.turn % len(self.urls)]
        return await super()._play_game()


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds used so far by ``pids`` and every process below them (from /proc)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, list(pids)
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return total


class Meter:
    """What a side costs: its nodes' CPU seconds, its database's transactions and rows
    fetched (``pg_stat_database``), and the moves stored, between two readings."""

    def __init__(self, db: str, pids: list[int]) -> None:
        import sqlalchemy as sa

        self.engine = sa.create_engine(db)
        self.pids = pids
        self.first: tuple[float, ...] | None = None
        self.last: tuple[float, ...] | None = None

    def read(self) -> tuple[float, ...]:
        import sqlalchemy as sa

        with self.engine.connect() as c:
            xacts, fetched = c.execute(
                sa.text(
                    "SELECT xact_commit + xact_rollback, tup_fetched FROM pg_stat_database"
                    " WHERE datname = current_database()"
                )
            ).one()
            moves = c.execute(sa.text("SELECT count(*) FROM moves")).scalar_one()
        return (cpu_seconds(self.pids), float(xacts), float(fetched), float(moves))

    def start(self) -> None:
        self.first = self.read()

    def stop(self) -> None:
        self.last = self.read()
        self.engine.dispose()

    def line(self, name: str) -> str:
        assert self.first is not None and self.last is not None
        return self.row(name, [b - a for a, b in zip(self.first, self.last, strict=True)])

    @staticmethod
    def cpu_per_move(used: list[float]) -> float:
        """CPU seconds per move stored, of what was used (see :meth:`row`)."""
        return used[0] / max(used[3], 1.0)

    @staticmethod
    def row(name: str, used: list[float]) -> str:
        """A table row of what was used: CPU seconds, transactions, rows fetched, moves."""
        _, xacts, fetched, moves = used
        moves = max(moves, 1.0)
        return (
            f"| {name} | {moves:.0f} | {1000 * Meter.cpu_per_move(used):.2f} ms"
            f" | {xacts / moves:.1f} | {fetched / moves:.1f} |"
        )


def summary(name: str, latencies: list[float], seconds: float, errors: list[str]) -> str:
    if not latencies:
        return f"| {name} | 0/s | — | {len(errors)} |"
    return (
        f"| {name} | {len(latencies) / seconds:.0f}/s | {sb.percentile(latencies, 0.5):.1f} ms /"
        f" {sb.percentile(latencies, 0.99):.1f} ms | {len(errors)} |"
    )


async def measure(
    single: str, cluster: list[str], args: argparse.Namespace, meters: dict[str, Meter]
) -> None:
    one, three = sb.Stats(), sb.Stats()
    stop = asyncio.Event()
    clients = [
        *await clients_for([single], one, args, stop),
        *await clients_for(cluster, three, args, stop),
    ]
    print(f"  {len(clients)} clients, half on the single node, half on the cluster")
    loads = [os.getloadavg()[0]]
    tasks = []
    for i, client in enumerate(clients):
        tasks.append(asyncio.ensure_future(client.run()))
        if i % 50 == 49:
            await asyncio.sleep(0.05)
    pooled: dict[str, list[float]] = {"one": [], "three": []}
    elapsed = {"one": 0.0, "three": 0.0}
    each = args.seconds / args.rounds
    await asyncio.sleep(args.warmup)
    for meter in meters.values():
        meter.start()
    during: dict[str, list[float]] = {"one": [0.0] * 4, "three": [0.0] * 4}
    for _ in range(args.rounds):
        for side, stats in (("one", one), ("three", three)):
            got, seconds, used = await timed_round(stats, (one, three), each, meters[side])
            elapsed[side] += seconds
            pooled[side] += got
            during[side] = [a + b for a, b in zip(during[side], used, strict=True)]
            loads.append(os.getloadavg()[0])
    if args.ramp:
        await ramp(clients, {"one": one, "three": three}, args, meters)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(STATS_FLUSH)
    for meter in meters.values():
        meter.stop()
    inside = []
    async with httpx.AsyncClient(timeout=10) as c:
        for url in [single, *cluster]:
            health = (await c.get(f"{url}/api/health")).json()
            handling, lag = health.get("handling_ms") or {}, health.get("loop_lag_ms") or {}
            line = (
                f"{url.rsplit(':', 1)[1]}: a move handled in {handling.get('p50')} ms p50 /"
                f" {handling.get('p99')} ms p99, event loop late {lag.get('p99')} ms p99"
            )
            node = health.get("cluster")
            if node:
                line += (
                    f"; calls forwarded {node['forwarded']}, answered {node['answered']};"
                    f" games handed over {node['handovers']}, taken {node['takeovers']};"
                    f" news applied {node['news_applied']}, not sent (nobody listening)"
                    f" {node.get('news_skipped', '?')}; store reads {node['store_reads']}"
                )
            inside.append(line)
    print(f"  load average (1 min) during the rounds: {min(loads):.1f}–{max(loads):.1f}")
    print("| server | moves acknowledged | round trip p50 / p99 | errors |")
    print("|---|---|---|---|")
    print(summary("1 node", pooled["one"], elapsed["one"], one.errors))
    print(summary("3 nodes", pooled["three"], elapsed["three"], three.errors))
    for name, stats in (("1 node", one), ("3 nodes", three)):
        for error in sorted(set(stats.errors))[:5]:
            print(f"  {name} error: {error}")
    print("the cost of each side over the whole run (CPU: all its nodes, with their workers):")
    print("| per move stored | moves stored | node CPU | DB transactions | rows fetched |")
    print("|---|---|---|---|---|")
    print(meters["one"].line("1 node"))
    print(meters["three"].line("3 nodes"))
    print("the same, counted only while the side's own rounds were measured (not while it")
    print("waited for the other side's, nor its warm-up), as server_bench.py counts a server:")
    print("| per move stored | moves stored | node CPU | DB transactions | rows fetched |")
    print("|---|---|---|---|---|")
    print(Meter.row("1 node", during["one"]))
    print(Meter.row("3 nodes", during["three"]))
    ratio = Meter.cpu_per_move(during["three"]) / Meter.cpu_per_move(during["one"])
    print(f"3 nodes ÷ 1 node, node CPU per move in the rounds: {ratio:.2f}x (aim: 1.5x)")
    print("inside the nodes (the single node first):")
    for line in inside:
        print(f"  {line}")


async def timed_round(
    stats: Any, sides: Any, seconds: float, meter: Meter | None = None
) -> tuple[list[float], float, tuple[float, ...]]:
    """One measured round: only ``stats``' side plays (of ``sides``), settles, then is
    measured for ``seconds``. Its round trips, the seconds it ran, and what ``meter``
    counted meanwhile (nothing without one)."""
    for other in sides:
        other.playing.clear()
    stats.playing.set()
    await asyncio.sleep(sb.SETTLE)
    before, first = len(stats.latencies), meter.read() if meter else ()
    stats.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    used = tuple(b - a for a, b in zip(first, meter.read(), strict=True)) if meter else ()
    return stats.latencies[before:], elapsed, used


async def ramp(
    clients: list[Any], sides: dict[str, Any], args: argparse.Namespace, meters: dict[str, Meter]
) -> None:
    """Raises the load step by step (each step halves the clients' mean pause) until each
    side's round trip p99 passes the target: the moves a second each side sustains below
    it, and its nodes' CPU per move stored at each step (the sides alternate, as above)."""
    each = args.seconds / args.rounds
    think = args.think_ms
    saturated: set[str] = set()
    print(f"saturation: the clients' pause halves each step until p99 passes {TARGET_MS:.0f} ms")
    print("| mean pause | server | moves acknowledged | round trip p50 / p99 | node CPU a move |")
    print("|---|---|---|---|---|")
    for _ in range(args.ramp):
        think /= 2
        for client in clients:
            client.think = think / 1000
        for side, stats in sides.items():
            if side in saturated:
                continue
            got, seconds, used = await timed_round(stats, sides.values(), each, meters[side])
            cpu, _, _, stored = used
            p99 = sb.percentile(got, 0.99) if got else float("inf")
            name = "1 node" if side == "one" else "3 nodes"
            print(
                f"| {think:.0f} ms | {name} | {len(got) / seconds:.0f}/s |"
                f" {sb.percentile(got, 0.5) if got else float('nan'):.1f} ms / {p99:.1f} ms |"
                f" {1000 * cpu / max(stored, 1):.2f} ms |"
            )
            if p99 > TARGET_MS:
                saturated.add(side)
        if len(saturated) == len(sides):
            break


def failover(urls: list[str], nodes: list[subprocess.Popen[bytes]]) -> float:
    """Seconds from killing a game's judge to the first move acknowledged on another node."""
    created = httpx.post(f"{urls[0]}/api/games", json={"game": "uttt"}, timeout=10).json()
    gid, token = created["id"], created["token"]
    second = httpx.post(f"{urls[1]}/api/games/{gid}/join", json={}, timeout=10).json()["token"]
    tokens = {0: token, 1: second}
    nodes[0].send_signal(signal.SIGKILL)
    nodes[0].wait()
    killed = time.monotonic()
    with httpx.Client(timeout=10) as c:
        while time.monotonic() < killed + 30:
            game = c.get(f"{urls[1]}/api/games/{gid}").json()
            seat = game["view"]["to_move"]
            r = c.post(
                f"{urls[1]}/api/games/{gid}/moves",
                headers={"Authorization": f"Bearer {tokens[seat]}"},
                json={"move": game["view"]["legal_moves"][0], "state": game["state"]},
            )
            if r.status_code == 200:
                return time.monotonic() - killed
            time.sleep(0.05)
    raise RuntimeError("no move was acknowledged within 30 s of the kill")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="games per side")
    parser.add_argument("--computer-games", type=int, default=20, help="per side")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured, per side")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--think-ms", type=float, default=1000.0)
    parser.add_argument(
        "--route",
        choices=("game", "turn"),
        default="game",
        help="the cluster's clients: game: every socket of a game on one node (a load balancer"
        " hashing the game id, as the shipped nginx upstream); turn: client i on node i mod 3",
    )
    parser.add_argument(
        "--node-cpu",
        type=float,
        default=None,
        metavar="SHARE",
        help="hold each node (the single one and each of the three) to this share of one core"
        " (a Linux control group; root): nodes as machines of a fixed size, so that the"
        " ramp shows what three carry against one on a machine with few cores",
    )
    parser.add_argument(
        "--ramp",
        type=int,
        default=6,
        help="after the rounds, steps of rising load (each halves the pause) until p99 passes"
        " 100 ms on each side; 0: none",
    )
    args = parser.parse_args(argv if argv is not None else [])
    if args.node_cpu is not None and not 0 < args.node_cpu <= 64:
        parser.error(f"--node-cpu must be above 0 and at most 64 (cores), not {args.node_cpu:g}")
    enough_files()
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)  # as root, PostgreSQL runs as its own user: it must reach its state
        env = dict(os.environ)
        env.setdefault("SANSU_PG_STATE", f"{tmp}/postgres")
        env.setdefault("SANSU_REDIS_STATE", f"{tmp}/redis")
        own_pg = "SANSU_TEST_POSTGRES_URL" not in os.environ
        admin = os.environ.get("SANSU_TEST_POSTGRES_URL") or script(
            "postgres-for-tests", "start", env=env
        )
        redis = script("redis-for-tests", "start", env=env)
        processes: list[subprocess.Popen[bytes]] = []
        quotas: list[CpuQuota] = []
        if args.node_cpu is not None:
            tag = uuid.uuid4().hex[:8]
            quotas = [CpuQuota(f"sansu-bench-{tag}-{i}", args.node_cpu) for i in range(4)]
        try:
            single_db = new_database(admin)
            single, single_url = start_node(
                single_db, Path(tmp) / "single.log", quota=quotas[0] if quotas else None
            )
            processes.append(single)
            shared = new_database(admin)
            cluster_urls = []
            for i in range(3):  # one at a time: the first one migrates the schema
                node, url = start_node(
                    shared, Path(tmp) / f"node{i}.log", redis, quotas[i + 1] if quotas else None
                )
                processes.append(node)
                cluster_urls.append(url)
            print(
                f"cluster benchmark: {args.games} games + {args.computer_games} against the"
                f" computer per side, {args.seconds:.0f} s measured per side in {args.rounds}"
                f" interleaved rounds, {args.think_ms:.0f} ms mean pause, the cluster's"
                f" sockets routed by {args.route}"
                + (f", each node held to {args.node_cpu:g} of a core" if quotas else "")
            )
            meters = {
                "one": Meter(single_db, [single.pid]),
                "three": Meter(shared, [p.pid for p in processes[1:]]),
            }
            asyncio.run(measure(single_url, cluster_urls, args, meters))
            took = failover(cluster_urls, processes[1:])
            print(f"failover: first move acknowledged {took:.2f} s after the judge was killed")
        finally:
            for process in processes:
                if process.poll() is None:
                    process.send_signal(signal.SIGINT)
            for process in processes:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
            for quota in quotas:
                quota.remove()
            script("redis-for-tests", "stop", env=env)
            if own_pg:
                script("postgres-for-tests", "stop", env=env)


if __name__ == "__main__":
    main(sys.argv[1:])
