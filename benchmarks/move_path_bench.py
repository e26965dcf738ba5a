"""The server's CPU per move without sockets: where a move's time goes inside the server.

The socket benchmark (``server_bench.py``) measures the whole server under load, but its
figures move by ±25% between runs with the machine's load and the moves each commit
gathers. This one drives the game service in-process, one move at a time (so one move
per commit, the costliest case) and then with 30 games moving at once, with two fake
connections per game that take every message the hub sends them, and prints:

- the process's CPU per move (the event loop and the commit thread together);
- the parts timed inside it: the store's statements (``write_rows``), the views
  (``State.view``: every legal move listed), and the durable commit in its thread;
- the floor, measured in the same run: the same moves on the bare engine (``play``,
  then the spectators' view as JSON), and the server's ratio to it.

Usage: ``python benchmarks/move_path_bench.py [--moves 4000] [--db-dir DIR | --db URL]``
(``DIR`` on a real disk counts the fsync's CPU; on ``/dev/shm`` it does not; ``URL`` a
PostgreSQL server, on which each run gets a database of its own, as a cluster's nodes
write: its own CPU is not counted, only the server process's).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import sansu
from sansu.core import protocol
from sansu.server.app.create import create_app
from sansu.server.base import store as store_module
from sansu.server.base.store import normalise_url
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--db-dir", default=None, help="where the SQLite file goes")
    parser.add_argument("--db", default=None, help="a PostgreSQL server's URL instead")
    parser.add_argument("--seed", type=int, default=1)
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
            f" views {per['views']:.3f} ms, durable commit (wall, its thread)"
            f" {1000 * got['commit'] / moves:.3f} ms"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
