"""Challenges: one account invites another to a game; accepting starts it.

A challenge names the game, its options, the time control, rated or
casual, and the challenger's seat (or a random one). The challenged account
accepts or declines; the challenger may cancel while it is open. Accepting
creates the game with both seats bound to the two accounts, so each plays
from wherever it is signed in (a person's browser, a bot's API token).

Challenges live in memory only: an open challenge is a moment's invitation,
and one lost to a server restart is simply made again (the games they
started are stored like every other game). Open challenges expire after
:data:`EXPIRE_SECONDS`. Each account may make :data:`LIMIT` challenges (the
``limits`` library counts them), so that bots challenging bots cannot
flood anyone. Both accounts hear of every step on their event stream
(:mod:`sansu.server.lobby.streams`).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from limits import parse_many
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter

import sansu
from sansu.core.registry import game_class
from sansu.server.accounts import User, find_user
from sansu.server.base import ApiError, count
from sansu.server.lobby.streams import EventStreams
from sansu.server.play import LiveGame, Seating, check_time_control, new_id

LIMIT = "20/minute;500/day"
"""Challenges one account may make (a string of the ``limits`` library)."""
MAX_OPEN = 20
"""Open challenges one account may have made at a time."""
EXPIRE_SECONDS = 600.0
MAX_REASON = 100


@dataclass
class Challenge:
    id: str
    challenger: User
    dest: User
    game: str
    options: dict[str, Any]
    time_control: dict[str, float] | None
    rated: bool
    seat: int | None
    """The challenger's seat (``None``: drawn at acceptance)."""
    created_at: float
    status: str = "open"
    """``open``, ``accepted``, ``declined``, ``canceled`` or ``expired``."""
    game_id: str | None = None
    reason: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    seat_tokens: dict[int, str] = field(default_factory=dict)
    """By account: the seat token a person (never a bot) is handed once, so that a
    browser without account play keeps its seat like any other game's."""

    def hand_token(self, user: User) -> dict[str, Any]:
        """The seat token waiting for ``user`` (once), as fields of an answer."""
        token = self.seat_tokens.pop(user.id, None)
        if token is None or self.seat is None:
            return {}
        seat = self.seat if user.id == self.challenger.id else 1 - self.seat
        return {"seat_token": token, "seat": seat}

    def public(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "challenger": account_json(self.challenger),
            "dest": account_json(self.dest),
            "game": self.game,
            "options": self.options,
            "time_control": self.time_control,
            "rated": self.rated,
            "challenger_seat": self.seat,
            "created_at": self.created_at,
            "game_id": self.game_id,
            "reason": self.reason,
        }


def account_json(user: User) -> dict[str, Any]:
    """An account wherever it is named: its name, and whether it is a BOT."""
    return {"id": user.id, "name": user.name, "bot": user.bot}


def game_start(
    live: LiveGame, user: User, opponent: User, challenge_id: str | None
) -> dict[str, Any]:
    """The ``gameStart`` event of one of the two accounts (``tournament``: the id of the
    tournament the game belongs to, else null)."""
    seats = [s.seat for s in live.seats if s.user_id == user.id]
    return {
        "type": "gameStart",
        "game": {
            "id": live.id,
            "game": live.game.id,
            "options": live.public_options,
            "rated": not live.casual,
            "time_control": live.time_control,
            "you": seats,
            "opponent": account_json(opponent),
            "challenge": challenge_id,
            "tournament": live.meta.get("tournament"),
        },
    }


def check_game(game: str, options: Mapping[str, Any]) -> str:
    """The game's id if it is a two-player game with these options, else a 422."""
    try:
        game_id = game_class(game).id
        players = sansu.load_game(game_id, **dict(options)).num_players
    except ValueError as error:
        code = "unknown_game" if str(error).startswith("unknown game") else "bad_options"
        raise ApiError(422, code, str(error)) from None
    if players != 2:
        raise ApiError(
            422, "bad_options", f"a challenge is for two players; these options make {players}"
        )
    return game_id


class Challenges:
    """Every open and recently answered challenge, by id."""

    def __init__(
        self,
        seating: Seating,
        streams: EventStreams,
        *,
        limit: str | None = LIMIT,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.seating = seating
        self.store = seating.rounds.store
        self.streams = streams
        self.time = clock
        self.by_id: dict[str, Challenge] = {}
        self.set_limit(limit)

    def set_limit(self, limit: str | None, storage: Storage | None = None) -> None:
        """``storage``: where the counts are kept (default: memory; a cluster's Redis)."""
        self.limits = parse_many(limit) if limit else []
        self._limiter = FixedWindowRateLimiter(storage or MemoryStorage())

    def _notify(self, challenge: Challenge, kind: str) -> None:
        event = {"type": kind, "challenge": challenge.public()}
        for user_id in {challenge.challenger.id, challenge.dest.id}:
            self.streams.send(user_id, event)

    def _expire(self) -> None:
        now = self.time()
        for cid, c in list(self.by_id.items()):
            if now - c.created_at >= EXPIRE_SECONDS:
                if c.status == "open":
                    c.status = "expired"
                    self._notify(c, "challengeCanceled")
                del self.by_id[cid]

    async def _count(self, user: User) -> None:
        await count(
            self._limiter, [("challenges", i) for i in self.limits], str(user.id), "this account"
        )

    async def create(
        self,
        challenger: User,
        dest_name: str,
        game: str,
        options: Mapping[str, Any] | None = None,
        *,
        time_control: Mapping[str, Any] | None = None,
        rated: bool = False,
        seat: int | None = None,
    ) -> Challenge:
        """A new open challenge of ``dest_name`` by ``challenger``."""
        self._expire()
        dest = await self.store.read(lambda c: find_user(c, dest_name))
        if dest is None:
            raise ApiError(404, "no_user", f"there is no user {dest_name[:40]!r}")
        if dest.id == challenger.id:
            raise ApiError(422, "self_challenge", "an account cannot challenge itself")
        if seat not in (None, 0, 1):
            raise ApiError(422, "bad_seat", "challenger_seat is 0, 1 or null (random)")
        try:
            tc = check_time_control(time_control)
        except ValueError as error:
            raise ApiError(422, "bad_options", str(error)) from None
        options = dict(options or {})
        game_id = await asyncio.to_thread(check_game, game, options)
        mine = [
            c
            for c in self.by_id.values()
            if c.challenger.id == challenger.id and c.status == "open"
        ]
        if len(mine) >= MAX_OPEN:
            raise ApiError(
                409, "too_many_challenges", f"an account may have {MAX_OPEN} open challenges"
            )
        await self._count(challenger)
        challenge = Challenge(
            id=new_id(8),
            challenger=challenger,
            dest=dest,
            game=game_id,
            options=options,
            time_control=tc,
            rated=bool(rated),
            seat=seat,
            created_at=self.time(),
        )
        self.by_id[challenge.id] = challenge
        self._notify(challenge, "challenge")
        return challenge

    def get(self, challenge_id: str) -> Challenge:
        self._expire()
        challenge = self.by_id.get(challenge_id)
        if challenge is None:
            raise ApiError(404, "no_challenge", f"no open challenge {challenge_id[:20]!r}")
        return challenge

    def opponent_in(self, challenge_id: str | None, user: User) -> User | None:
        """The other account of a challenge held here that ``user`` is in, else ``None``:
        a game's opponent before their seat is taken (the accept still seating them)."""
        challenge = self.by_id.get(challenge_id) if challenge_id else None
        if challenge is None:
            return None
        if challenge.challenger.id == user.id:
            return challenge.dest
        return challenge.challenger if challenge.dest.id == user.id else None

    def of(self, user: User) -> list[Challenge]:
        """The open challenges made by or to ``user``."""
        self._expire()
        return [
            c
            for c in self.by_id.values()
            if c.status == "open" and user.id in (c.challenger.id, c.dest.id)
        ]

    def open_events_of(self, user_id: int) -> list[dict[str, Any]]:
        """A ``challenge`` event for each open challenge made by or to the account."""
        self._expire()
        return [
            {"type": "challenge", "challenge": c.public()}
            for c in self.by_id.values()
            if c.status == "open" and user_id in (c.challenger.id, c.dest.id)
        ]

    async def open_events(self, user: User) -> list[dict[str, Any]]:
        """What a new event stream of ``user`` starts with (on a cluster, asked of the
        node holding the challenges: :mod:`sansu.server.cluster.lobby`)."""
        return self.open_events_of(user.id)

    def _open(self, challenge: Challenge) -> None:
        if challenge.status != "open":
            raise ApiError(409, "challenge_closed", f"this challenge is {challenge.status}")

    async def accept(self, user: User, challenge_id: str) -> tuple[Challenge, LiveGame]:
        """Accepts a challenge made to ``user``: the game starts, both seats bound."""
        challenge = self.get(challenge_id)
        if challenge.dest.id != user.id:
            raise ApiError(403, "not_your_challenge", "only the challenged account may accept")
        async with challenge.lock:
            self._open(challenge)
            first = challenge.seat if challenge.seat is not None else secrets.randbelow(2)
            bots = [
                seat
                for seat, who in ((first, challenge.challenger), (1 - first, challenge.dest))
                if who.bot
            ]
            live, token = await self.seating.create(
                challenge.game,
                challenge.options,
                [{"kind": "human"}, {"kind": "human"}],
                take=[first],
                casual=not challenge.rated,
                time_control=challenge.time_control,
                user=challenge.challenger,
                meta={"challenge": challenge.id, "bots": sorted(bots)},
            )
            *_, dest_token = await self.seating.join(live.id, seat=1 - first, user=challenge.dest)
            for who, seat_token in ((challenge.challenger, token), (challenge.dest, dest_token)):
                if not who.bot and seat_token:
                    challenge.seat_tokens[who.id] = seat_token
            challenge.seat = first
            challenge.status = "accepted"
            challenge.game_id = live.id
        self._notify(challenge, "challengeAccepted")
        for one, other in (
            (challenge.challenger, challenge.dest),
            (challenge.dest, challenge.challenger),
        ):
            self.streams.send(one.id, game_start(live, one, other, challenge.id))
        return challenge, live

    async def decline(self, user: User, challenge_id: str, reason: str | None) -> Challenge:
        challenge = self.get(challenge_id)
        if challenge.dest.id != user.id:
            raise ApiError(403, "not_your_challenge", "only the challenged account may decline")
        async with challenge.lock:
            self._open(challenge)
            challenge.status = "declined"
            challenge.reason = (reason or "declined")[:MAX_REASON]
        self._notify(challenge, "challengeDeclined")
        return challenge

    async def cancel(self, user: User, challenge_id: str) -> Challenge:
        challenge = self.get(challenge_id)
        if challenge.challenger.id != user.id:
            raise ApiError(403, "not_your_challenge", "only the challenger may cancel")
        async with challenge.lock:
            self._open(challenge)
            challenge.status = "canceled"
        self._notify(challenge, "challengeCanceled")
        return challenge

    async def cancel_account(self, user_id: int) -> int:
        """Cancels every open challenge made by or to the account (its account was
        closed); how many."""
        canceled = 0
        for challenge in [c for c in self.by_id.values() if c.status == "open"]:
            if user_id not in (challenge.challenger.id, challenge.dest.id):
                continue
            async with challenge.lock:
                if challenge.status != "open":
                    continue
                challenge.status = "canceled"
                challenge.reason = "account closed"
            self._notify(challenge, "challengeCanceled")
            canceled += 1
        return canceled
