"""The fence of a cluster's commits: two servers on one database, each believing it judges
a game, and only a change made from the stored state is ever committed (the
stored event number is checked in the commit's transaction; the events' primary
key would refuse a stale change too)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from sqlalchemy import select

from sansu.server.app.assemble import assemble
from sansu.server.base.errors import ApiError
from sansu.server.base.schema import events as events_table
from sansu.server.base.schema import moves as moves_table
from sansu.server.cluster.node import Cluster, Fenced
from sansu.server.play.live import Event, LiveGame
from sansu.server.play.service import GameService


class BelievedJudge:
    """A node's judging as the rounds see it, with the cluster's own fence; it judges
    whatever it is told (as a node does that lost its lease without knowing)."""

    fence = staticmethod(Cluster.fence)

    def __init__(self) -> None:
        self.held: set[str] = set()
        self.lost_games: list[str] = []

    def judges(self, game_id: str) -> bool:
        return game_id in self.held

    async def before_commit(self, live: LiveGame) -> None:
        if live.id not in self.held:
            raise ApiError(503, "judged_elsewhere", "not judged here")

    def committed(self, live: LiveGame, events: list[Event]) -> None:
        pass

    def lost(self, live: LiveGame) -> None:
        self.lost_games.append(live.id)

    async def loading(self, game_id: str) -> None:
        pass

    def unloaded(self, game_id: str) -> None:
        pass


def node(db: str) -> tuple[GameService, BelievedJudge]:
    service = assemble(db, computer_workers=0).service
    judge = BelievedJudge()
    service.rounds.judge = judge
    service.store.open()
    return service, judge


async def scenario(db: str, seed: int) -> None:
    a, judge_a = node(db)
    b, judge_b = node(db)
    try:
        live, token0 = await a.create("uttt")
        judge_a.held.add(live.id)
        judge_b.held.add(live.id)
        _, _, token1 = await a.join(live.id, 1)
        tokens = {0: token0, 1: token1}
        rng = random.Random(seed)
        committed: list[str] = []
        for _ in range(24):
            service = rng.choice((a, b))
            if rng.random() < 0.5:  # this node refreshes its copy from the store
                service.rounds.games.pop(live.id, None)
            copy = await service.rounds.get(live.id)
            stored_seq = await service.store.read(
                lambda c: c.execute(
                    select(events_table.c.seq)
                    .where(events_table.c.game_id == live.id)
                    .order_by(events_table.c.seq.desc())
                ).first()[0]
            )
            fresh = copy.seq == stored_seq
            seat = copy.state.to_move
            move = rng.choice(copy.state.legal_moves())
            before = (copy.version, copy.seq, len(copy.moves))
            try:
                await service.play(live.id, tokens[seat], str(move), copy.version)
            except ApiError as error:
                assert not fresh and error.status == 503, error.message
                assert (copy.version, copy.seq, len(copy.moves)) == before  # nothing changed
                continue
            assert fresh, "a change from a stale copy was committed"
            committed.append(str(move))
            if copy.status != "active":
                break
        assert committed and judge_a.lost_games + judge_b.lost_games
        stored = await a.store.read(
            lambda c: [
                r.text
                for r in c.execute(
                    select(moves_table)
                    .where(moves_table.c.game_id == live.id)
                    .order_by(moves_table.c.ply)
                )
            ]
        )
        assert stored == committed
        seqs = await a.store.read(
            lambda c: [
                r.seq
                for r in c.execute(
                    select(events_table.c.seq).where(events_table.c.game_id == live.id)
                )
            ]
        )
        assert sorted(seqs) == list(range(1, len(seqs) + 1))
        # the fence itself, beside the events' primary key that also stops a stale change
        last = len(seqs)
        with pytest.raises(Fenced):
            a.store.write_now(Cluster.fence(live.id, last - 1, last))
        a.store.write_now(Cluster.fence(live.id, last, last))
    finally:
        for service in (a, b):
            await service.stop()
            await service.store.drain()
            service.store.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_only_changes_made_from_the_stored_state_are_committed(any_db: str, seed: int) -> None:
    asyncio.run(scenario(any_db, seed))


@pytest.mark.parametrize("updated", [True, False], ids=["in-the-update", "alone"])
def test_the_fences_of_a_batch_refuse_it_whole_when_one_is_stale(
    any_db: str, updated: bool
) -> None:
    """The store checks the fences of a batch in one statement: all hold and the rows are
    written, or one is stale and nothing is (the store then commits the jobs one by one).
    A fence on a row its job updates goes into that update; one alone, into its own."""
    from sansu.server.base import Rows, write_rows
    from sansu.server.base.schema import games as games_table

    async def run() -> None:
        service, _ = node(any_db)
        try:
            made = [(await service.create("uttt"))[0] for _ in range(2)]

            def batch(seen: list[int]) -> list[Rows]:
                jobs = []
                for live, at in zip(made, seen, strict=True):
                    rows = Rows()
                    rows.fence(games_table, live.id, "seq", at, at + 1)
                    if updated:
                        rows.update(games_table, live.id, {"version": 7})
                    jobs.append(rows)
                return jobs

            def stored() -> list[tuple[int, int]]:
                return service.store.read_now(
                    lambda c: [
                        tuple(c.execute(
                            select(games_table.c.seq, games_table.c.version)
                            .where(games_table.c.id == live.id)
                        ).one())
                        for live in made
                    ]
                )  # fmt: skip

            before = stored()
            seqs = [seq for seq, _ in before]
            with pytest.raises(Fenced):
                service.store.write_now(
                    lambda c: write_rows(c, batch([seqs[0], seqs[1] - 1]))
                )
            assert stored() == before
            service.store.write_now(lambda c: write_rows(c, batch(seqs)))
            versions = [7, 7] if updated else [version for _, version in before]
            assert stored() == [(seq + 1, v) for seq, v in zip(seqs, versions, strict=True)]
        finally:
            await service.stop()
            await service.store.drain()
            service.store.close()

    asyncio.run(run())


async def refresh_during_commit(db: str) -> list[int]:
    """A node commits a move; while the commit is under way it stops judging the game
    (its lease went elsewhere) and refreshes its copy from the store, which the commit
    has just reached. Returns the event numbers sent to the node's clients."""
    service, judge = node(db)
    cluster = Cluster(service, "redis://127.0.0.1:1")  # never connected: only its copies
    try:
        live, token0 = await service.create("uttt")
        judge.held.add(live.id)
        _, _, token1 = await service.join(live.id, 1)
        sent: list[int] = []
        publish = service.hub.publish

        def record(game: LiveGame, events: Any) -> None:
            events = list(events)
            sent.extend(e.seq for e in events)
            publish(game, events)

        service.hub.publish = record  # type: ignore[method-assign]
        write = service.store.write
        refreshing: list[asyncio.Task[None]] = []

        async def write_then_refresh(job: Any) -> Any:
            done = await write(job)  # the move is stored; memory does not show it yet
            judge.held.discard(live.id)  # the lease is lost meanwhile
            refreshing.append(asyncio.create_task(cluster.sync(live.id)))
            await asyncio.sleep(0.3)  # the refresh reads the store meanwhile
            return done

        service.store.write = write_then_refresh  # type: ignore[method-assign]
        seq = live.seq
        await service.play(live.id, token0, "r5c5", live.version)
        service.store.write = write  # type: ignore[method-assign]
        await asyncio.gather(*refreshing)
        assert refreshing and live.seq > seq and token1
        cached = [e.seq for e in live.events]  # what a reconnecting client is sent
        assert len(cached) == len(set(cached)), cached
        return sent
    finally:
        await service.stop()
        await service.store.drain()
        service.store.close()


def test_a_refresh_during_this_nodes_own_commit_sends_its_events_once(tmp_path: Any) -> None:
    sent = asyncio.run(refresh_during_commit(f"sqlite:///{tmp_path / 'g.db'}"))
    assert sent and len(sent) == len(set(sent)), sent
