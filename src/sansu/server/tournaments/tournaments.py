"""Tournaments: arenas, Swiss and round-robin events between accounts (people and bots).

A tournament is ``upcoming`` (entries open), then ``running``, then
``finished``. Its creator starts it, or it starts by itself at ``starts_at``
when enough players entered. This module holds what players do (create,
enter, pause, withdraw, start) and what anyone sees (standings, rounds,
podium); :mod:`~sansu.server.tournaments.director` pairs, creates the games
and follows their ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

import sansu
from sansu.core.registry import game_class
from sansu.server.accounts import User
from sansu.server.base import ApiError, Background, Store, game_over
from sansu.server.base import seats as seats_table
from sansu.server.play import Change, Rounds, Seating, check_time_control, hash_token, new_id
from sansu.server.ratings import get_rating, speed_of
from sansu.server.tournaments.director import Director, Pairing, PairingListener
from sansu.server.tournaments.formats import round_robin
from sansu.server.tournaments.standings import standings
from sansu.server.tournaments.tables import entries, tournaments

__all__ = ["FORMATS", "Pairing", "Tournaments"]

FORMATS = ("arena", "swiss", "round_robin")
MAX_SWISS_ROUNDS = 20
MAX_ARENA_MINUTES = 24 * 60
NEWS_WAIT = 20.0
"""Seconds a request for a tournament's news waits for a change before it answers."""
LOOK_AGAIN = 2.0
"""Seconds between two looks at the store while waiting (a change made on another node
of a cluster wakes nobody here)."""


class Tournaments:
    """Every tournament of the server: create, enter, pause, withdraw, start, follow."""

    def __init__(
        self,
        store: Store,
        rounds: Rounds,
        seating: Seating,
        background: Background,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.director = Director(store, rounds, seating, background, clock)
        self.director.start_due = lambda tid: self.start(tid, None)

    def on_pairing(self, listener: PairingListener) -> None:
        """Awaits ``listener(pairing)`` for every game a tournament creates (bots hear of
        their tournament games this way)."""
        self.director.on_pairing(listener)

    async def resume(self) -> None:
        """At start: picks up every tournament where it stood."""
        await self.director.resume()

    def time(self) -> float:
        return self.director.time()

    # -- creating ----------------------------------------------------------------------

    async def create(self, user: User, spec: Mapping[str, Any]) -> dict[str, Any]:
        """A new upcoming tournament; ``spec`` as the API's ``CreateTournament``."""
        fmt = spec.get("format")
        if fmt not in FORMATS:
            raise ApiError(422, "bad_tournament", f"format is one of {', '.join(FORMATS)}")
        try:
            game_id = game_class(str(spec.get("game"))).id
            options = dict(spec.get("options") or {})
            game = await asyncio.to_thread(sansu.load_game, game_id, **options)
            tc = check_time_control(spec.get("time_control"))
        except ApiError:
            raise
        except ValueError as error:
            raise ApiError(422, "bad_options", str(error)) from None
        if tc is None:
            raise ApiError(
                422, "time_control_required", "a tournament needs a time control: every game ends"
            )
        size = game.num_players
        if fmt != "arena" and size != 2:
            raise ApiError(
                422,
                "two_players_only",
                f"{fmt.replace('_', '-')} tournaments pair two players a game; "
                f"{game.title} with these options seats {size}: play it as an arena",
            )
        rounds = spec.get("rounds")
        minutes = spec.get("minutes")
        if fmt == "swiss" and not (isinstance(rounds, int) and 1 <= rounds <= MAX_SWISS_ROUNDS):
            raise ApiError(422, "bad_tournament", f"a Swiss has 1 to {MAX_SWISS_ROUNDS} rounds")
        if fmt == "arena" and not (
            isinstance(minutes, (int, float)) and 1 <= minutes <= MAX_ARENA_MINUTES
        ):
            raise ApiError(
                422, "bad_tournament", f"an arena lasts 1 to {MAX_ARENA_MINUTES} minutes"
            )
        now = self.time()
        starts_in = spec.get("starts_in_minutes")
        name = (spec.get("name") or "").strip() or f"{game.title} {fmt.replace('_', '-')}"
        row = {
            "id": new_id(),
            "name": name[:64],
            "format": fmt,
            "game": game_id,
            "options": options,
            "time_control": tc,
            "rated": bool(spec.get("rated")),
            "table_size": size,
            "rounds": rounds if fmt == "swiss" else None,
            "minutes": float(minutes) if fmt == "arena" else None,
            "streak": bool(spec.get("streak", True)),
            "status": "upcoming",
            "round": 0,
            "created_by": user.id,
            "created_at": now,
            "starts_at": None if starts_in is None else now + 60 * float(starts_in),
        }
        await self.director.write(lambda c: c.execute(insert(tournaments).values(**row)))
        if row["starts_at"] is not None:
            self.director.arm(row["id"], row["starts_at"])
        return await self.get(row["id"])

    # -- entries -----------------------------------------------------------------------

    async def join(self, tid: str, user: User) -> dict[str, Any]:
        """Enters ``user`` (a person or a bot), or brings back a paused arena player; in a
        running arena, pairs them at once."""
        async with self.director.lock(tid):
            t, ents, _ = await self.director.load(tid)
            mine = next((e for e in ents if e["user_id"] == user.id), None)
            if t["status"] == "finished":
                raise ApiError(409, "tournament_over", "the tournament is over")
            if t["status"] == "running" and t["format"] != "arena":
                raise ApiError(409, "tournament_started", "entries closed when it started")
            back = mine is not None and t["format"] == "arena" and mine["paused"]
            if mine is not None and not mine["withdrawn"] and not back:
                raise ApiError(409, "already_entered", "you are in this tournament already")
            if (
                mine is None
                and t["format"] == "round_robin"
                and len(ents) >= round_robin.MAX_ENTRANTS
            ):
                raise ApiError(409, "tournament_full", "a round-robin has at most 16 players")

            def write(c: Connection) -> None:
                if mine is not None:
                    c.execute(
                        update(entries)
                        .where(entries.c.tournament_id == tid, entries.c.user_id == user.id)
                        .values(withdrawn=False, paused=False)
                    )
                    return
                rating = get_rating(c, user.id, t["game"], speed_of(t["time_control"]))
                c.execute(
                    insert(entries).values(
                        tournament_id=tid,
                        user_id=user.id,
                        name=user.name,
                        bot=user.bot,
                        rating=rating.rating,
                        joined_at=self.time(),
                        paused=False,
                        withdrawn=False,
                    )
                )

            await self.director.write(write)
            self.director.touch(tid)
            if t["status"] == "running":
                await self.director.advance(tid)
        return await self.get(tid)

    async def pause(self, tid: str, user: User, paused: bool) -> dict[str, Any]:
        """An arena player stops (or starts again) being paired; a game under way goes on."""
        async with self.director.lock(tid):
            t, ents, _ = await self.director.load(tid)
            self._entry_of(ents, user)
            if t["format"] != "arena":
                raise ApiError(409, "arena_only", "only an arena's players pause; withdraw instead")
            if t["status"] == "finished":
                raise ApiError(409, "tournament_over", "the tournament is over")
            await self.director.write(
                lambda c: c.execute(
                    update(entries)
                    .where(entries.c.tournament_id == tid, entries.c.user_id == user.id)
                    .values(paused=paused)
                )
            )
            self.director.touch(tid)
            if not paused and t["status"] == "running":
                await self.director.advance(tid)
        return await self.get(tid)

    async def withdraw(self, tid: str, user: User) -> dict[str, Any]:
        """Leaves: before the start the entry is removed; after it, the player is paired no
        more (their points stay; a round-robin opponent wins their remaining games)."""
        async with self.director.lock(tid):
            t, ents, _ = await self.director.load(tid)
            self._entry_of(ents, user)
            if t["status"] == "finished":
                raise ApiError(409, "tournament_over", "the tournament is over")
            where = (entries.c.tournament_id == tid, entries.c.user_id == user.id)

            def write(c: Connection) -> None:
                if t["status"] == "upcoming":
                    c.execute(delete(entries).where(*where))
                else:
                    c.execute(update(entries).where(*where).values(withdrawn=True))

            await self.director.write(write)
            self.director.touch(tid)
            if t["status"] == "running":
                await self.director.advance(tid)
        return await self.get(tid)

    @staticmethod
    def _entry_of(ents: list[dict], user: User) -> dict:
        mine = next((e for e in ents if e["user_id"] == user.id), None)
        if mine is None:
            raise ApiError(409, "not_entered", "you are not in this tournament")
        return mine

    # -- a player's seat in a browser ---------------------------------------------------

    async def seat_token(self, tid: str, game_id: str, user: User) -> dict[str, Any]:
        """A new token for ``user``'s seat in their game of this tournament, for a browser
        that plays by seat tokens; it replaces the seat's previous token (the account still
        acts for the seat, and can ask again)."""
        _, _, rows = await self.director.load(tid)
        row = next((r for r in rows if r["game_id"] == game_id), None)
        if row is None or user.id not in row["players"]:
            raise ApiError(403, "not_your_game", "your account holds no seat in this game")
        live = await self.director.rounds.get(game_id)
        async with live.lock:
            if live.status != "active":
                raise game_over()
            seat = next(s.seat for s in live.seats if s.user_id == user.id)
            token = secrets.token_urlsafe(24)
            digest = hash_token(token)
            change = Change(live)
            change.writes.append(
                lambda c: c.execute(
                    update(seats_table)
                    .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                    .values(token_hash=digest)
                )
            )
            seats_after = [
                replace(s, token_hash=digest) if s.seat == seat else s for s in live.seats
            ]
            change.apply.append(lambda: setattr(live, "seats", seats_after))
            await self.director.rounds.commit(change, row={})
        return {"game_id": game_id, "seat": seat, "token": token}

    # -- starting and advancing --------------------------------------------------------

    async def start(self, tid: str, user: User | None) -> dict[str, Any]:
        """Starts an upcoming tournament: by its creator, or by its timer (``user=None``)."""
        async with self.director.lock(tid):
            t, ents, _ = await self.director.load(tid)
            if user is not None and t["created_by"] != user.id:
                raise ApiError(403, "not_creator", "only the tournament's creator starts it")
            if t["status"] != "upcoming":
                raise ApiError(409, "tournament_started", "the tournament has started already")
            present = [e for e in ents if not e["withdrawn"]]
            need = t["table_size"] if t["format"] == "arena" else 2
            if len(present) < need:
                raise ApiError(409, "too_few_players", f"it needs at least {need} players to start")
            now = self.time()
            values: dict[str, Any] = {"status": "running", "started_at": now}
            if t["format"] == "arena":
                values["ends_at"] = now + 60 * float(t["minutes"])
            if t["format"] == "round_robin":
                values["rounds"] = round_robin.rounds_for(len(present))
            await self.director.write(
                lambda c: c.execute(
                    update(tournaments).where(tournaments.c.id == tid).values(**values)
                )
            )
            self.director.touch(tid)
            if "ends_at" in values:
                self.director.arm(tid, values["ends_at"])
            await self.director.advance(tid)
        return await self.get(tid)

    # -- reading -----------------------------------------------------------------------

    async def get(self, tid: str) -> dict[str, Any]:
        """The tournament with its standings and its pairings, as anyone may see it."""
        t, ents, rows = await self.director.load(tid)
        lines = standings(t["format"], ents, rows, streak=t["streak"])
        names = {e["user_id"]: e["name"] for e in ents}
        rounds: dict[int, list[dict]] = {}
        for r in sorted(rows, key=lambda r: (r["round"], r["board"])):
            rounds.setdefault(r["round"], []).append(
                {
                    "board": r["board"],
                    "kind": r["kind"],
                    "players": [{"user_id": p, "name": names.get(p)} for p in r["players"]],
                    "game_id": r["game_id"],
                    "outcomes": r["outcomes"],
                    "finished": r["finished_at"] is not None,
                }
            )
        out = summary(t, len(ents))
        out["now"] = self.time()
        out["version"] = version(t, ents, rows)
        out["standings"] = [line.to_json(i) for i, line in enumerate(lines, start=1)]
        out["round_count"] = t["rounds"]  # the summary's count, before ``rounds`` lists them
        out["rounds"] = [{"round": n, "pairings": ps} for n, ps in sorted(rounds.items())]
        out["podium"] = out["standings"][:3] if t["status"] == "finished" else []
        return out

    async def news(self, tid: str, since: str | None, wait: float = NEWS_WAIT) -> dict[str, Any]:
        """The tournament (as :meth:`get`) once its ``version`` is other than ``since``, or
        after ``wait`` seconds unchanged: a page learns of its player's new pairing at once."""
        deadline = time.monotonic() + wait
        while True:
            changed = self.director.changes(tid)
            t = await self.get(tid)
            left = deadline - time.monotonic()
            if t["version"] != since or left <= 0:
                return t
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(left, LOOK_AGAIN))

    async def list_all(self, status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        """Tournaments, newest first (``status``: upcoming, running or finished)."""

        def read(c: Connection) -> list[dict[str, Any]]:
            query = select(tournaments).order_by(tournaments.c.created_at.desc()).limit(limit)
            if status is not None:
                query = query.where(tournaments.c.status == status)
            found = [dict(r._mapping) for r in c.execute(query)]
            counts: dict[str, int] = {}
            if found:
                for (tid,) in c.execute(
                    select(entries.c.tournament_id).where(
                        entries.c.tournament_id.in_([t["id"] for t in found])
                    )
                ):
                    counts[tid] = counts.get(tid, 0) + 1
            return [summary(t, counts.get(t["id"], 0)) for t in found]

        return await self.store.read(read)


def version(t: Mapping[str, Any], ents: list[dict], rows: list[dict]) -> str:
    """What changes with every change of the tournament a page shows: its state, its
    entries and their pauses, its pairings, their games and results."""
    parts = [
        (t["status"], t["round"]),
        sorted((e["user_id"], e["paused"], e["withdrawn"]) for e in ents),
        sorted((r["id"], r["game_id"] or "", r["finished_at"] is not None) for r in rows),
    ]
    return hashlib.blake2b(repr(parts).encode(), digest_size=8).hexdigest()


def summary(t: Mapping[str, Any], players: int) -> dict[str, Any]:
    return {
        "id": t["id"],
        "name": t["name"],
        "format": t["format"],
        "game": t["game"],
        "options": t["options"],
        "time_control": t["time_control"],
        "rated": t["rated"],
        "table_size": t["table_size"],
        "rounds": t["rounds"],
        "round": t["round"],
        "minutes": t["minutes"],
        "streak": t["streak"],
        "status": t["status"],
        "created_by": t["created_by"],
        "created_at": t["created_at"],
        "starts_at": t["starts_at"],
        "started_at": t["started_at"],
        "ends_at": t["ends_at"],
        "finished_at": t["finished_at"],
        "players": players,
    }
