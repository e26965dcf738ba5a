"""Seeks: open challenges in the lobby, kept in memory, and the games they start.

A player (signed in or not) posts a seek: a game, its options, a time
control, rated or casual. It is listed in the lobby until someone else
accepts it, its poster cancels it, or its poster leaves: every participant
holds a *ticket* (a secret shown once, like a seat's token) and polls the
seek with it; a participant not heard from for :data:`SEEN_TIMEOUT` seconds
has left (a poster who left takes the seek away). A seek for more than two
players (Sudoku Challenge, 3–5) waits until it is full.

When the last seat is filled the game starts with every participant seated
in a random order (a signed-in participant's seat bound to their account);
each participant gets their seat's token with their next look at the seek.
Rated seeks are for signed-in players only (rated: ``casual`` false); the
game carries the choice, and rating it is the ratings domain's business.

Seeks live in this process only: one server, and a restart drops them (the
players post again).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sansu.server.accounts import User
from sansu.server.base import ApiError
from sansu.server.play import MAX_NAME, GameService, hash_token, new_id

SEEN_TIMEOUT = 30.0
"""Seconds without a look after which a participant has left (the page polls every few)."""
KEEP_STARTED = 120.0
"""Seconds a started seek keeps its participants' seats for them to collect."""
MAX_SEEKS = 500
MAX_SEEKS_PER_ACCOUNT = 3
MAX_SEEKS_PER_ADDRESS = 5
"""Open seeks of anonymous posters from one address (a household or a school may share
one), so that no one address fills the lobby."""


@dataclass
class Ticket:
    """One participant of a seek or of quick pairing."""

    token_hash: str
    user: User | None
    name: str | None
    seen_at: float
    seat: dict[str, Any] | None = None
    """Once the game started: ``{"id", "token", "seats"}``, for this ticket's holder only."""
    address: str | None = None
    """The client's address (an anonymous poster's seeks are counted by it)."""

    @property
    def person(self) -> str:
        """Who this is: an account, or (anonymous) the ticket itself."""
        return f"user:{self.user.id}" if self.user is not None else f"ticket:{self.token_hash}"

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "account": self.user is not None}


def new_ticket(user: User | None, name: str | None, now: float) -> tuple[str, Ticket]:
    token = secrets.token_urlsafe(24)
    shown = user.name if user is not None else (name or "")[:MAX_NAME] or None
    return token, Ticket(hash_token(token), user, shown, now)


def holds(ticket: Ticket, token: str | None) -> bool:
    return bool(token) and hmac.compare_digest(ticket.token_hash, hash_token(token or ""))


@dataclass
class Seek:
    id: str
    game: str
    options: dict[str, Any]
    time_control: dict[str, Any] | None
    casual: bool
    players: int
    poster: Ticket
    created_at: float
    joined: list[Ticket] = field(default_factory=list)
    game_id: str | None = None
    started_at: float | None = None

    @property
    def tickets(self) -> list[Ticket]:
        return [self.poster, *self.joined]

    def ticket(self, token: str | None) -> Ticket | None:
        return next((t for t in self.tickets if holds(t, token)), None)

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "time_control": self.time_control,
            "casual": self.casual,
            "rated": not self.casual,
            "players": self.players,
            "seated": len(self.tickets),
            "poster": self.poster.public(),
            "joined": [t.public() for t in self.joined],
            "status": "started" if self.game_id else "open",
            "game_id": self.game_id,
            "created_at": self.created_at,
        }


async def start_game(
    service: GameService,
    tickets: list[Ticket],
    game: str,
    options: Mapping[str, Any],
    time_control: Mapping[str, Any] | None,
    casual: bool,
) -> str:
    """Creates the game with every ticket's holder seated, in a random order, and gives
    each ticket its seat's token. Open to watch and listed (nobody can join it: it is full)."""
    order = list(tickets)
    secrets.SystemRandom().shuffle(order)
    first = order[0]
    live, token = await service.create(
        game,
        dict(options),
        None,
        take=[0],
        name=first.name,
        casual=casual,
        time_control=None if time_control is None else dict(time_control),
        user=first.user,
    )
    first.seat = {"id": live.id, "token": token, "seats": [0]}
    for seat, ticket in enumerate(order[1:], start=1):
        _live, taken, seat_token = await service.join(
            live.id, seat, ticket.name, token=None, user=ticket.user
        )
        ticket.seat = {"id": live.id, "token": seat_token, "seats": [taken]}
    return live.id


class Seeks:
    """The lobby's open seeks, by id."""

    def __init__(self, service: GameService, clock: Callable[[], float] = time.time) -> None:
        self.service = service
        self.time = clock
        self.seeks: dict[str, Seek] = {}
        self.lock = asyncio.Lock()

    def prune(self) -> None:
        """Drops the seeks whose poster left, the participants who left, and the seeks
        started long enough ago."""
        now = self.time()
        for seek in list(self.seeks.values()):
            if seek.game_id is not None:
                if now - (seek.started_at or now) > KEEP_STARTED:
                    del self.seeks[seek.id]
                continue
            if now - seek.poster.seen_at > SEEN_TIMEOUT:
                del self.seeks[seek.id]
                continue
            seek.joined = [t for t in seek.joined if now - t.seen_at <= SEEN_TIMEOUT]

    def open_seeks(self) -> list[Seek]:
        self.prune()
        return sorted(
            (s for s in self.seeks.values() if s.game_id is None),
            key=lambda s: (s.created_at, s.id),
        )

    def post(
        self,
        game: str,
        options: Mapping[str, Any],
        time_control: Mapping[str, Any] | None,
        casual: bool,
        players: int,
        user: User | None,
        name: str | None,
        address: str | None = None,
    ) -> tuple[Seek, str]:
        """A new seek and its poster's ticket (shown only this once). ``address``: the
        client's, by which an anonymous poster's open seeks are counted."""
        self.prune()
        if not casual and user is None:
            raise sign_in_required()
        self._check_share(user, address)
        if len(self.seeks) >= MAX_SEEKS:
            raise ApiError(503, "lobby_full", "the lobby is full: try again in a moment")
        now = self.time()
        token, ticket = new_ticket(user, name, now)
        ticket.address = address
        seek = Seek(
            new_id(),
            game,
            dict(options),
            None if time_control is None else dict(time_control),
            casual,
            players,
            ticket,
            now,
        )
        self.seeks[seek.id] = seek
        return seek, token

    def _check_share(self, user: User | None, address: str | None) -> None:
        """Refuses a poster over their share of open seeks: an account's, or for an
        anonymous poster their address's."""
        open_posters = [s.poster for s in self.seeks.values() if s.game_id is None]
        if user is not None:
            mine = sum(p.user is not None and p.user.id == user.id for p in open_posters)
            cap, whose = MAX_SEEKS_PER_ACCOUNT, "each"
        else:
            mine = sum(p.user is None and p.address == address for p in open_posters)
            cap, whose = MAX_SEEKS_PER_ADDRESS, "from one address without an account"
        if mine >= cap:
            raise ApiError(
                409,
                "too_many_seeks",
                f"at most {cap} open seeks {whose}: withdraw one first",
                limit=cap,
            )

    def get(self, seek_id: str) -> Seek:
        self.prune()
        seek = self.seeks.get(seek_id)
        if seek is None:
            raise ApiError(404, "no_such_seek", f"there is no seek {seek_id!r} (taken or gone)")
        return seek

    def look(self, seek_id: str, token: str | None) -> tuple[Seek, Ticket]:
        """A participant's look at their seek: keeps them present (their ticket's ``seat``
        holds their seat's token once the game started, until the seek is dropped)."""
        seek = self.get(seek_id)
        ticket = participant(seek, token)
        ticket.seen_at = self.time()
        return seek, ticket

    async def accept(
        self, seek_id: str, user: User | None, name: str | None, token: str | None = None
    ) -> tuple[Seek, Ticket, str]:
        """Takes a place in the seek; the game starts when it is the last one.

        ``token``: a ticket the caller holds; one of this seek's is refused like the
        account of a participant (nobody accepts their own seek)."""
        async with self.lock:
            seek = self.get(seek_id)
            if seek.game_id is not None:
                raise ApiError(409, "seek_taken", "this seek has already started its game")
            mine = seek.ticket(token) is not None
            if mine or (user is not None and f"user:{user.id}" in {t.person for t in seek.tickets}):
                raise ApiError(409, "own_seek", "you are already in this seek")
            if not seek.casual and user is None:
                raise sign_in_required()
            new_token, ticket = new_ticket(user, name, self.time())
            seek.joined.append(ticket)
            if len(seek.tickets) >= seek.players:
                try:
                    seek.game_id = await start_game(
                        self.service,
                        seek.tickets,
                        seek.game,
                        seek.options,
                        seek.time_control,
                        seek.casual,
                    )
                except BaseException:
                    seek.joined.remove(ticket)
                    for t in seek.tickets:
                        t.seat = None
                    raise
                seek.started_at = self.time()
            return seek, ticket, new_token

    def cancel(self, seek_id: str, token: str | None) -> Seek:
        """The poster withdraws the seek; anyone else who joined it leaves it."""
        seek = self.get(seek_id)
        ticket = participant(seek, token)
        if seek.game_id is not None:
            raise ApiError(409, "seek_taken", "this seek has already started its game")
        if ticket is seek.poster:
            del self.seeks[seek.id]
        else:
            seek.joined.remove(ticket)
        return seek

    def withdraw_account(self, user_id: int) -> int:
        """Drops the account's open seeks and its places in others' (its account was
        closed); how many seeks it left."""
        left = 0
        for seek in list(self.seeks.values()):
            if seek.game_id is not None:
                continue
            if seek.poster.user is not None and seek.poster.user.id == user_id:
                del self.seeks[seek.id]
                left += 1
            elif any(t.user is not None and t.user.id == user_id for t in seek.joined):
                seek.joined = [t for t in seek.joined if t.user is None or t.user.id != user_id]
                left += 1
        return left


def participant(seek: Seek, token: str | None) -> Ticket:
    if not token:
        raise ApiError(401, "ticket_required", "this needs the seek's ticket (Bearer TICKET)")
    ticket = seek.ticket(token)
    if ticket is None:
        raise ApiError(403, "wrong_ticket", "this ticket is not one of this seek's")
    return ticket


def sign_in_required() -> ApiError:
    return ApiError(403, "sign_in_required", "rated games are for signed-in players: log in")
