"""The games being played: which are in memory, loading them, and committing their changes.

Every change of a game goes through :meth:`Rounds.commit`, in three steps:
the caller checked the request against the rules and the state number the
client saw (under the game's lock); the change and its events are committed
to the store; only then is the memory changed and are the clients told. A
change that could not be committed leaves everything as it was.

Memory holds the games in use; a game nobody used for a while (no socket,
no request, no computer thinking) leaves memory and is loaded again from
the store on its next request, clocks included: the store is the truth.
Other domains (clocks, computer turns) follow every change through
:meth:`Rounds.on_change`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any, Protocol

from sqlalchemy import Connection

from sansu.core.protocol import Result, State
from sansu.server.base import ApiError, Rows, Store, StoreError, not_found, write_rows
from sansu.server.base import events as events_table
from sansu.server.base import games as games_table
from sansu.server.base import moves as moves_table
from sansu.server.play.hub import Hub
from sansu.server.play.live import Change, Event, LiveGame, PlayedMove
from sansu.server.play.stored import insert_game, live_game, read_game

log = logging.getLogger("sansu.server")

KEEP_FINISHED = 600.0
"""Seconds a finished game stays in memory after its last use (for rematches, replays)."""
KEEP_IDLE = 900.0
"""Seconds a game in play stays in memory after its last use when nobody is connected."""


class Judge(Protocol):
    """Which games this server may change, when it is one node of several
    (:mod:`sansu.server.cluster.node`); a single server judges every game."""

    def judges(self, game_id: str) -> bool: ...

    async def before_commit(self, live: LiveGame) -> None: ...

    def committed(self, live: LiveGame, events: list[Event]) -> None: ...

    def lost(self, live: LiveGame) -> None: ...

    async def loading(self, game_id: str) -> None:
        """Before a game is read from the store into memory."""

    def unloaded(self, game_id: str) -> None:
        """A game left memory."""


class Rounds:
    """Every game in memory, by id; the one place that commits their changes."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        *,
        clock: Callable[[], float] = time.time,
        keep_idle: float = KEEP_IDLE,
        keep_finished: float = KEEP_FINISHED,
    ) -> None:
        self.store = store
        self.hub = hub
        self.time = clock
        self.keep_idle = keep_idle
        self.keep_finished = keep_finished
        self.games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        self._listeners: list[Callable[[LiveGame], None]] = []
        self._finishers: list[Callable[[Change, Event], None]] = []
        self._finish_listeners: list[Callable[[LiveGame], None]] = []
        self._pins: list[Callable[[LiveGame], bool]] = []
        self.judge: Judge | None = None
        """Set on a node of a cluster: only the games it judges run clocks, computers,
        listeners, and their commits are fenced by the stored event number."""

    def on_change(self, listener: Callable[[LiveGame], None]) -> None:
        """Calls ``listener`` after every committed change (and for every game resumed)."""
        self._listeners.append(listener)

    def while_finishing(self, finisher: Callable[[Change, Event], None]) -> None:
        """Calls ``finisher(change, game_over_event)`` on every change that ends a game,
        before it is committed: its writes join the result's transaction."""
        self._finishers.append(finisher)

    def _finishing(self, change: Change, over: Event) -> None:
        for finisher in self._finishers:
            finisher(change, over)

    def on_finish(self, listener: Callable[[LiveGame], None]) -> None:
        """Calls ``listener`` once when a game ends (rules, resignation, flag), after the
        commit; a crash just after it may lose the call, so listeners also check the
        store when they start."""
        self._finish_listeners.append(listener)

    def pin(self, keeps: Callable[[LiveGame], bool]) -> None:
        """``keeps(live)`` true keeps the game in memory (e.g. while a computer thinks)."""
        self._pins.append(keeps)

    def changed(self, live: LiveGame) -> None:
        if self.judge is not None and not self.judge.judges(live.id):
            return
        for listener in self._listeners:
            listener(live)

    # -- memory ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def creating(self, live: LiveGame) -> AsyncIterator[None]:
        """The block stores the new game ``live``; it then enters memory.

        Its row is visible in the store before memory holds it: a reader that
        finds it there meanwhile (a bot's stream listing its games) waits for
        this very object rather than loading a copy that would miss what is
        done to this one next (the second seat taken)."""
        future: asyncio.Future[LiveGame] = asyncio.get_running_loop().create_future()
        self._loading[live.id] = future
        try:
            yield
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: the waiters re-raise it themselves
            raise
        else:
            self.games[live.id] = live
            future.set_result(live)
        finally:
            del self._loading[live.id]

    def _evictable(self, live: LiveGame) -> bool:
        return not (
            live.lock.locked()
            or self.hub.connections.get(live.id)
            or any(keeps(live) for keeps in self._pins)
        )

    def evict(self, game_id: str, *, active: bool = False) -> bool:
        """Drops a game nobody uses from memory (the store keeps it); games in play
        only with ``active``."""
        live = self.games.get(game_id)
        if live is None or (live.status == "active" and not active) or not self._evictable(live):
            return False
        del self.games[game_id]
        self.hub.forget(game_id)
        if self.judge is not None:
            self.judge.unloaded(game_id)
        return True

    def evict_idle(self, now: float | None = None) -> int:
        """Drops every game unused for longer than it is kept; returns how many."""
        now = time.monotonic() if now is None else now
        dropped = 0
        for game_id, live in list(self.games.items()):
            keep = self.keep_idle if live.status == "active" else self.keep_finished
            if now - live.touched >= keep and self.evict(game_id, active=True):
                dropped += 1
        return dropped

    async def sweep(self, every: float) -> None:
        """Evicts idle games every ``every`` seconds, until cancelled."""
        while True:
            await asyncio.sleep(every)
            self.evict_idle()

    # -- loading -----------------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game ``game_id``, loaded from the store if needed; 404 when there is none."""
        live = self.games.get(game_id)
        if live is not None:
            live.touched = time.monotonic()
            return live
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 24:
            raise not_found(str(game_id)[:40])
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveGame] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            if self.judge is not None:
                await self.judge.loading(game_id)
            loaded = await asyncio.to_thread(self.load, game_id)
            live = self.games.setdefault(game_id, loaded)  # never over one in use
            future.set_result(live)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: other waiters re-raise it themselves
            raise
        finally:
            del self._loading[game_id]
        self.changed(live)  # its clocks and computer resume
        return live

    def load(self, game_id: str) -> LiveGame:
        """The game as stored now, read in one snapshot; memory is left alone."""
        return live_game(*self.store.read_now(lambda c: read_game(c, game_id)))

    async def insert(self, live: LiveGame) -> None:
        """Stores a new game and puts it in memory (refused with 503 if the store cannot)."""
        async with self.creating(live):
            try:
                await self.store.write(lambda c: insert_game(c, live))
            except StoreError as error:
                raise ApiError(503, "store_unavailable", str(error)) from None

    # -- committing --------------------------------------------------------------------

    @staticmethod
    def event(change: Change, kind: str, **data: Any) -> Event:
        live = change.live
        seq = live.seq + 1 + len(change.events)
        event = Event(seq, kind, live.version, data, change.now)
        change.events.append(event)
        return event

    async def commit(self, change: Change, *, row: Mapping[str, Any] | None = None) -> None:
        """Stores the change, then applies it in memory and tells the clients."""
        live = change.live
        live_seq = live.seq + len(change.events)
        fields = dict(row or {})
        fields["seq"] = live_seq
        fields["updated_at"] = change.now
        fenced = self.judge is not None

        def rows() -> Rows:
            out = Rows()
            if fenced:  # committed only over the stored event number it was made from
                out.fence(games_table, live.id, "seq", live.seq, live_seq)
            for table, values in change.inserts:
                out.insert(table, values)
            for e in change.events:
                out.insert(events_table, e.to_row(live.id))
            out.update(games_table, live.id, fields)
            return out

        writes = list(change.writes)
        if self.judge is not None:
            await self.judge.before_commit(live)
        job: Any = rows()
        if writes:

            def job(c: Connection) -> None:
                for write in writes:
                    write(c)
                write_rows(c, [rows()])  # after the writes, which may fill in events

        try:
            await self.store.write(job)
        except StoreError as error:
            if self.judge is not None:
                self.judge.lost(live)
            raise ApiError(503, "store_unavailable", str(error)) from None
        was_active = live.status == "active"
        for fn in change.apply:
            fn()
        live.seq = live_seq
        live.updated_at = change.now
        live.touched = time.monotonic()
        live.events.extend(change.events)
        self.hub.publish(live, change.events)
        if self.judge is not None:
            self.judge.committed(live, change.events)
        self.changed(live)
        if was_active and live.status == "finished":
            for listener in self._finish_listeners:
                listener(live)

    async def commit_move(
        self,
        live: LiveGame,
        new_state: State,
        seat: int | None,
        *,
        by: str | None = None,
        turn: bool = True,
    ) -> None:
        """Commits ``new_state``, reached from the game's state by one move of ``seat``.

        ``turn=False``: a move that uses nobody's turn (a spectator's report):
        no clock increment for ``seat``.
        """
        change = Change(live)
        now = change.now
        text = str(new_state.last_move) if new_state.last_move is not None else "?"
        version = live.version + 1
        ply = len(live.moves) + 1
        clock = live.clock.copy()
        data = new_state.view(None)
        result = new_state.result
        if live.ready:
            clock.after_move(seat if turn else None, new_state.to_move, data, now)
        elif result is not None:
            clock.stop(now)
        played = PlayedMove(ply, text, seat, now, version)
        change.inserts.append(
            (
                moves_table,
                {
                    "game_id": live.id,
                    "ply": ply,
                    "text": text,
                    "seat": seat,
                    "at": now,
                    "state": version,
                },
            )
        )

        def apply() -> None:
            live.state = new_state
            live.version = version
            live.moves.append(played)
            live.clock = clock
            live.prime_view(data)
            if result is not None:
                live.status = "finished"
                live.result = result.to_dict()
                live.termination = "rules"
                live.finished_at = now

        change.apply.append(apply)
        event_data: dict[str, Any] = {"move": text, "seat": seat, "ply": ply}
        if by:
            event_data["by"] = by
        self.event(change, "move", **event_data).state = version
        if result is not None:
            over = self.event(change, "game_over", result=result.to_dict(), termination="rules")
            over.state = version
            self._finishing(change, over)
        row = {
            "version": version,
            "ply": ply,
            "to_move": new_state.to_move,
            "clock": clock.to_json(),
            "deadline": clock.deadline if result is None else None,
            "computer_to_move": result is None and live.seat_kind(new_state.to_move) == "computer",
        }
        if result is not None:
            row.update(
                status="finished",
                result=result.to_dict(),
                termination="rules",
                finished_at=now,
                deadline=None,
            )
        await self.commit(change, row=row)

    # -- ending by the host: resignation, fallen flag ----------------------------------

    @staticmethod
    def others_win(live: LiveGame, loser: int, reason: str) -> Result:
        """Everyone but ``loser`` (and, with teams, their team-mates) wins."""
        teams = live.game.teams if hasattr(live.game, "teams") else None
        losers = {loser}
        if teams:
            for team in teams:
                if loser in team:
                    losers |= set(team)
        winners = [s.seat for s in live.seats if s.seat not in losers]
        return Result.win(*winners, reason=reason)

    async def finish(
        self, live: LiveGame, result: Result | None, termination: str, event: str, **data: Any
    ) -> None:
        """Ends the game with ``result`` decided by the host (``event``: resign, flag,
        claim); ``result=None`` aborts it (``event``: abort): no result, no rating."""
        change = Change(live)
        now = change.now
        version = live.version + 1
        clock = live.clock.copy()
        clock.stop(now)
        status = "finished" if result is not None else "aborted"
        outcome = None if result is None else result.to_dict()
        self.event(change, event, **data).state = version
        over = self.event(change, "game_over", result=outcome, termination=termination)
        over.state = version
        if result is not None:
            self._finishing(change, over)

        def apply() -> None:
            live.version = version
            live.status = status
            live.result = outcome
            live.termination = termination
            live.finished_at = now
            live.clock = clock

        change.apply.append(apply)
        row = {
            "version": version,
            "status": status,
            "result": outcome,
            "termination": termination,
            "finished_at": now,
            "to_move": None,
            "clock": clock.to_json(),
            "deadline": None,
            "computer_to_move": False,
        }
        await self.commit(change, row=row)
