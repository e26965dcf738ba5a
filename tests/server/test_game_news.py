"""A cluster's news, applied to another node's copy of a game, gives the game the store
holds: random games (moves, joins, takebacks, computer replies, resignations, clocks,
rematch offers) are followed by a copy that only ever sees the news, and after every
change the copy equals the game loaded from the store, and its events equal the stored
ones. A news that does not follow on from the copy is refused and changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, select

from sansu.server.app.assemble import assemble
from sansu.server.base.errors import ApiError
from sansu.server.base.schema import events as events_table
from sansu.server.cluster.fanout import decode, encode
from sansu.server.cluster.news import apply_news, news_of
from sansu.server.play.live import Event, LiveGame
from sansu.server.play.service import GameService


class Recorder:
    """A node that judges every game, keeping the news of each commit."""

    def __init__(self) -> None:
        self.news: list[dict[str, Any]] = []

    def judges(self, game_id: str) -> bool:
        return True

    async def before_commit(self, live: LiveGame) -> None:
        pass

    def fence(self, game_id: str, seen: int, new: int) -> Callable[[Connection], None]:
        return lambda c: None

    def committed(self, live: LiveGame, events: list[Event]) -> None:
        self.news.append(news_of(live, events))

    def lost(self, live: LiveGame) -> None:
        pass

    async def loading(self, game_id: str) -> None:
        pass

    def unloaded(self, game_id: str) -> None:
        pass


def same(copy: LiveGame, stored: LiveGame) -> None:
    assert (copy.seq, copy.version, copy.status) == (stored.seq, stored.version, stored.status)
    assert (copy.result, copy.termination) == (stored.result, stored.termination)
    assert [m.public() for m in copy.moves] == [m.public() for m in stored.moves]
    assert [m.state for m in copy.moves] == [m.state for m in stored.moves]
    assert copy.state.to_dict() == stored.state.to_dict()
    assert [dataclasses.asdict(s) for s in copy.seats] == [
        dataclasses.asdict(s) for s in stored.seats
    ]
    assert copy.clock.to_json() == stored.clock.to_json()
    assert (copy.rematch_offers, copy.rematch_id) == (stored.rematch_offers, stored.rematch_id)
    assert copy.view_json(None) == stored.view_json(None)
    shown, truth = json.loads(copy.status_json()), json.loads(stored.status_json())
    for status in (shown, truth):
        for key in ("now", "remaining"):  # as of the time they were computed
            (status["clock"] or {}).pop(key, None)
    assert shown == truth


def stored_events(service: GameService, game_id: str) -> list[tuple[Any, ...]]:
    def read(c: Connection) -> list[tuple[Any, ...]]:
        rows = c.execute(
            select(events_table)
            .where(events_table.c.game_id == game_id)
            .order_by(events_table.c.seq)
        ).all()
        return [(r.seq, r.type, r.state, dict(r.data), r.at) for r in rows]

    return service.store.read_now(read)


async def computer_done(service: GameService, live: LiveGame) -> None:
    for _ in range(400):
        if live.status != "active" or live.seat_kind(live.state.to_move) != "computer":
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the computer did not move")


async def follow(db: str, seed: int) -> None:
    service = assemble(db, computer_workers=0).service
    recorder = Recorder()
    service.rounds.judge = recorder
    service.store.open()
    rng = random.Random(seed)
    try:
        versus = rng.random() < 0.5
        seats = [{"kind": "human"}, {"kind": "computer", "level": "easy"}] if versus else None
        game = rng.choice(("uttt", "sansumoku", "thirtyfive"))
        options = {"rows": 5, "cols": 5} if game == "thirtyfive" else None
        timed = {"initial_seconds": 600, "increment_seconds": 2} if rng.random() < 0.5 else None
        live, token = await service.create(game, options, seats, time_control=timed)
        assert token is not None
        tokens = {0: token}
        copy = service.rounds.load(live.id)  # another node's copy, from now on news only
        sent: list[Event] = []

        def catch_up() -> None:
            for news in recorder.news:
                events = apply_news(copy, news)
                assert events is not None, (news["from"], copy.seq)
                sent.extend(events)
            recorder.news.clear()
            same(copy, service.rounds.load(live.id))
            assert [(e.seq, e.type, e.state, e.data, e.at) for e in sent] == stored_events(
                service, live.id
            )

        if not versus:
            _, seat, tokens[1] = await service.join(live.id, 1)
            assert seat == 1
        catch_up()
        for _ in range(40):
            await computer_done(service, live)
            if live.status != "active":
                break
            seat = live.state.to_move
            roll = rng.random()
            if versus and roll < 0.2 and service.moves.can_take_back(live, {0}) is None:
                await service.take_back(live.id, tokens[0], live.version)
            elif roll < 0.03:
                await service.resign(live.id, tokens[seat], live.version)
            else:
                move = rng.choice(live.state.legal_moves())
                await service.play(live.id, tokens[seat], str(move), live.version)
            await computer_done(service, live)
            catch_up()
        if live.status != "active":
            with contextlib.suppress(ApiError):  # e.g. a game against the computer
                await service.offer_rematch(live.id, tokens[0])
            catch_up()
        # a news that does not follow on from the copy changes nothing
        before = (copy.seq, copy.version, len(copy.moves))
        await service.rounds.get(live.id)
        if live.status == "active":
            move = live.state.legal_moves()[0]
            await service.play(live.id, tokens[live.state.to_move], str(move), live.version)
            assert len(recorder.news) == 1
            skipped = dict(recorder.news[0], **{"from": copy.seq + 1})
            assert apply_news(copy, skipped) is None
            assert (copy.seq, copy.version, len(copy.moves)) == before
            assert apply_news(copy, recorder.news[0]) is not None
            assert apply_news(copy, recorder.news[0]) is None  # repeated
    finally:
        await service.stop()
        await service.store.drain()
        service.store.close()


@pytest.mark.parametrize("seed", range(12))
def test_a_copy_fed_only_by_news_equals_the_stored_game(tmp_path: Path, seed: int) -> None:
    asyncio.run(follow(f"sqlite:///{tmp_path}/news.db", seed))


@pytest.mark.parametrize("number", [7, 2**70])
@pytest.mark.parametrize("name", ["Zoë", "lone \ud800 surrogate", "emoji 🎲", 'quote " \\ slash'])
def test_a_news_reads_back_as_it_was_written(name: str, number: int) -> None:
    """What a judge publishes (orjson, or the standard library for what orjson refuses:
    a lone surrogate, an integer past 64 bits) is what another node reads back."""
    news = {"g": "abc", "seq": 3, "game": {"seats": [{"name": name}], "meta": {"n": number}}}
    raw = encode(news)
    assert isinstance(raw, bytes) and raw.decode("utf-8")  # Redis takes it as it is
    assert decode(raw) == news
