"""Quick pairing's waiting room: who waits for which game, and the games it starts.

A player asks to play someone now (a game, a time control, rated or
casual) and gets a ticket; the page then looks every couple of seconds,
which keeps them waiting (a ticket not heard from for
:data:`~sansu.server.lobby.seeks.SEEN_TIMEOUT` seconds has left) and runs the
matching (:mod:`sansu.server.lobby.pairing`). A signed-in player waits with their
rating for that game and time-control class; an anonymous one with
:data:`ANONYMOUS_RATING`. A pair found starts a game at once, with both
seated in a random order; each learns its seat with its next look.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sansu.server.accounts import User
from sansu.server.base import ApiError
from sansu.server.lobby.pairing import Waiting, pairs, rating_range
from sansu.server.lobby.seeks import (
    SEEN_TIMEOUT,
    Ticket,
    holds,
    new_ticket,
    sign_in_required,
    start_game,
)
from sansu.server.play import GameService
from sansu.server.ratings import get_rating, speed_of

ANONYMOUS_RATING = 1500.0
"""The rating an anonymous player waits with (a new account's)."""
KEEP_PAIRED = 120.0
"""Seconds a paired ticket keeps its seat for its holder to collect."""
MAX_WAITING = 1000


@dataclass
class Entry:
    ticket: Ticket
    game: str
    time_control: dict[str, Any] | None
    casual: bool
    rating: float
    since: float
    paired_at: float | None = None

    @property
    def pool(self) -> tuple[Any, ...]:
        tc = self.time_control or {}
        return (
            self.game,
            tc.get("initial_seconds"),
            tc.get("increment_seconds"),
            self.casual,
        )

    def waiting(self) -> Waiting:
        return Waiting(
            self.ticket.token_hash, self.ticket.person, self.pool, self.rating, self.since
        )

    def public(self, now: float) -> dict[str, Any]:
        waited = now - self.since
        reach = rating_range(waited)
        return {
            "status": "paired" if self.ticket.seat else "waiting",
            "game": self.game,
            "time_control": self.time_control,
            "casual": self.casual,
            "rating": round(self.rating),
            "waited": round(waited, 1),
            "range": None if reach == float("inf") else round(reach),
            "seat": self.ticket.seat,
        }


class PairingDesk:
    """Everyone waiting for quick pairing, by ticket."""

    def __init__(self, service: GameService, clock: Callable[[], float] = time.time) -> None:
        self.service = service
        self.time = clock
        self.entries: dict[str, Entry] = {}
        self.lock = asyncio.Lock()

    def prune(self) -> None:
        now = self.time()
        for key, entry in list(self.entries.items()):
            if entry.paired_at is not None:
                if now - entry.paired_at > KEEP_PAIRED:
                    del self.entries[key]
            elif now - entry.ticket.seen_at > SEEN_TIMEOUT:
                del self.entries[key]

    async def join(
        self,
        game: str,
        time_control: Mapping[str, Any] | None,
        casual: bool,
        user: User | None,
        name: str | None,
    ) -> tuple[Entry, str]:
        """Starts waiting; a signed-in player waiting already stops their older wait."""
        if not casual and user is None:
            raise sign_in_required()
        self.prune()
        if len(self.entries) >= MAX_WAITING:
            raise ApiError(503, "lobby_full", "too many players are waiting: try again soon")
        rating = ANONYMOUS_RATING
        if user is not None:
            speed = speed_of(time_control)
            found = await self.service.store.read(
                lambda c: get_rating(c, user.id, game, speed)
            )
            rating = float(found.rating)
            me = f"user:{user.id}"
            for key, entry in list(self.entries.items()):
                if entry.ticket.person == me and entry.paired_at is None:
                    del self.entries[key]
        now = self.time()
        token, ticket = new_ticket(user, name, now)
        entry = Entry(
            ticket, game, None if time_control is None else dict(time_control), casual, rating, now
        )
        self.entries[ticket.token_hash] = entry
        await self.match()
        return entry, token

    def entry(self, token: str | None) -> Entry:
        if not token:
            raise ApiError(401, "ticket_required", "this needs the wait's ticket (Bearer TICKET)")
        self.prune()
        for entry in self.entries.values():
            if holds(entry.ticket, token):
                return entry
        raise ApiError(404, "not_waiting", "this ticket is waiting for nothing (cancelled or gone)")

    async def look(self, token: str | None) -> Entry:
        """A waiting player's look: keeps them waiting, and pairs whoever fits."""
        entry = self.entry(token)
        entry.ticket.seen_at = self.time()
        await self.match()
        return entry

    def cancel(self, token: str | None) -> None:
        entry = self.entry(token)
        if entry.paired_at is not None:
            raise ApiError(409, "already_paired", "this wait found a game already")
        del self.entries[entry.ticket.token_hash]

    async def match(self) -> int:
        """Starts a game for every pair that fits now; how many started."""
        async with self.lock:
            now = self.time()
            waiting = [e for e in self.entries.values() if e.paired_at is None]
            by_key = {e.ticket.token_hash: e for e in waiting}
            started = 0
            for a, b in pairs([e.waiting() for e in waiting], now):
                first, second = by_key[a.key], by_key[b.key]
                await start_game(
                    self.service,
                    [first.ticket, second.ticket],
                    first.game,
                    {},
                    first.time_control,
                    first.casual,
                )
                first.paired_at = second.paired_at = now
                started += 1
            return started
