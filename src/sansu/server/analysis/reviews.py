"""Post-game reviews: the engine over every move of a finished game, computed once and stored.

A review (:func:`sansu.ai.review.review_game`'s result) costs a search per
position, so it never runs on the event loop: the positions are searched one
by one in the computer workers (:meth:`ComputerRunner.run`), each a short job
behind every computer move of a game in play, so a computer to move waits at
most for one position. Every position has its own seed, so the positions
joined give exactly what ``review_game`` gives for the same budget and seed.
Each client address runs at most ``per_client`` reviews at once and the
server ``max_running``; more are refused (429, 503). The result is stored in ``reviews`` (one row
per game, keyed by the game id); a second request finds it, or finds the one
under way, and nothing is computed twice.

A game still being played is never reviewed (that would help its players);
finished games and imported records are.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Float, Integer, String, Text, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.base import ApiError, Background, Base, Store
from sansu.server.play import ComputerClosed, ComputerRunner, LiveGame, Rounds

log = logging.getLogger("sansu.server")

SEED = 0
"""Every stored review uses this seed: the same game always gets the same review."""
PART = 1
"""Positions searched per job in a worker: one, so a move waits for one position at most."""
PER_CLIENT = 2
"""Reviews computed at once for one client address; more are refused with 429."""
MAX_RUNNING = 4
"""Reviews computed at once on this server; more are refused with 503 until one ends."""


class ReviewRow(Base):
    __tablename__ = "reviews"

    game_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    """The reviewed game: its key makes a second stored review of a game impossible."""
    game: Mapped[str] = mapped_column(String(32))
    version: Mapped[int] = mapped_column(Integer)
    """``REVIEW_VERSION`` of the stored format."""
    simulations: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    review: Mapped[str] = mapped_column(Text)
    """``Review.to_dict()`` as JSON."""


reviews = ReviewRow.__table__


# -- in the workers ---------------------------------------------------------------


@dataclass(frozen=True)
class PartRequest:
    """Positions ``start`` to ``stop - 1`` of a game to search (plain data for a worker)."""

    game: str
    options: dict[str, Any] = field(hash=False)
    moves: tuple[str, ...]
    start: int
    stop: int
    simulations: int
    seed: int


def _states(request: PartRequest) -> tuple[Any, list[Any]]:
    from sansu.server.play import cached_game

    game = cached_game(request.game, tuple(sorted(request.options.items())))
    states = [game.initial_state()]
    for move in request.moves:
        states.append(states[-1].play(move))
    return game, states


def analyse_part(request: PartRequest) -> list[Any]:
    """The analyses of positions ``start``..``stop - 1`` (runs in a worker)."""
    from sansu.ai.review import Analyser

    game, states = _states(request)
    analyser = Analyser(game)
    return [
        analyser.analyse(states[ply], request.simulations, seed=request.seed)
        for ply in range(request.start, request.stop)
    ]


def assemble(job: tuple[PartRequest, list[Any]]) -> dict[str, Any]:
    """The review's JSON from every position's analysis (runs in a worker)."""
    from sansu.ai.review import assemble_review

    request, positions = job
    game, states = _states(request)
    public = getattr(game, "public_options", None)
    options = public() if callable(public) else game.options
    review = assemble_review(game, states, positions, request.simulations, request.seed, options)
    return review.to_dict()


# -- on the server ----------------------------------------------------------------


@dataclass
class Progress:
    done: int
    total: int
    client: str = ""
    task: asyncio.Task[None] | None = None

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.total) if self.total else 0


class Reviews:
    """Starts, tracks and stores the reviews of finished games."""

    def __init__(
        self,
        rounds: Rounds,
        store: Store,
        runner: ComputerRunner,
        background: Background,
        *,
        simulations: int | None = None,
        per_client: int = PER_CLIENT,
        max_running: int = MAX_RUNNING,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if simulations is not None and (
            not isinstance(simulations, int) or isinstance(simulations, bool) or simulations <= 0
        ):
            raise ValueError(f"review simulations must be a positive whole number: {simulations!r}")
        self.rounds = rounds
        self.store = store
        self.runner = runner
        self.background = background
        self.simulations = simulations
        """Per position (``None``: each game's default, :func:`default_simulations`)."""
        self.per_client = per_client
        self.max_running = max_running
        self.time = clock
        self.running: dict[str, Progress] = {}
        self.failed: dict[str, str] = {}
        self.computed = 0
        """Reviews computed since the server started."""

    def budget(self, game: str) -> int:
        from sansu.ai.review import default_simulations

        return self.simulations if self.simulations is not None else default_simulations(game)

    async def stored(self, game_id: str) -> dict[str, Any] | None:
        """The stored review of ``game_id`` in the current format, or ``None``."""
        from sansu.ai.review import REVIEW_VERSION

        def read(c: Connection) -> str | None:
            row = c.execute(
                select(reviews.c.review).where(
                    reviews.c.game_id == game_id, reviews.c.version == REVIEW_VERSION
                )
            ).first()
            return None if row is None else row[0]

        text = await self.store.read(read)
        return None if text is None else json.loads(text)

    async def _reviewable(self, game_id: str) -> LiveGame:
        live = await self.rounds.get(game_id)
        if live.status == "active":
            raise ApiError(
                409, "game_in_play", "a game is reviewed once it is over, never while it is played"
            )
        return live

    async def start(self, game_id: str, client: str = "") -> tuple[bool, dict[str, Any]]:
        """Starts the review of ``game_id`` for ``client`` unless it is stored or under way.

        Answers ``(True, review)`` when it is stored, else ``(False, progress)``.
        """
        live = await self._reviewable(game_id)
        review = await self.stored(live.id)
        if review is not None:
            return True, {"status": "done", "review": review}
        progress = self.running.get(live.id)
        if progress is None:  # checked again after the read: one start per game
            self._admit(client)
            progress = Progress(0, len(live.moves) + 1, client)
            self.running[live.id] = progress
            self.failed.pop(live.id, None)
            progress.task = self.background.spawn(self._compute(live, progress))
        return False, self._progress(progress)

    def _admit(self, client: str) -> None:
        """Refuses a review past the client's limit (429) or the server's (503)."""
        if sum(1 for p in self.running.values() if p.client == client) >= self.per_client:
            raise ApiError(
                429,
                "too_many_reviews",
                f"at most {self.per_client} reviews are computed at once for one client: "
                "wait for one to finish and try again",
                limit=self.per_client,
            )
        if len(self.running) >= self.max_running:
            message = "the server is reviewing other games; try again in a minute"
            raise ApiError(503, "busy", message)

    async def status(self, game_id: str) -> dict[str, Any]:
        """The stored review, or how far the one under way is; 404 when none was asked for."""
        live = await self.rounds.get(game_id)
        progress = self.running.get(live.id)
        if progress is not None:
            return self._progress(progress)
        review = await self.stored(live.id)
        if review is not None:
            return {"status": "done", "review": review}
        if live.id in self.failed:
            return {"status": "failed", "message": self.failed[live.id]}
        raise ApiError(404, "no_review", "this game has no review yet: POST to start one")

    @staticmethod
    def _progress(progress: Progress) -> dict[str, Any]:
        return {
            "status": "running",
            "percent": progress.percent,
            "done": progress.done,
            "total": progress.total,
        }

    async def _compute(self, live: LiveGame, progress: Progress) -> None:
        from sansu.ai.review import REVIEW_VERSION

        simulations = self.budget(live.game.id)
        moves = tuple(m.text for m in live.moves)
        base = PartRequest(live.game.id, dict(live.options), moves, 0, 0, simulations, SEED)
        positions: list[Any] = []
        try:
            for start in range(0, progress.total, PART):
                stop = min(progress.total, start + PART)
                part = PartRequest(base.game, base.options, moves, start, stop, simulations, SEED)
                positions.extend(await self.runner.run(analyse_part, part))
                progress.done = stop
            review = await self.runner.run(assemble, (base, positions))
            row = {
                "game_id": live.id,
                "game": live.game.id,
                "version": REVIEW_VERSION,
                "simulations": simulations,
                "seed": SEED,
                "created_at": self.time(),
                "review": json.dumps(review, separators=(",", ":")),
            }

            def write(c: Connection) -> None:
                c.execute(reviews.delete().where(reviews.c.game_id == live.id))
                c.execute(insert(reviews).values(**row))

            await self.store.write(write)
            self.computed += 1
        except asyncio.CancelledError:
            raise
        except ComputerClosed:  # the server is stopping
            self.failed[live.id] = "the server stopped during the review; ask again"
        except Exception as error:
            log.exception("game %s: the review failed", live.id)
            self.failed[live.id] = f"the review failed ({type(error).__name__}); ask again"
        finally:
            self.running.pop(live.id, None)
