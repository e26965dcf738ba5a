"""The analysis board's searches: one position searched deeper and deeper while someone looks.

A page on the analysis board starts a *session* for its position and then
keeps asking for news. The session searches the position in the computer
workers (:meth:`ComputerRunner.run`), each step afresh with twice the
previous budget, as :class:`sansu.ai.review.ProgressiveAnalysis` does, so
the answer gets steadier the longer the page stays open and each step stays
short (a step is queued behind every computer move of a game in play, and a
computer to move waits at most for the one step under way).

The work stops by itself: when nobody asked for the session for ``idle``
seconds (the page was left), when it has thought for ``time_cap`` seconds,
or when the budget reached its limit. Each client address runs at most
``per_client`` sessions at once and the server ``max_running``; more are
refused (429, 503), so the analysis board cannot take the workers from the
games being played.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sansu.core.protocol import State
from sansu.server.base import ApiError, Background
from sansu.server.play import ComputerClosed, ComputerRunner

log = logging.getLogger("sansu.server")

IDLE = 15.0
"""Seconds without a request for a session after which its search stops (the page was left)."""
TIME_CAP = 120.0
"""Seconds a session thinks at most, however long the page stays open."""
PER_CLIENT = 4
"""Sessions thinking at once per client address."""
MAX_RUNNING = 8
"""Sessions thinking at once on the server."""
KEEP = 60.0
"""Seconds a session that stopped thinking still answers with its last result."""
WAIT = 10.0
"""The longest a request for news waits for a deeper result."""


def default_budgets(game_id: str) -> tuple[int, int]:
    """The first and the largest number of simulations of a step, for ``game_id``:
    from a quarter of a review's budget per position up to four times it (about a
    second on one core), so that a computer to move never waits long for a step."""
    from sansu.ai.review import default_simulations

    base = default_simulations(game_id)
    return max(1, base // 4), base * 4


# -- in the workers ---------------------------------------------------------------


@dataclass(frozen=True)
class StepRequest:
    """A position (game, options, moves) to search for ``simulations`` (plain data)."""

    game: str
    options: dict[str, Any] = field(hash=False)
    moves: tuple[str, ...]
    simulations: int
    seed: int = 0


@lru_cache(maxsize=16)
def _analyser(game: str, options_key: tuple[tuple[str, Any], ...]) -> Any:
    from sansu.ai.review import Analyser
    from sansu.server.play import cached_game

    return Analyser(cached_game(game, options_key))


def analyse_step(request: StepRequest) -> dict[str, Any]:
    """One search of the position (runs in a worker): ``PositionAnalysis.to_dict()``."""
    analyser = _analyser(request.game, tuple(sorted(request.options.items())))
    state = analyser.game.play_moves(list(request.moves))
    return analyser.analyse(state, request.simulations, seed=request.seed).to_dict()


# -- on the server ----------------------------------------------------------------


@dataclass
class Session:
    """One position being analysed for one page."""

    id: str
    client: str
    request: StepRequest
    state: State
    start: int
    limit: int
    started: float
    seen: float
    step: int = 0
    latest: dict[str, Any] | None = None
    done: bool = False
    reason: str | None = None
    """Why it stopped: ``limit``, ``proven``, ``time``, ``idle``, ``stopped`` or ``failed``."""
    ended: float = 0.0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    def news(self) -> dict[str, Any]:
        latest = self.latest
        return {
            "id": self.id,
            "step": self.step,
            "done": self.done,
            "reason": self.reason,
            "analysis": latest,
            "simulations": 0 if latest is None else latest["simulations"],
            "limit": self.limit,
        }


class Analyses:
    """Starts, deepens and stops the analysis board's searches."""

    def __init__(
        self,
        runner: ComputerRunner,
        background: Background,
        *,
        budgets: tuple[int, int] | None = None,
        idle: float = IDLE,
        time_cap: float = TIME_CAP,
        per_client: int = PER_CLIENT,
        max_running: int = MAX_RUNNING,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if budgets is not None and not 0 < budgets[0] <= budgets[1]:
            raise ValueError(f"analysis budgets need 0 < first <= largest, not {budgets}")
        self.runner = runner
        self.background = background
        self.budgets = budgets
        self.idle = idle
        self.time_cap = time_cap
        self.per_client = per_client
        self.max_running = max_running
        self.time = clock
        self.sessions: dict[str, Session] = {}
        self.steps = 0
        """Searches finished since the server started."""

    def running(self, client: str | None = None) -> int:
        return sum(1 for s in self.sessions.values() if not s.done and client in (None, s.client))

    def _forget_old(self) -> None:
        now = self.time()
        for sid in [s.id for s in self.sessions.values() if s.done and now - s.ended > KEEP]:
            del self.sessions[sid]

    def start(self, client: str, request: StepRequest, state: State) -> Session:
        """A new session for the position of ``request`` (``state``), thinking at once."""
        self.check_room(client)
        first, limit = self.budgets or default_budgets(request.game)
        now = self.time()
        session = Session(secrets.token_urlsafe(12), client, request, state, first, limit, now, now)
        self.sessions[session.id] = session
        session.task = self.background.spawn(self._think(session))
        return session

    def check_room(self, client: str) -> None:
        """Refuses a new session of ``client`` over its limit or the server's: before
        the position is set up, which may cost more than the refusal."""
        self._forget_old()
        if self.running(client) >= self.per_client:
            raise ApiError(
                429,
                "too_many_analyses",
                f"at most {self.per_client} analyses think at once for one client: "
                "close another analysis board (or wait a few seconds) and try again",
                limit=self.per_client,
            )
        if self.running() >= self.max_running:
            raise ApiError(503, "busy", "the server is analysing other positions; try again soon")

    def get(self, sid: str) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise ApiError(404, "no_such_analysis", "this analysis is over or never was: start one")
        session.seen = self.time()
        return session

    async def news(self, sid: str, after: int, wait: float) -> dict[str, Any]:
        """The latest result, once it is deeper than step ``after`` (or ``wait`` seconds passed,
        or the session stopped)."""
        session = self.get(sid)
        if session.step <= after and not session.done:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(session.changed.wait(), timeout=max(0.0, wait))
            session.seen = self.time()
        return session.news()

    def stop(self, sid: str) -> None:
        """Stops a session now (the page went elsewhere); its search under way is dropped."""
        session = self.get(sid)
        if not session.done:
            self._end(session, "stopped")
            if session.task is not None:
                session.task.cancel()

    def _end(self, session: Session, reason: str) -> None:
        session.done = True
        session.reason = reason
        session.ended = self.time()
        self._tell(session)

    @staticmethod
    def _tell(session: Session) -> None:
        old, session.changed = session.changed, asyncio.Event()
        old.set()

    async def _think(self, session: Session) -> None:
        budget = session.start
        try:
            while not session.done:
                now = self.time()
                if now - session.seen > self.idle:
                    self._end(session, "idle")
                    return
                if now - session.started > self.time_cap:
                    self._end(session, "time")
                    return
                step = StepRequest(
                    session.request.game,
                    session.request.options,
                    session.request.moves,
                    budget,
                    session.request.seed,
                )
                result = await self.runner.run(analyse_step, step)
                if session.done:  # stopped while the worker searched
                    return
                session.latest = result
                session.step += 1
                self.steps += 1
                if result.get("proven") or session.state.result is not None:
                    self._end(session, "proven")
                elif budget >= session.limit:
                    self._end(session, "limit")
                else:
                    self._tell(session)
                    budget = min(budget * 2, session.limit)
        except asyncio.CancelledError:
            if not session.done:
                self._end(session, "stopped")
            raise
        except ComputerClosed:  # the server is stopping
            self._end(session, "stopped")
        except Exception:
            log.exception("analysis %s of %s failed", session.id, session.request.game)
            self._end(session, "failed")
