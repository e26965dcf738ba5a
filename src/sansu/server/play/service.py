"""The play domain's face object: the parts that hold, change and end games, built elsewhere.

Every part is built by the server's composition root
(:func:`sansu.server.app.assemble`) and handed in here, so this class only
names them for the other domains and starts and stops them together:

- ``rounds`` (:mod:`~sansu.server.play.rounds`): the games in memory, loading, committing;
- ``seating`` (:mod:`~sansu.server.play.seating`): creating games, taking seats, tokens;
- ``moves`` (:mod:`~sansu.server.play.moves`): moves, resignations, takebacks, aborts, claims;
- ``timekeeper`` (:mod:`~sansu.server.play.timekeeper`): the clocks' deadlines;
- ``turns`` (:mod:`~sansu.server.play.computer_turns`): the computer's moves;
- ``offers`` (:mod:`~sansu.server.play.offers`): draw offers, takeback requests (built
  here from ``rounds`` and ``moves``);
- ``rematches`` (:mod:`~sansu.server.play.rematch`): rematches;
- ``rated`` (:mod:`~sansu.server.play.rated`): rated games and rating them as they end;
- ``archive`` (:mod:`~sansu.server.play.archive`): lists, records, replays, imports;
- ``event_log`` (:mod:`~sansu.server.play.events`): events for reconnecting clients.

The calls that change a game from outside (``get``, ``create``, ``join``,
``play``, ``resign``, ``abort``, ``claim``, ``take_back``, ``offer``, ``answer_offer``,
``offer_rematch``, ``decline_rematch``)
are methods here, not on the parts, for one reason: on a cluster, another
node may judge the game, and the node forwards exactly these calls to it
(:meth:`sansu.server.cluster.Cluster.install` replaces them); calls between
the parts stay local.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from sansu.server.accounts import User, Who
from sansu.server.base import Background, Metrics, Store
from sansu.server.base import games as games_table
from sansu.server.play.archive import Archive
from sansu.server.play.computer import ComputerRunner
from sansu.server.play.computer_turns import ComputerTurns
from sansu.server.play.events import EventLog
from sansu.server.play.hub import Hub
from sansu.server.play.live import LiveGame
from sansu.server.play.moves import Play
from sansu.server.play.offers import Offers
from sansu.server.play.rated import RatedGames
from sansu.server.play.rematch import Rematches
from sansu.server.play.rounds import Rounds
from sansu.server.play.seating import Seating
from sansu.server.play.timekeeper import Timekeeper

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


@dataclass
class GameService:
    """Every game on this server: the parts that create, seat, play, clock, rate and keep them."""

    store: Store
    hub: Hub
    computer: ComputerRunner
    background: Background
    metrics: Metrics
    rounds: Rounds
    timekeeper: Timekeeper
    turns: ComputerTurns
    seating: Seating
    moves: Play
    rematches: Rematches
    rated: RatedGames
    archive: Archive
    event_log: EventLog
    offers: Offers = field(init=False)
    reports: dict[str, Callable[[], Any]] = field(default_factory=dict)
    """More of ``/api/health``, by name, from the parts built around the service (a
    cluster node's own counts)."""

    def __post_init__(self) -> None:
        self.offers = Offers(self.rounds, self.moves)

    # -- the calls a cluster node forwards to a game's judge ----------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game, loaded if it is not in memory (:meth:`Rounds.get`)."""
        return await self.rounds.get(game_id)

    async def create(self, *args: Any, **kwargs: Any) -> tuple[LiveGame, str]:
        """A new game and its creator's token (:meth:`Seating.create`)."""
        return await self.seating.create(*args, **kwargs)

    async def join(
        self,
        game_id: str,
        seat: int | None = None,
        name: str | None = None,
        token: str | None = None,
        user: User | None = None,
    ) -> tuple[LiveGame, int, str]:
        """Takes a seat (:meth:`Seating.join`)."""
        return await self.seating.join(game_id, seat, name, token, user)

    async def play(self, game_id: str, who: Who, move: str, seen: int | None) -> LiveGame:
        """Plays ``who``'s move (:meth:`Play.play`)."""
        return await self.moves.play(game_id, who, move, seen)

    async def resign(self, game_id: str, who: Who, seen: int | None = None) -> LiveGame:
        """Resigns ``who``'s seats (:meth:`Play.resign`)."""
        return await self.moves.resign(game_id, who, seen)

    async def abort(self, game_id: str, who: Who, seen: int | None = None) -> LiveGame:
        """Aborts a rated game not every seat moved in (:meth:`Play.abort`)."""
        return await self.moves.abort(game_id, who, seen)

    async def claim(
        self, game_id: str, who: Who, seen: int | None = None, draw: bool = False
    ) -> LiveGame:
        """Claims a rated game whose player to move left (:meth:`Play.claim`)."""
        return await self.moves.claim(game_id, who, seen, draw)

    async def take_back(self, game_id: str, who: Who, seen: int | None = None) -> LiveGame:
        """Takes back ``who``'s last move (:meth:`Play.take_back`)."""
        return await self.moves.take_back(game_id, who, seen)

    async def offer(self, game_id: str, who: Who, kind: str, seen: int | None = None) -> LiveGame:
        """Offers a draw or asks to take back (:meth:`Offers.offer`)."""
        return await self.offers.offer(game_id, who, kind, seen)

    async def answer_offer(self, game_id: str, who: Who, kind: str, accept: bool) -> LiveGame:
        """Accepts, declines or withdraws an offer (:meth:`Offers.answer`)."""
        return await self.offers.answer(game_id, who, kind, accept)

    async def offer_rematch(self, game_id: str, who: Who) -> LiveGame:
        """Offers or accepts a rematch (:meth:`Rematches.offer_rematch`)."""
        return await self.rematches.offer_rematch(game_id, who)

    async def decline_rematch(self, game_id: str, who: Who) -> LiveGame:
        """Withdraws or declines a rematch (:meth:`Rematches.decline_rematch`)."""
        return await self.rematches.decline_rematch(game_id, who)

    # -- life ------------------------------------------------------------------------------

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

    async def stop(self) -> None:
        self.timekeeper.stop()
        await self.background.stop()
