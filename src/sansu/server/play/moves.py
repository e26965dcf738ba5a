"""Playing: moves, resignations, takebacks, aborts and claims by the holders of the seats.

Only the holder of the seat to move can move, against the state number it
saw; the engine judges every move. The one exception is a move the rules
give to anyone watching (:data:`OPEN_MOVES`: Sumodoku's ``report``, the
third-party observer's): any seat's holder or a spectator may make it, and
the event says who did. Clocks that ran out are applied first, so
a move that arrives after a deadline is refused by the clock's verdict.

A rated game that not every seat has moved in is aborted rather than
resigned (:func:`~sansu.server.play.rated.abortable`). A player whose
opponent left a rated game (no socket and no change for :data:`CLAIM_AFTER`
seconds while the opponent is to move) may claim it: the opponent loses.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Iterable

from sqlalchemy import Connection, delete

from sansu.core.protocol import IllegalMove, Result, State
from sansu.server.accounts import Who
from sansu.server.base import ApiError, game_over, stale
from sansu.server.base import moves as moves_table
from sansu.server.play.clocks import engine_clock
from sansu.server.play.live import Change, LiveGame
from sansu.server.play.privacy import check_watch
from sansu.server.play.rated import abortable
from sansu.server.play.rounds import Rounds
from sansu.server.play.timekeeper import Timekeeper

OPEN_MOVES: dict[str, frozenset[str]] = {"sumodoku": frozenset({"report"})}
"""By game id: the first words of moves anyone may make, seated or not, in
any turn. They use no turn (the engine keeps the same player to move)."""
CLAIM_AFTER = 60.0
"""Seconds an opponent to move must have been gone (no socket, no change of the game)
before a rated game can be claimed against them."""


class Play:
    """Moves, resignations, takebacks, aborts and claims."""

    def __init__(
        self,
        rounds: Rounds,
        timekeeper: Timekeeper,
        clock: Callable[[], float] = time.time,
        claim_after: float = CLAIM_AFTER,
    ) -> None:
        self.rounds = rounds
        self.timekeeper = timekeeper
        self.time = clock
        self.claim_after = claim_after

    async def play(self, game_id: str, who: Who, move: str, seen: int | None) -> LiveGame:
        """Plays ``move`` for the token's seat against state number ``seen``."""
        live = await self.rounds.get(game_id)
        if self.is_open_move(live, move):
            return await self._open_move(live, who, move, seen)
        async with live.lock:
            held = live.holder(who)
            await self._ready_for_move(live, seen)
            mover = live.state.to_move
            if mover not in held:
                raise ApiError(
                    409,
                    "not_your_turn",
                    f"it is seat {mover}'s turn; you hold seat"
                    f"{'s' if len(held) > 1 else ''} {', '.join(map(str, sorted(held)))}",
                    to_move=mover,
                )
            new_state = self._judge(live.state, move)
            await self.rounds.commit_move(live, new_state, mover)
            return live

    async def _ready_for_move(self, live: LiveGame, seen: int | None) -> None:
        """Applies the clocks, then refuses a move in a game over or in another state."""
        await self.timekeeper.apply_due(live)
        if live.status != "active":
            raise game_over()
        if seen is None:
            raise ApiError(422, "state_required", "a move names the state number it was made in")
        if seen != live.version:
            raise stale(seen, live.version)
        if not live.casual and not live.ready:
            raise ApiError(
                409, "waiting_for_players", "a rated game starts once every seat is taken"
            )

    @staticmethod
    def is_open_move(live: LiveGame, move: object) -> bool:
        """Whether ``move`` is one that anyone watching may make (see :data:`OPEN_MOVES`)."""
        words = OPEN_MOVES.get(live.game.id)
        if not words or not isinstance(move, str) or not move.split():
            return False
        return move.split()[0].lower() in words

    async def _open_move(self, live: LiveGame, who: Who, move: str, seen: int | None) -> LiveGame:
        """Plays an open move for a seat's holder or, without a token, a spectator: one
        who may watch the game (else the refusals would tell its board). A refused open
        move names the cell only, never its piece (see :func:`_open_refusal`)."""
        async with live.lock:
            reporter = min(live.holder(who)) if who else None
            check_watch(live, live.seats_of(who))
            await self._ready_for_move(live, seen)
            try:
                new_state = self._judge(live.state, move)
            except ApiError as error:
                reads_board = getattr(live.state.game, "honour", False)  # else refused unread
                if error.code != "illegal_move" or not reads_board:
                    raise
                raise _open_refusal(move) from None
            by = "spectator" if reporter is None else "player"
            await self.rounds.commit_move(live, new_state, reporter, by=by, turn=False)
            return live

    @staticmethod
    def _judge(state: State, move: str) -> State:
        if not isinstance(move, str) or not move.strip():
            raise ApiError(422, "illegal_move", "a move is text, e.g. r5c5")
        try:
            return state.play(move.strip())
        except IllegalMove as error:
            raise ApiError(422, "illegal_move", str(error), move=move.strip()) from None
        except ValueError as error:
            raise ApiError(422, "illegal_move", str(error), move=move.strip()) from None

    async def resign(self, game_id: str, who: Who, seen: int | None = None) -> LiveGame:
        live = await self.rounds.get(game_id)
        async with live.lock:
            held = await self._ending(live, who, seen)
            to_move = live.state.to_move
            seat = to_move if to_move in held else min(held)
            if abortable(live):
                await self.rounds.finish(
                    live, None, "aborted", "abort", seat=seat, reason="resignation"
                )
                return live
            result = self.rounds.others_win(live, seat, f"seat {seat} resigned")
            await self.rounds.finish(live, result, "resignation", "resign", seat=seat)
            return live

    async def _ending(self, live: LiveGame, who: Who, seen: int | None) -> frozenset[int]:
        """The caller's seats, once the clocks are applied, for a resignation, an abort
        or a claim: refused in a game over or in another state (under the game's lock)."""
        held = live.holder(who)
        await self.timekeeper.apply_due(live)
        if live.status != "active":
            raise game_over()
        if seen is not None and seen != live.version:
            raise stale(seen, live.version)
        return held

    async def abort(self, game_id: str, who: Who, seen: int | None = None) -> LiveGame:
        """Aborts a rated game that not every seat has moved in: no result, no rating."""
        live = await self.rounds.get(game_id)
        async with live.lock:
            held = await self._ending(live, who, seen)
            if not abortable(live):
                raise ApiError(
                    409,
                    "no_abort",
                    "only a rated game can be aborted, and only until every player has moved"
                    " (tournament games are played out)",
                )
            to_move = live.state.to_move
            seat = to_move if to_move in held else min(held)
            await self.rounds.finish(live, None, "aborted", "abort", seat=seat, reason="abort")
            return live

    async def claim(
        self, game_id: str, who: Who, seen: int | None = None, draw: bool = False
    ) -> LiveGame:
        """Wins (``draw``: draws, where the rules can draw) a rated game whose player to
        move left it (no socket and no change for :attr:`claim_after` seconds); before
        every seat moved, aborts it instead."""
        live = await self.rounds.get(game_id)
        async with live.lock:
            held = await self._ending(live, who, seen)
            if draw and not live.game.can_draw:
                raise ApiError(409, "no_draw", f"a game of {live.game.title} cannot end drawn")
            wait = self.claim_wait(live, held)
            if wait > 0:
                seconds = math.ceil(wait)
                raise ApiError(
                    409,
                    "too_early",
                    f"seat {live.state.to_move} may come back: the game can be claimed"
                    f" in {seconds} s",
                    retry_after=seconds,
                )
            gone = live.state.to_move
            if abortable(live):
                await self.rounds.finish(live, None, "aborted", "abort", seat=gone, reason="claim")
                return live
            reason = f"seat {gone} left the game"
            result = Result.drawn(reason) if draw else self.rounds.others_win(live, gone, reason)
            await self.rounds.finish(
                live, result, "abandonment", "claim", seat=min(held), against=gone, draw=draw
            )
            return live

    def claim_wait(self, live: LiveGame, held: frozenset[int]) -> float:
        """Seconds until the holder of ``held`` may claim (at most 0: now); refused with
        the reason when they may not claim at all while things stay as they are."""
        if live.casual:
            raise ApiError(409, "no_claim", "only a rated game can be claimed")
        if not live.ready:
            raise ApiError(409, "waiting_for_players", "the game has not started")
        gone = live.state.to_move
        if gone is None or gone in held:
            raise ApiError(
                409, "not_their_turn", "a game is claimed while the player who left is to move"
            )
        hub = self.rounds.hub
        if hub.presence(live)["seats"][gone]:
            raise ApiError(409, "opponent_present", f"seat {gone} has the game open")
        since = max(live.updated_at, hub.seat_left(live.id, gone) or 0.0)
        return since + self.claim_after - self.time()

    def claim_at(self, live: LiveGame, held: frozenset[int]) -> float | None:
        """When the holder of ``held`` may claim the game (``None``: not while things
        stay as they are), for their page's countdown."""
        if not held or live.status != "active":
            return None
        try:
            return self.time() + max(0.0, self.claim_wait(live, held))
        except ApiError:
            return None

    def can_take_back(self, live: LiveGame, held: Iterable[int]) -> str | None:
        """Why the holder of ``held`` may not take back now (``None``: they may)."""
        held = set(held)
        if not live.casual:
            return "takebacks are only for casual games"
        if not any(s.kind == "computer" for s in live.seats):
            return "takebacks are only for games against the computer"
        if live.status == "finished" and live.termination != "rules":
            return f"the game ended by {live.termination}"
        if live.status not in ("active", "finished"):
            return "this game cannot be played on"
        mine = [i for i, m in enumerate(live.moves) if m.seat in held]
        if not mine:
            return "you have no move to take back"
        for m in live.moves[mine[-1] + 1 :]:
            if m.seat is not None and m.seat not in held and live.seat_kind(m.seat) == "human":
                return "another player has moved since your last move"
        return None

    async def take_back(self, game_id: str, who: Who, seen: int | None) -> LiveGame:
        """Undoes the holder's last move and every computer reply after it."""
        live = await self.rounds.get(game_id)
        async with live.lock:
            held = live.holder(who)
            if seen is not None and seen != live.version:
                raise stale(seen, live.version)
            why = self.can_take_back(live, held)
            if why is not None:
                raise ApiError(409, "no_takeback", why)
            keep = max(i for i, m in enumerate(live.moves) if m.seat in held)
            await self.undo(live, keep)
            return live

    async def undo(self, live: LiveGame, keep: int, **data: object) -> None:
        """Takes the game back to its first ``keep`` moves (under its lock): the
        ``takeback`` event (with ``data``) tells everyone, and play goes on from there."""
        undone = [m.text for m in live.moves[keep:]]
        kept = live.moves[:keep]
        state = await asyncio.to_thread(live.game.play_moves, [m.text for m in kept])
        change = Change(live)
        now = change.now
        version = live.version + 1
        clock = live.clock.copy()
        if clock.remaining is not None and live.ready:
            if clock.running is not None and clock.since is not None:
                clock.remaining[clock.running] = max(
                    0.0, clock.remaining[clock.running] - (now - clock.since)
                )
            clock.running = state.to_move
            clock.since = now
        clock.set_engine(None, now)
        if live.ready:
            clock.set_engine(engine_clock(state.view(None)), now)
        ev = self.rounds.event(change, "takeback", undone=undone, ply=keep, **data)
        ev.state = version

        def write(c: Connection) -> None:
            c.execute(
                delete(moves_table).where(
                    moves_table.c.game_id == live.id, moves_table.c.ply > keep
                )
            )

        change.writes.append(write)

        def apply() -> None:
            live.state = state
            live.version = version
            live.moves = kept
            live.clock = clock
            live.status = "active"
            live.result = None
            live.termination = None
            live.finished_at = None
            live.rematch_offers = []

        change.apply.append(apply)
        row = {
            "version": version,
            "ply": keep,
            "to_move": state.to_move,
            "status": "active",
            "result": None,
            "termination": None,
            "finished_at": None,
            "clock": clock.to_json(),
            "deadline": clock.deadline,
            "computer_to_move": live.seat_kind(state.to_move) == "computer",
            "rematch_offers": [],
        }
        await self.rounds.commit(change, row=row)


def _open_refusal(move: str) -> ApiError:
    """The one refusal of an open move, whatever the cell holds: the engine's own reasons
    (the cell is empty, its colour broke no rule, it came first) would each tell what is
    on the cell."""
    text = " ".join(move.split()).lower()
    return ApiError(
        422, "illegal_move", f"{text}: no piece there broke a rule when it was placed", move=text
    )
