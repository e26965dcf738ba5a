"""The game service: every domain of the server, wired together in one place.

Each domain is a module with one class, given the others it needs:

- :mod:`~sansu.server.play.rounds` — the games in memory, loading, committing changes;
- :mod:`~sansu.server.play.seating` — creating games, taking seats, tokens;
- :mod:`~sansu.server.play.moves` — moves, resignations, takebacks;
- :mod:`~sansu.server.play.timekeeper` — applying the clocks when a deadline passes;
- :mod:`~sansu.server.play.computer_turns` — the computer's moves;
- :mod:`~sansu.server.play.rematch` — rematches;
- :mod:`~sansu.server.play.rated` — rated games: who plays them, rating them as they end;
- :mod:`~sansu.server.play.archive` — lists, records, replays, imports;
- :mod:`~sansu.server.play.events` — the event stream for reconnecting clients;
- :mod:`~sansu.server.tournaments.tournaments` — arenas, Swiss and round-robin tournaments.

A new domain (users, ratings, tournaments, bots) is one new module wired
here. The HTTP and WebSocket layer (:mod:`~sansu.server.play.routes`,
:mod:`~sansu.server.play.socket`) talks to this class only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from sqlalchemy import Connection, select

from sansu.server.base.background import Background
from sansu.server.base.metrics import Metrics
from sansu.server.base.schema import games as games_table
from sansu.server.base.store import Store
from sansu.server.play.archive import ABANDON_AFTER, Archive
from sansu.server.play.computer import ComputerRunner
from sansu.server.play.computer_turns import ComputerTurns
from sansu.server.play.events import EventLog
from sansu.server.play.hub import Hub
from sansu.server.play.live import LiveGame
from sansu.server.play.moves import Play
from sansu.server.play.rated import RatedGames
from sansu.server.play.rematch import Rematches
from sansu.server.play.rounds import KEEP_FINISHED, KEEP_IDLE, Rounds
from sansu.server.play.seating import Seating
from sansu.server.play.timekeeper import Timekeeper
from sansu.server.tournaments.tournaments import Tournaments

__all__ = ["GameService", "LiveGame"]

log = logging.getLogger("sansu.server")

SWEEP_EVERY = 30.0
"""Seconds between two looks for idle games to drop from memory."""


def games_needing_server(c: Connection) -> list[str]:
    """Ids of the games in play with a running clock or a computer to move."""
    return [
        row[0]
        for row in c.execute(
            select(games_table.c.id).where(
                games_table.c.status == "active",
                (games_table.c.deadline.is_not(None)) | (games_table.c.computer_to_move.is_(True)),
            )
        )
    ]


class GameService:
    """Every game on this server: create, join, play, resign, rematch, take back, watch."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        computer: ComputerRunner,
        *,
        clock: Callable[[], float] = time.time,
        keep_idle: float = KEEP_IDLE,
        keep_finished: float = KEEP_FINISHED,
        abandon_after: float = ABANDON_AFTER,
    ) -> None:
        self.store = store
        self.hub = hub
        self.computer = computer
        self.background = Background()
        self.metrics = Metrics()
        self.rounds = Rounds(
            store, hub, clock=clock, keep_idle=keep_idle, keep_finished=keep_finished
        )
        self.timekeeper = Timekeeper(self.rounds, self.background, clock)
        self.turns = ComputerTurns(self.rounds, self.timekeeper, computer, self.background, clock)
        self.seating = Seating(self.rounds, clock)
        self.playing = Play(self.rounds, self.timekeeper)
        self.rematches = Rematches(self.rounds)
        self.rated = RatedGames(self.rounds, store, clock)
        self.archive = Archive(self.rounds, store, clock, hub, abandon_after)
        self.event_log = EventLog(store)
        self.tournaments = Tournaments(store, self.rounds, self.seating, self.background, clock)
        # The calls of the HTTP and WebSocket layer, by domain.
        self.get = self.rounds.get
        self.create = self.seating.create
        self.join = self.seating.join
        self.play = self.playing.play
        self.resign = self.playing.resign
        self.take_back = self.playing.take_back
        self.can_take_back = self.playing.can_take_back
        self.offer_rematch = self.rematches.offer_rematch
        self.decline_rematch = self.rematches.decline_rematch
        self.events_since = self.event_log.events_since
        self.list_games = self.archive.list_games
        self.record = self.archive.record
        self.import_record = self.archive.import_record
        self.position = self.archive.position
        self.evict = self.rounds.evict
        self.timings = self.metrics.timings
        self.handling_ms = self.metrics.handling_ms
        self.loop_lag_ms = self.metrics.loop_lag_ms

    @property
    def games(self) -> dict[str, LiveGame]:
        """The games in memory, by id."""
        return self.rounds.games

    @property
    def computer_moves(self) -> int:
        return self.turns.moves

    async def start(self, *, sweep_every: float = SWEEP_EVERY) -> None:
        """Resumes the games that need the server: running clocks, computers to move."""
        self.background.spawn(self.metrics.watch_loop())
        self.background.spawn(self.rounds.sweep(sweep_every))
        ids = await self.store.read(games_needing_server)
        for game_id in ids:
            try:
                await self.rounds.get(game_id)  # loading resumes its clocks and computer
            except Exception:
                log.exception("cannot resume game %s", game_id)
        await self.rated.rate_missed()
        await self.tournaments.resume()

    async def stop(self) -> None:
        self.timekeeper.stop()
        await self.background.stop()
