"""The tournaments' director: pairs, creates the games, records their ends, resumes.

Every change of a tournament runs under its lock. Pairings come from the pure
modules of :mod:`~sansu.server.tournaments.formats` (arena, swiss, round_robin);
each pairing's game is created with every seat bound to its player's account
(rated tournaments create rated games).
A game's end reaches the director through :meth:`Rounds.on_finish`; its
result is written by a conditional update, so it advances the tournament
exactly once, and at start every open pairing is checked against the stored
games (a game that ended while the server was down, a pairing whose game was
not yet created), then the timers (an arena's end, a start time) are re-armed.
An arena's player who lost a game without moving in it is paused in the same
write as the game's result (:mod:`~sansu.server.tournaments.first_move`), and
every change wakes those who wait for the tournament's news (:meth:`Director.changes`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from sansu.server.accounts import User, users_table
from sansu.server.base import ApiError, Background, Store, StoreError
from sansu.server.base import games as games_table
from sansu.server.play import LiveGame, Rounds, Seating
from sansu.server.tournaments.first_move import FirstMoves
from sansu.server.tournaments.formats import arena
from sansu.server.tournaments.planning import next_round, pairing_row, waiting_players
from sansu.server.tournaments.tables import entries, pairings, tournaments

log = logging.getLogger("sansu.server")


@dataclass(frozen=True)
class Pairing:
    """A game a tournament just started, announced to :meth:`Tournaments.on_pairing`
    listeners (the bots' event stream)."""

    tournament_id: str
    game_id: str
    round: int
    players: tuple[int, ...]
    """User ids in seat order."""


PairingListener = Callable[[Pairing], Awaitable[None]]
STALE_RETRIES = 5


class StalePairings(Exception):
    """The tournament's pairings changed since they were read: pair again from the store."""


def not_found(tid: str) -> ApiError:
    return ApiError(404, "no_such_tournament", f"there is no tournament {str(tid)[:40]!r}")


def rows_of(c: Connection, table: Any, *where: Any) -> list[dict[str, Any]]:
    return [dict(r._mapping) for r in c.execute(select(table).where(*where))]


class Director:
    """Runs every tournament: pairings, games, results, timers."""

    def __init__(
        self,
        store: Store,
        rounds: Rounds,
        seating: Seating,
        background: Background,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.rounds = rounds
        self.seating = seating
        self.background = background
        self.time = clock
        self._locks: dict[str, asyncio.Lock] = {}
        self._listeners: list[PairingListener] = []
        self._timers: dict[str, asyncio.Task[Any]] = {}
        self.start_due: Callable[[str], Awaitable[Any]] | None = None
        """Starts a tournament whose start time came (set by :class:`Tournaments`)."""
        self._news: dict[str, asyncio.Event] = {}
        self.first_moves = FirstMoves(rounds, background, clock)
        rounds.on_finish(self._game_finished)

    def on_pairing(self, listener: PairingListener) -> None:
        """Awaits ``listener(pairing)`` for every game a tournament creates."""
        self._listeners.append(listener)

    def lock(self, tid: str) -> asyncio.Lock:
        return self._locks.setdefault(tid, asyncio.Lock())

    def changes(self, tid: str) -> asyncio.Event:
        """Set at the tournament's next change made here (take it before reading, so that
        a change made meanwhile is not missed)."""
        return self._news.setdefault(tid, asyncio.Event())

    def touch(self, tid: str) -> None:
        """Wakes whoever waits for the tournament's news."""
        event = self._news.pop(tid, None)
        if event is not None:
            event.set()

    async def write(self, fn: Callable[[Connection], Any]) -> Any:
        try:
            return await self.store.write(fn)
        except StoreError as error:
            raise ApiError(503, "store_unavailable", str(error)) from None

    async def load(self, tid: str) -> tuple[dict, list[dict], list[dict]]:
        def read(c: Connection) -> tuple[dict, list[dict], list[dict]]:
            found = rows_of(c, tournaments, tournaments.c.id == tid)
            if not found:
                raise not_found(tid)
            return (
                found[0],
                rows_of(c, entries, entries.c.tournament_id == tid),
                rows_of(c, pairings, pairings.c.tournament_id == tid),
            )

        if not isinstance(tid, str) or not 1 <= len(tid) <= 24:
            raise not_found(str(tid))
        return await self.store.read(read)

    async def advance(self, tid: str) -> None:
        """Under the lock: pairs whoever can be paired, or ends the tournament."""
        for _ in range(STALE_RETRIES):
            try:
                await self._advance(tid)
                return
            except StalePairings:
                log.info("tournament %s: paired elsewhere meanwhile; reading it again", tid)
        log.warning("tournament %s: its pairings keep changing; not paired now", tid)

    async def _advance(self, tid: str) -> None:
        t, ents, rows = await self.load(tid)
        if t["status"] != "running":
            return
        now = self.time()
        open_rows = [r for r in rows if r["finished_at"] is None]
        if t["format"] == "arena":
            if now >= t["ends_at"]:
                if not open_rows:
                    await self._finish(tid)
                return
            waiting = waiting_players(ents, rows, t["streak"])
            active = sum(1 for e in ents if not (e["paused"] or e["withdrawn"]))
            tables = arena.pair(waiting, t["table_size"], now=now, alone=active <= t["table_size"])
            seated = {pid for table in tables for pid in table}
            if any(w.free and w.id not in seated for w in waiting):
                # a rematch held back now may be due later: look again then
                self.arm(tid, min(now + arena.REMATCH_AFTER, t["ends_at"]), key=f"{tid}/wait")
            number = max((r["round"] for r in rows), default=0)
            planned = [
                pairing_row(tid, number + 1 + i, 1, "game", list(table), now)
                for i, table in enumerate(tables)
            ]
        else:
            if any(r["round"] == t["round"] for r in open_rows):
                return
            if t["round"] >= (t["rounds"] or 0):
                await self._finish(tid)
                return
            try:
                # the Dutch engine may search for a while: off the event loop
                planned = await asyncio.to_thread(next_round, t, ents, rows, now)
            except ValueError as error:  # nobody left to pair, or no pairing without a rematch
                log.info("tournament %s ends early: %s", tid, error)
                await self._finish(tid)
                return
            number = t["round"] + 1
        if not planned:
            return

        def write(c: Connection) -> bool:
            if not unchanged(c, tid, rows):
                return False
            c.execute(insert(pairings), planned)
            if t["format"] != "arena":
                c.execute(update(tournaments).where(tournaments.c.id == tid).values(round=number))
            return True

        if not await self.write(write):
            raise StalePairings(tid)
        for row in planned:
            if row["kind"] == "game":
                await self._create_game(t, row)
        self.touch(tid)
        if t["format"] != "arena" and all(r["kind"] != "game" for r in planned):
            await self.advance(tid)  # a round of byes and forfeits only: on to the next

    async def _create_game(self, t: dict, row: dict) -> str | None:
        """Creates a pairing's game, every seat bound to its player's account."""

        def read(c: Connection) -> dict[int, User]:
            found = c.execute(select(users_table).where(users_table.c.id.in_(row["players"]))).all()
            return {r.id: User(r.id, r.name, r.created_at, bool(r.bot)) for r in found}

        players = await self.store.read(read)
        meta: dict[str, Any] = {
            "tournament": t["id"],
            "pairing": row["id"],
            "bots": [s for s, pid in enumerate(row["players"]) if players[pid].bot],
        }
        if t["format"] == "arena":
            meta["first_move"] = arena.first_move_seconds(t["time_control"])
        try:
            live, _ = await self.seating.create(
                t["game"],
                t["options"],
                None,
                take=[],
                casual=not t["rated"],
                time_control=t["time_control"],
                bind={seat: players[pid] for seat, pid in enumerate(row["players"])},
                meta=meta,
            )
        except ApiError:
            log.exception("tournament %s: cannot create the game of %s", t["id"], row["id"])
            return None
        return await self._attach(t, row, live)

    async def _attach(self, t: dict, row: dict, live: LiveGame) -> str:
        await self.write(
            lambda c: c.execute(
                update(pairings).where(pairings.c.id == row["id"]).values(game_id=live.id)
            )
        )
        pairing = Pairing(t["id"], live.id, row["round"], tuple(row["players"]))
        for listener in self._listeners:
            try:
                await listener(pairing)
            except Exception:
                log.exception("a pairing listener failed")
        return live.id

    async def _finish(self, tid: str) -> None:
        now = self.time()
        await self.write(
            lambda c: c.execute(
                update(tournaments)
                .where(tournaments.c.id == tid)
                .values(status="finished", finished_at=now)
            )
        )
        self.touch(tid)

    # -- games ending ------------------------------------------------------------------

    def _game_finished(self, live: LiveGame) -> None:
        tid = live.meta.get("tournament")
        pid = live.meta.get("pairing")
        if tid and pid:
            seats = self.rounds.hub.presence(live)["seats"]
            absent = frozenset(s for s, here in enumerate(seats) if not here)
            self.background.spawn(self._record(str(tid), str(pid), live, absent))

    async def _record(self, tid: str, pid: str, live: LiveGame, absent: frozenset[int]) -> None:
        async with self.lock(tid):
            if await self._store_result(pid, live, absent):
                self.touch(tid)
                await self.advance(tid)

    async def _store_result(
        self, pid: str, live: LiveGame, absent: frozenset[int] = frozenset()
    ) -> bool:
        """Writes a pairing's outcomes once, pausing an arena's players who lost it without
        a move (:func:`arena.idle_losers`; ``absent``: the seats nobody had open at its end);
        False when they were written already."""
        result = live.result
        moved = {m.seat for m in live.moves}

        def write(c: Connection) -> int:
            row = c.execute(
                select(pairings.c.players, pairings.c.tournament_id).where(pairings.c.id == pid)
            ).first()
            if row is None:
                return 0
            outcomes = arena.outcomes_of(result, len(row.players))
            done = c.execute(
                update(pairings)
                .where(pairings.c.id == pid, pairings.c.finished_at.is_(None))
                .values(outcomes=outcomes, finished_at=self.time())
            )
            idle = arena.idle_losers(moved, outcomes, live.termination, absent)
            if done.rowcount and idle and "first_move" in live.meta:
                c.execute(
                    update(entries)
                    .where(
                        entries.c.tournament_id == row.tournament_id,
                        entries.c.user_id.in_([row.players[s] for s in idle]),
                    )
                    .values(paused=True)
                )
            return done.rowcount

        return bool(await self.write(write))

    # -- restart -----------------------------------------------------------------------

    async def resume(self) -> None:
        """At start: finds results and games the server missed, re-arms the timers, pairs."""

        def read(c: Connection) -> list[dict]:
            return rows_of(c, tournaments, tournaments.c.status != "finished")

        for t in await self.store.read(read):
            await self.resume_one(t)

    async def resume_one(self, t: dict[str, Any]) -> None:
        """Picks up one tournament (a row of ``tournaments``) where it stood: at start, or
        on a node of a cluster that takes its direction over."""
        try:
            if t["status"] == "upcoming":
                if t["starts_at"] is not None:
                    self.arm(t["id"], t["starts_at"])
                return
            async with self.lock(t["id"]):
                await self._reconcile(t)
                await self.advance(t["id"])
            if t["format"] == "arena":
                self.arm(t["id"], t["ends_at"])
        except Exception:
            log.exception("cannot resume tournament %s", t["id"])

    async def _reconcile(self, t: dict) -> None:
        _, _, rows = await self.load(t["id"])
        for row in rows:
            if row["finished_at"] is not None:
                continue
            if row["game_id"] is None:
                found = await self.store.read(lambda c, row=row: _game_of(c, row))
                if found is None:
                    await self._create_game(t, row)
                    continue
                await self._attach(t, row, await self.rounds.get(found))
                row["game_id"] = found
            live = await self.rounds.get(row["game_id"])
            if live.status == "finished":
                await self._store_result(row["id"], live)

    # -- timers ------------------------------------------------------------------------

    def arm(self, tid: str, when: float, *, key: str | None = None) -> None:
        """Looks at the tournament again at ``when`` (one timer per ``key``)."""
        key = key or tid
        old = self._timers.pop(key, None)
        if old is not None:
            old.cancel()
        self._timers[key] = self.background.spawn(self._at(tid, when, key))

    async def _at(self, tid: str, when: float, key: str) -> None:
        await asyncio.sleep(max(0.0, when - self.time()))
        self._timers.pop(key, None)
        try:
            t, _, _ = await self.load(tid)
            if t["status"] == "upcoming":
                if self.start_due is not None:
                    await self.start_due(tid)
            else:
                async with self.lock(tid):
                    await self.advance(tid)
        except ApiError as error:
            log.info("tournament %s: %s", tid, error.message)


def unchanged(c: Connection, tid: str, rows: list[dict[str, Any]]) -> bool:
    """The fence of a new pairing: true only if the tournament still has the pairings
    ``rows`` read before pairing (none more, none finished since), so that two writers
    (two nodes of a cluster) never pair the same players twice. The tournament's row is
    locked first (PostgreSQL), so such writers take turns."""
    c.execute(select(tournaments.c.id).where(tournaments.c.id == tid).with_for_update())
    count, finished = c.execute(
        select(func.count(), func.count(pairings.c.finished_at)).where(
            pairings.c.tournament_id == tid
        )
    ).one()
    return (count, finished) == (len(rows), sum(r["finished_at"] is not None for r in rows))


def _game_of(c: Connection, row: Mapping[str, Any]) -> str | None:
    """The game created for a pairing whose row was not updated (a stop in between);
    never an imported record, whose metadata anyone may write."""
    for gid, meta in c.execute(
        select(games_table.c.id, games_table.c.meta).where(
            games_table.c.created_at >= row["created_at"]
        )
    ):
        meta = meta or {}
        if meta.get("pairing") == row["id"] and not meta.get("imported"):
            return str(gid)
    return None
