"""The server's CPU per move without sockets: where a move's time goes inside the server.

The socket benchmark (``server_bench.py``) measures the whole server under load, but its
figures move by ±25% between runs with the machine's load and the moves each commit
gathers. This one drives the game service in-process, one move at a time (so one move
per commit, the costliest case) and then with 30 games moving at once, with two fake
connections per game that take every message the hub sends them, and prints:

- the process's CPU per move (the event loop and the commit thread together);
- the parts timed inside it: the store's statements (``write_rows``), the views
  (``State.view``: every legal move listed), and the durable commit (on the event loop
  while the disk is quick, else in its thread);
- the floor, measured in the same run: the same moves on the bare engine (``play``,
  then the spectators' view as JSON), and the server's ratio to it;
- with ``--parts``, what a commit costs below the server (SQLite only): a durable commit
  of a move's two rows on the driver alone (``sqlite3``, the server's pragmas), the same
  rows through the store's batched writer (``Store.write``: statements on the loop, the
  commit on the loop or in its thread), and the bare hand-over to a thread and back
  (``run_in_executor``): how much of a commit's CPU is the disk's and how much the
  server's own.

Usage: ``python benchmarks/move_path_bench.py [--moves 4000] [--db-dir DIR | --db URL] [--parts]``
(``DIR`` on a real disk counts the fsync's CPU; on ``/dev/shm`` it does not; ``URL`` a
PostgreSQL server, on which each run gets a database of its own, as a cluster's nodes
write: its own CPU is not counted, only the server process's).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import sqlite3
import sys
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa

import sansu
from sansu.core import protocol
from sansu.server.app.create import create_app
from sansu.server.base import store as store_module
from sansu.server.base.rows import Rows
from sansu.server.base.store import Store, normalise_url
from sansu.server.play.hub import Connection
from sansu.server.play.live import dumps

MIX = ("uttt", "sansumoku", "thirtyfive", "sumodoku", "challenge")


class Sink:
    """A socket that takes every message and sends nothing."""

    def __init__(self) -> None:
        self.messages = 0

    async def send_text(self, text: str) -> None:
        self.messages += 1

    async def close(self, code: int = 1000, reason: str = "") -> None:
        return None


def timed(spent: dict[str, float], name: str, fn: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.perf_counter() - started

    return wrapper


async def new_game(service: Any, game_id: str) -> list[Any]:
    live, first = await service.create(game_id, take=[0])  # the tokens: entry[1]
    live, _, second = await service.join(live.id)
    for seat in (0, 1):
        connection = Connection(Sink(), live.id, frozenset({seat}))
        service.hub.add(live, connection)
        service.background.spawn(connection.run_sender())
    return [live.id, {0: first, 1: second}]


async def drive(db: str, moves: int, at_once: int, seed: int) -> dict[str, float]:
    spent: dict[str, float] = {}
    app = create_app(db, computer_workers=0, warm_up=False)
    async with app.router.lifespan_context(app):
        service = app.state.service
        rng = random.Random(seed)
        games = [await new_game(service, MIX[i % len(MIX)]) for i in range(max(at_once, 10))]
        done = 0
        store = service.store
        commits0, commit_wall0 = store.batches, store.commit_seconds

        async def player(k: int) -> None:
            nonlocal done
            turn = k
            while done < moves:
                entry = games[turn % len(games)]
                turn += at_once
                live = await service.get(entry[0])
                if live.status != "active":
                    entry[:] = await new_game(service, live.game.id)
                    continue
                move = str(rng.choice(list(live.state.legal_moves())))
                await service.play(live.id, entry[1][live.state.to_move], move, live.version)
                done += 1

        cpu0 = time.process_time()
        await asyncio.gather(*(player(k) for k in range(at_once)))
        await asyncio.sleep(0.05)  # the senders take the last messages
        spent["cpu"] = time.process_time() - cpu0
        spent["moves"] = done
        spent["commits"] = store.batches - commits0
        spent["commit"] = store.commit_seconds - commit_wall0
    return spent


def new_database(server_url: str) -> str:
    """A fresh database on the PostgreSQL server of ``server_url``: its URL."""
    import sqlalchemy as sa

    name = f"sansu_path_{uuid.uuid4().hex[:8]}"
    engine = sa.create_engine(normalise_url(server_url), isolation_level="AUTOCOMMIT")
    with engine.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return server_url.rsplit("/", 1)[0] + "/" + name


def engine_floor(moves: int, seed: int) -> float:
    """CPU per move of the bare engines: play, then the spectators' view as JSON."""
    rng = random.Random(seed)
    states = [sansu.load_game(g).initial_state() for g in MIX]
    done = 0
    spent = 0.0
    while done < moves:
        for i, state in enumerate(states):
            if state.result is not None:
                state = states[i] = state.game.initial_state()
            move = rng.choice(list(state.legal_moves()))
            started = time.process_time()
            state = states[i] = state.play(move)
            dumps(state.view(None))
            spent += time.process_time() - started
            done += 1
    return spent / done


def cpu_seconds() -> float:
    """The process's CPU seconds, user and system, all threads (``os.times`` counts in
    ticks of 10 ms: too coarse here)."""
    return time.process_time()


def driver_commits(path: str, commits: int) -> float:
    """CPU per durable commit of one insert and one update on ``sqlite3`` alone, with the
    server's pragmas (WAL, ``synchronous=FULL``; checkpoints left out, as the server does)."""
    db = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "wal_autocheckpoint=0"):
        db.execute(f"PRAGMA {pragma}")
    db.execute("CREATE TABLE m (g TEXT, n INTEGER, body TEXT, PRIMARY KEY (g, n))")
    db.execute("CREATE TABLE g (id TEXT PRIMARY KEY, seq INTEGER, state TEXT)")
    db.executemany("INSERT INTO g VALUES (?, 0, '')", [(f"g{i}",) for i in range(100)])
    started = cpu_seconds()
    for i in range(commits):
        db.execute("BEGIN")
        db.execute("INSERT INTO m VALUES (?, ?, ?)", (f"g{i % 100}", i, "m" * 120))
        db.execute("UPDATE g SET seq = ?, state = ? WHERE id = ?", (i, "s" * 300, f"g{i % 100}"))
        db.execute("COMMIT")
    spent = cpu_seconds() - started
    db.close()
    return spent / commits


async def store_commits(path: str, commits: int) -> float:
    """CPU per commit of the same two rows, one job a commit, through :class:`Store`."""
    store = Store(path)
    store.open()
    tables = sa.MetaData()
    m = sa.Table(
        "m",
        tables,
        sa.Column("g", sa.Text, primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("body", sa.Text),
    )
    g = sa.Table("g", tables, sa.Column("id", sa.Text, primary_key=True),
                 sa.Column("seq", sa.Integer), sa.Column("state", sa.Text))  # fmt: skip
    tables.create_all(store.engine)
    with store.engine.begin() as connection:
        connection.execute(g.insert(), [{"id": f"g{i}", "seq": 0, "state": ""} for i in range(100)])
    try:
        started = cpu_seconds()
        for i in range(commits):
            rows = Rows()
            rows.insert(m, {"g": f"g{i % 100}", "n": i, "body": "m" * 120})
            rows.update(g, f"g{i % 100}", {"seq": i, "state": "s" * 300})
            await store.write(rows)
        return (cpu_seconds() - started) / commits
    finally:
        await store.drain()
        store.close()


async def hand_overs(count: int) -> float:
    """CPU per hand-over of a call to a one-thread pool and back, as a commit is handed."""
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(1) as pool:
        started = cpu_seconds()
        for _ in range(count):
            await loop.run_in_executor(pool, int)
        return (cpu_seconds() - started) / count


def parts(db_dir: str | None, commits: int) -> None:
    figures: dict[str, list[float]] = {"driver": [], "store": [], "hand": []}
    for _ in range(3):
        with tempfile.TemporaryDirectory(dir=db_dir, prefix="sansu-parts-") as tmp:
            figures["driver"].append(driver_commits(str(Path(tmp) / "driver.db"), commits))
            figures["store"].append(asyncio.run(store_commits(str(Path(tmp) / "s.db"), commits)))
        figures["hand"].append(asyncio.run(hand_overs(commits)))
    median = {k: 1000 * sorted(v)[1] for k, v in figures.items()}
    print(
        f"  a commit's parts ({commits} commits of two rows, median of 3): durable commit on the"
        f" driver alone {median['driver']:.3f} ms of CPU; through the store's writer"
        f" {median['store']:.3f} ms; a hand-over to a thread and back {median['hand']:.3f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--db-dir", default=None, help="where the SQLite file goes")
    parser.add_argument("--db", default=None, help="a PostgreSQL server's URL instead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--parts", action="store_true", help="also time a commit's parts below the server"
    )
    args = parser.parse_args(argv if argv is not None else [])
    spent: dict[str, float] = {}
    store_module.write_rows = timed(spent, "statements", store_module.write_rows)
    protocol.State.view = timed(spent, "views", protocol.State.view)
    floor = engine_floor(args.moves, args.seed)
    print(f"move path in-process: {args.moves} moves of {', '.join(MIX)}; 2 connections a game")
    print(f"  floor, the bare engine (play + spectators' view as JSON): {1000 * floor:.3f} ms")
    for at_once in (1, 30):
        spent.clear()
        with tempfile.TemporaryDirectory(dir=args.db_dir, prefix="sansu-path-") as tmp:
            db = new_database(args.db) if args.db else str(Path(tmp) / "path.db")
            got = asyncio.run(drive(db, args.moves, at_once, args.seed))
        moves = got["moves"]
        per = {k: 1000 * spent.get(k, 0.0) / moves for k in ("statements", "views")}
        cpu = 1000 * got["cpu"] / moves
        print(
            f"  {at_once} game{'s' if at_once > 1 else ''} moving at once"
            f" ({moves / max(got['commits'], 1):.1f} moves a commit): CPU {cpu:.3f} ms a move"
            f" = {cpu / (1000 * floor):.1f}x the floor; statements {per['statements']:.3f} ms,"
            f" views {per['views']:.3f} ms, durable commit (wall)"
            f" {1000 * got['commit'] / moves:.3f} ms"
        )
    if args.parts and not args.db:
        parts(args.db_dir, max(args.moves // 2, 200))


if __name__ == "__main__":
    main(sys.argv[1:])
