"""What one PostgreSQL server and one Redis server carry for a cluster, on this machine.

- **PostgreSQL**: moves committed per second through the server's own store, each
  as a node commits a move (the fence on the game's event number, the move and its
  event inserted, the game's row updated), with 1, 16 and 256 games committing at
  once (the store commits what waits together: one fsync for a batch).
- **Redis**: a move's news (as :mod:`sansu.server.cluster.news` makes it) published
  in pipelined batches as a node publishes them, received by no other node and by
  two; the figure is Redis's own CPU time per news (``INFO cpu``), which says how
  many one Redis core carries, whatever the speed of the Python clients here.

Usage: ``python benchmarks/backends_bench.py [--seconds 5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(HERE))

import cluster_bench as cb  # noqa: E402  (its helpers: PostgreSQL, Redis, databases)


def postgres_costs(db: str) -> tuple[float, int]:
    """(CPU seconds used so far by the PostgreSQL server, WAL bytes written so far)."""
    import sqlalchemy as sa

    engine = sa.create_engine(db)
    with engine.connect() as c:
        backend = c.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()
        wal = c.execute(sa.text("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")).scalar_one()
    engine.dispose()
    stat = Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()
    return cb.cpu_seconds([int(stat[1])]), int(wal)  # the postmaster and every backend


async def postgres_moves(db: str, in_flight: int, seconds: float) -> tuple[float, float, float]:
    """(moves committed per second, PostgreSQL CPU µs and WAL bytes per move) with
    ``in_flight`` games committing at once."""
    from sansu.server.base.schema import events, games, moves
    from sansu.server.base.store import Rows, Store
    from sansu.server.play.computer import ComputerRunner
    from sansu.server.play.hub import Hub
    from sansu.server.play.service import GameService

    service = GameService(Store(db), Hub(), ComputerRunner(0))
    service.store.open()
    try:
        made = [(await service.create("uttt"))[0] for _ in range(in_flight)]
        done = 0
        end = time.perf_counter() + seconds

        async def player(game_id: str, seq: int) -> None:
            nonlocal done
            ply = 0
            while time.perf_counter() < end:
                ply, now = ply + 1, time.time()
                rows = Rows()
                rows.insert(
                    moves,
                    {
                        "game_id": game_id,
                        "ply": ply,
                        "text": "r5c5",
                        "seat": 0,
                        "at": now,
                        "state": ply,
                    },
                )
                rows.insert(
                    events,
                    {"game_id": game_id, "seq": seq + 1, "type": "move", "state": ply,
                     "data": {"move": "r5c5", "seat": 0, "ply": ply}, "at": now},
                )  # fmt: skip
                rows.update(games, game_id, {"seq": seq + 1, "version": ply, "updated_at": now})
                rows.fence(games, game_id, "seq", seq, seq + 1)
                await service.store.write(rows)
                seq += 1
                done += 1

        cpu, wal = postgres_costs(db)
        started = time.perf_counter()
        await asyncio.gather(*(player(live.id, live.seq) for live in made))
        rate = done / (time.perf_counter() - started)
        cpu_after, wal_after = postgres_costs(db)
        return rate, 1e6 * (cpu_after - cpu) / done, (wal_after - wal) / done
    finally:
        await service.stop()
        await service.store.drain()
        service.store.close()


def a_news() -> str:
    """A move's news in the middle of a game, as a judge publishes it."""
    import sansu
    from sansu.server.cluster.news import news_of
    from sansu.server.play.live import Event, LiveGame, PlayedMove, Seat

    game = sansu.load_game("thirtyfive")
    state = game.initial_state()
    played = []
    for ply in range(1, 31):
        move = state.legal_moves()[(ply * 7) % len(state.legal_moves())]
        state = state.play(move)
        played.append(PlayedMove(ply, str(move), ply % 2, time.time(), ply))
    seats = [Seat(0, "human", name="Ann", token_hash="0" * 64), Seat(1, "human", name="Bo")]
    live = LiveGame("abcdefghij", game, state, {}, {}, seats, played, version=30, seq=32)
    move = Event(32, "move", 30, {"move": played[-1].text, "seat": 1, "ply": 30}, time.time())
    return json.dumps({**news_of(live, [move]), "node": "0123456789ab"})


async def redis_news(url: str, seconds: float, nodes: int) -> tuple[float, float, int]:
    """(news published per second here, Redis CPU microseconds per news, bytes a news),
    with ``nodes`` connections subscribed to the news."""
    from redis.asyncio import Redis

    message = a_news()
    publisher = Redis.from_url(url)
    listeners = [Redis.from_url(url).pubsub() for _ in range(nodes)]
    received = [0] * nodes
    for pubsub in listeners:
        await pubsub.subscribe("sansu:games:0")

    async def listen(i: int) -> None:
        while True:
            if await listeners[i].get_message(ignore_subscribe_messages=True, timeout=1.0):
                received[i] += 1

    readers = [asyncio.ensure_future(listen(i)) for i in range(nodes)]

    async def cpu() -> float:
        info = await publisher.info("cpu")
        return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])

    before, sent, started = await cpu(), 0, time.perf_counter()
    while time.perf_counter() < started + seconds:
        async with publisher.pipeline(transaction=False) as pipe:
            for _ in range(256):
                pipe.publish("sansu:games:0", message)
            await pipe.execute()
        sent += 256
    elapsed = time.perf_counter() - started
    used = await cpu() - before
    await asyncio.sleep(0.5)
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    for pubsub in listeners:
        await pubsub.aclose()
    await publisher.aclose()
    assert min(received, default=sent) > 0.9 * sent, (received, sent)
    return sent / elapsed, 1e6 * used / sent, len(message)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args(argv if argv is not None else [])
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env.setdefault("SANSU_PG_STATE", f"{tmp}/postgres")
        env.setdefault("SANSU_REDIS_STATE", f"{tmp}/redis")
        own_pg = "SANSU_TEST_POSTGRES_URL" not in os.environ
        admin = os.environ.get("SANSU_TEST_POSTGRES_URL") or cb.script(
            "postgres-for-tests", "start", env=env
        )
        redis = cb.script("redis-for-tests", "start", env=env)
        try:
            print(f"backends: load average {os.getloadavg()[0]:.1f} at the start")
            print(
                "| PostgreSQL: games committing at once | moves committed per second"
                " | its CPU per move | WAL per move |"
            )
            print("|---|---|---|---|")
            for in_flight in (1, 16, 256):
                db = cb.new_database(admin)
                rate, cpu_us, wal = asyncio.run(postgres_moves(db, in_flight, args.seconds))
                print(f"| {in_flight} | {rate:,.0f}/s | {cpu_us:.0f} µs | {wal:,.0f} bytes |")
            print("| Redis: nodes subscribed | news/s published here | Redis CPU per news |")
            print("|---|---|---|")
            for nodes in (0, 2):
                rate, cpu_us, size = asyncio.run(redis_news(redis, args.seconds, nodes))
                print(f"| {nodes} | {rate:,.0f}/s | {cpu_us:.1f} µs |")
            print(f"(a move's news: {size} bytes, published in pipelined batches of 256)")
        finally:
            cb.script("redis-for-tests", "stop", env=env)
            if own_pg:
                cb.script("postgres-for-tests", "stop", env=env)
            print(f"backends: load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main(sys.argv[1:])
