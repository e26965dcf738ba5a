"""Computer turns: after every change, a computer seat to move gets its move searched.

The search runs in :class:`~sansu.server.play.computer.ComputerRunner` (a process
pool); the event loop never waits for it. A move found for a state that has
since changed (a takeback, a resignation) is dropped. A game stays in memory
while its computer thinks.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable

from sansu.core.protocol import IllegalMove
from sansu.server.base import ApiError, Background
from sansu.server.play.computer import ComputerClosed, ComputerRequest, ComputerRunner, random_move
from sansu.server.play.live import LiveGame
from sansu.server.play.rounds import Rounds
from sansu.server.play.timekeeper import Timekeeper

log = logging.getLogger("sansu.server")


class ComputerTurns:
    """Starts a search whenever a computer seat is to move, and plays what it finds."""

    def __init__(
        self,
        rounds: Rounds,
        timekeeper: Timekeeper,
        runner: ComputerRunner,
        background: Background,
        clock: Callable[[], float],
    ) -> None:
        self.rounds = rounds
        self.timekeeper = timekeeper
        self.runner = runner
        self.background = background
        self.time = clock
        self.moves = 0
        """Computer moves played since the server started."""
        rounds.on_change(self.consider)
        rounds.pin(self.thinking)

    @staticmethod
    def thinking(live: LiveGame) -> bool:
        """A search is under way for the game's current state."""
        return live.status == "active" and live.computer_version == live.version

    def consider(self, live: LiveGame) -> None:
        if live.status != "active":
            return
        to_move = live.state.to_move
        if live.seat_kind(to_move) == "computer" and live.computer_version != live.version:
            live.computer_version = live.version
            self.background.spawn(self._turn(live, self.request(live)))

    def request(self, live: LiveGame) -> ComputerRequest:
        """What the worker needs for the computer's move in ``live`` (plain data)."""
        seat = live.state.to_move
        assert seat is not None
        level = live.seats[seat].level or "medium"
        seconds_left = None
        if live.clock.remaining is not None:
            seconds_left = live.clock.remaining[seat]
        if live.clock.engine_deadline is not None:
            left = live.clock.engine_deadline - self.time()
            seconds_left = left if seconds_left is None else min(seconds_left, left)
        return ComputerRequest(
            game=live.game.id,
            options=live.options,
            moves=tuple(m.text for m in live.moves),
            level=level,
            seed=int.from_bytes(hashlib.sha256(f"{live.id}:{live.version}".encode()).digest()[:4]),
            time_ms=self.runner.budget(live.game.id, level, seconds_left),
            version=live.version,
            seat=seat,
        )

    async def _turn(self, live: LiveGame, request: ComputerRequest) -> None:
        version, seat = request.version, request.seat
        try:
            text = await self.runner.choose(request)
        except asyncio.CancelledError:
            raise
        except ComputerClosed:  # the server is stopping: the move waits for its next start
            live.computer_version = -1
            return
        except Exception:
            log.exception("game %s: the computer failed; it plays a random move", live.id)
            text = random_move(live.state, request.seed)
        async with live.lock:
            if live.version != version or live.status != "active":
                return
            await self.timekeeper.apply_due(live)
            if live.version != version or live.status != "active":
                return
            try:
                new_state = live.state.play(text)
            except (IllegalMove, ValueError):
                log.exception("game %s: the computer chose an illegal move %r", live.id, text)
                new_state = live.state.play(random_move(live.state, request.seed))
            try:
                await self.rounds.commit_move(live, new_state, seat)
            except ApiError as error:
                log.warning("game %s: a computer move was not stored: %s", live.id, error.message)
                live.computer_version = -1
                return
            self.moves += 1
