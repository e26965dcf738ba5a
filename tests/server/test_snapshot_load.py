"""Loading a game from PostgreSQL while another node commits to it gives one consistent
game (one snapshot): never the game row of one commit with the moves of the next, which
would show a client a position under an older state number."""

from __future__ import annotations

import asyncio
import threading

from sansu.server.app.assemble import assemble


async def race(db: str) -> list[tuple[int, int]]:
    judge = assemble(db, computer_workers=0).service
    reader = assemble(db, computer_workers=0).service
    for service in (judge, reader):
        service.store.open()
    torn: list[tuple[int, int]] = []
    done = threading.Event()
    try:
        live, token = await judge.create("thirtyfive", {"rows": 12, "cols": 12})
        _, _, second = await judge.join(live.id, 1)
        tokens = {0: token, 1: second}

        def load() -> None:
            while not done.is_set():
                copy = reader.rounds.load(live.id)
                if len(copy.moves) != copy.version:  # a game of moves only: one per state
                    torn.append((copy.version, len(copy.moves)))

        thread = threading.Thread(target=load)
        thread.start()
        for _ in range(120):
            move = live.state.legal_moves()[0]
            await judge.play(live.id, tokens[live.state.to_move], str(move), live.version)
        done.set()
        thread.join()
    finally:
        done.set()
        for service in (judge, reader):
            await service.stop()
            await service.store.drain()
            service.store.close()
    return torn


def test_a_game_loaded_during_commits_is_one_snapshot(postgres_url: str) -> None:
    assert asyncio.run(race(postgres_url)) == []
