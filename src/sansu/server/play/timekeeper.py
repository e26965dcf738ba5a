"""Applying the clocks: a timer per game with a deadline, and the verdict when one passes.

What the clocks are (time controls, the games' own limits) is
:mod:`sansu.server.play.clocks`; this module applies them. A timer is kept by
game id, not by the game in memory, so a game that left memory still has
its clock applied on time: the timer loads it again from the store.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from sansu.core.protocol import IllegalMove
from sansu.server.base import ApiError, Background
from sansu.server.play.live import LiveGame
from sansu.server.play.rated import abortable
from sansu.server.play.rounds import Rounds

log = logging.getLogger("sansu.server")


class Timekeeper:
    """Arms a timer at each game's nearest deadline and applies what falls due."""

    def __init__(self, rounds: Rounds, background: Background, clock: Callable[[], float]) -> None:
        self.rounds = rounds
        self.background = background
        self.time = clock
        self.timers: dict[str, asyncio.TimerHandle] = {}
        rounds.on_change(self.arm)

    async def apply_due(self, live: LiveGame) -> None:
        """Applies every clock that ran out by now (called under the game's lock)."""
        for _ in range(4):
            if live.status != "active" or not live.ready:
                return
            now = self.time()
            expired = live.clock.expired(now)
            if expired is None:
                return
            if expired == "engine":
                try:
                    new_state = live.state.play(live.clock.engine_move)
                except (IllegalMove, ValueError) as error:
                    log.warning(
                        "game %s: the clock's %r was refused: %s",
                        live.id,
                        live.clock.engine_move,
                        error,
                    )
                    live.clock.set_engine(None, now)
                    continue
                await self.rounds.commit_move(live, new_state, None, by="clock")
            else:
                seat = live.clock.running
                assert seat is not None
                if abortable(live):
                    await self.rounds.finish(
                        live, None, "aborted", "abort", seat=seat, reason="time"
                    )
                    continue
                result = self.rounds.others_win(live, seat, f"seat {seat} ran out of time")
                await self.rounds.finish(live, result, "time", "flag", seat=seat)

    def arm(self, live: LiveGame) -> None:
        """(Re)arms the timer of ``live`` at its nearest deadline, or cancels it."""
        old = self.timers.pop(live.id, None)
        if old is not None:
            old.cancel()
        if live.status != "active" or not live.ready:
            return
        deadline = live.clock.deadline
        if deadline is None:
            return
        delay = max(0.0, deadline - self.time()) + 0.001
        game_id = live.id
        self.timers[game_id] = asyncio.get_running_loop().call_later(
            delay, lambda: self.background.spawn(self._fire(game_id))
        )

    async def _fire(self, game_id: str) -> None:
        self.timers.pop(game_id, None)
        live: LiveGame | None = None
        try:
            live = await self.rounds.get(game_id)
            async with live.lock:
                await self.apply_due(live)
        except ApiError as error:
            log.warning("game %s: a clock could not be applied: %s", game_id, error.message)
        finally:
            if live is not None and game_id not in self.timers:
                self.arm(live)

    def stop(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
