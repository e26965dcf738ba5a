"""An arena game's first-move deadline, applied where the game is judged.

The director creates each arena game with ``meta["first_move"]``: the seconds
a player has for their first move (:func:`~sansu.server.tournaments.formats.arena.
first_move_seconds`). A seat whose turn comes and who has not moved yet in the
game must move within them of the turn's start (the game's start, or the move
before); otherwise the game ends, every other seat winning (termination
``no_start``), and the director pauses that player when it records the result.
Without it a player whose page did not follow them into a new game lost on time
game after game while the opponent scored each one.

Timers are kept by game id, armed after every committed change of such a game
(``Rounds.on_change``, which runs only where the game is judged, also for a game
resumed after a restart), and checked again under the game's lock when they fire.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from sansu.server.base import ApiError, Background
from sansu.server.play import LiveGame, Rounds

log = logging.getLogger("sansu.server")

TERMINATION = "no_start"


def awaited(live: LiveGame) -> tuple[int, float] | None:
    """The seat whose first move the game waits for and its deadline, or ``None``."""
    limit = live.meta.get("first_move")
    if live.status != "active" or not isinstance(limit, (int, float)):
        return None
    seat = live.state.to_move
    if seat is None or any(m.seat == seat for m in live.moves):
        return None
    since = live.moves[-1].at if live.moves else live.created_at
    return seat, since + float(limit)


class FirstMoves:
    """Ends an arena game whose player to move let the first-move deadline pass."""

    def __init__(self, rounds: Rounds, background: Background, clock: Callable[[], float]) -> None:
        self.rounds = rounds
        self.background = background
        self.time = clock
        self.timers: dict[str, asyncio.TimerHandle] = {}
        rounds.on_change(self.watch)

    def watch(self, live: LiveGame) -> None:
        """(Re)arms the game's timer at its first-move deadline, or cancels it."""
        old = self.timers.pop(live.id, None)
        if old is not None:
            old.cancel()
        due = awaited(live)
        if due is None:
            return
        delay = max(0.0, due[1] - self.time()) + 0.001
        game_id = live.id
        self.timers[game_id] = asyncio.get_running_loop().call_later(
            delay, lambda: self.background.spawn(self._fire(game_id))
        )

    async def _fire(self, game_id: str) -> None:
        self.timers.pop(game_id, None)
        judge = self.rounds.judge
        if judge is not None and not judge.judges(game_id):
            return
        try:
            live = await self.rounds.get(game_id)
            async with live.lock:
                due = awaited(live)
                if due is None:
                    return
                seat, deadline = due
                if self.time() < deadline:
                    self.watch(live)
                    return
                result = self.rounds.others_win(live, seat, f"seat {seat} did not move in time")
                await self.rounds.finish(live, result, TERMINATION, "flag", seat=seat)
        except ApiError as error:
            log.warning("game %s: its first-move deadline failed: %s", game_id, error.message)

    def stop(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
