"""A game being played: its seats, its state numbers, its events, and one change of it.

:class:`LiveGame` is what the server keeps in memory for a game that is
being played or was just looked at: the engine state, the seats, the clocks,
the recent events, the lock that orders every change. A :class:`Change` is
one change of it, prepared under that lock and committed as a whole by
:mod:`sansu.server.play.rounds`.

State numbers (``state``) rise with every change of the position (a move,
a takeback, a resignation, a fallen flag); event numbers (``seq``) with
every event, including those that leave the position alone (a seat taken,
a rematch offered).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection

from sansu.core.protocol import Game, State
from sansu.server.accounts import SignedIn, Who
from sansu.server.base import not_your_game, token_required, wrong_token
from sansu.server.play.clocks import ClockState, engine_clock

EVENT_CACHE = 512
"""Recent events kept in memory per game for reconnecting clients (older ones: from the store)."""
ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
MAX_NAME = 64

POSITION_EVENTS = frozenset({"move", "takeback", "resign", "flag", "abort", "claim", "draw"})


_ORJSON = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS
_ORJSON |= orjson.OPT_PASSTHROUGH_DATETIME


def dumps(data: Any) -> str:
    """Compact JSON, as sent to clients: orjson's, several times faster than the standard
    library's on the views every move sends. What orjson refuses (a lone surrogate, an
    integer past 64 bits, nesting past 254 levels, a dataclass or datetime, which the
    standard library refuses too) goes to the standard library, so that every message
    holds what it did; a float that is not a number (not JSON) is written ``null``."""
    try:
        return orjson.dumps(data, option=_ORJSON).decode()
    except TypeError:
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def is_text(data: Any) -> bool:
    """Whether ``data`` (JSON) can be sent as UTF-8: no lone surrogate anywhere in it."""
    try:
        dumps(data).encode("utf-8")
    except UnicodeEncodeError:
        return False
    except (ValueError, TypeError, RecursionError):
        return True  # not JSON-shaped: left to the caller's own checks
    return True


def new_id(length: int = 10) -> str:
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(length))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def hides_information(state: State) -> bool:
    """True for games whose states keep something from the players (a hidden solution)."""
    cls = type(state)
    return cls.view is not State.view or cls.to_dict is not State.to_dict


@dataclass
class Seat:
    seat: int
    kind: str
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    joined_at: float | None = None
    user_id: int | None = None
    """The account the seat is bound to: its owner acts for it from any signed-in browser."""

    @property
    def taken(self) -> bool:
        return self.kind != "human" or self.token_hash is not None

    def to_row(self, game_id: str) -> dict[str, Any]:
        return {
            "game_id": game_id,
            "seat": self.seat,
            "kind": self.kind,
            "level": self.level,
            "name": self.name,
            "token_hash": self.token_hash,
            "joined_at": self.joined_at,
            "user_id": self.user_id,
        }

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "level": self.level,
            "name": self.name,
            "taken": self.taken,
            "account": self.user_id is not None,
        }


@dataclass
class PlayedMove:
    ply: int
    text: str
    seat: int | None
    at: float
    state: int

    def public(self) -> dict[str, Any]:
        return {"ply": self.ply, "move": self.text, "seat": self.seat, "at": self.at}


@dataclass
class Event:
    seq: int
    type: str
    state: int
    data: dict[str, Any]
    at: float

    @property
    def position(self) -> bool:
        return self.type in POSITION_EVENTS

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seq": self.seq, "state": self.state, "at": self.at, **self.data}

    def to_row(self, game_id: str) -> dict[str, Any]:
        return {
            "game_id": game_id,
            "seq": self.seq,
            "type": self.type,
            "state": self.state,
            "data": self.data,
            "at": self.at,
        }


def seats_held(seats: Iterable[Seat], who: Who) -> frozenset[int]:
    """The seats among ``seats`` that ``who`` holds: by its token, or by its account."""
    seats = tuple(seats)
    if isinstance(who, SignedIn):
        bound = {s.seat for s in seats if s.user_id == who.user_id}
        return frozenset(bound) | seats_held(seats, who.token)
    if not who:
        return frozenset()
    digest = hash_token(who)
    return frozenset(
        s.seat
        for s in seats
        if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest)
    )


@dataclass
class LiveGame:
    """A game in memory: what the store holds, plus its engine state and its lock."""

    id: str
    game: Game
    state: State
    options: dict[str, Any]
    public_options: dict[str, Any]
    seats: list[Seat]
    moves: list[PlayedMove]
    status: str = "active"
    casual: bool = True
    created_by: int | None = None
    """The creator's account (``None``: anonymous)."""
    private: bool = False
    """Joined only with the invitation's secret, and never listed."""
    join_secret_hash: str | None = None
    watchable: bool = True
    version: int = 0
    seq: int = 0
    result: dict[str, Any] | None = None
    termination: str | None = None
    clock: ClockState = field(default_factory=ClockState)
    time_control: dict[str, Any] | None = None
    rematch_offers: list[int] = field(default_factory=list)
    rematch_of: str | None = None
    rematch_id: str | None = None
    seed_chosen: bool = False
    meta: dict[str, Any] = field(default_factory=dict)
    created_at: float = 0.0
    updated_at: float = 0.0
    finished_at: float | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    events: deque[Event] = field(default_factory=lambda: deque(maxlen=EVENT_CACHE))
    computer_version: int = -1
    """The state number a computer move is being searched for (-1: none)."""
    touched: float = field(default_factory=time.monotonic)
    """When a request last used this game (idle games leave memory)."""
    hidden: bool = False
    """The game keeps information from its players (a hidden solution)."""
    per_seat: bool = False
    """Views differ by seat: each seat's is computed and sent apart."""
    _views: dict[int | None, str] = field(default_factory=dict)
    _views_version: int = -1
    _status_json: str | None = None

    def __post_init__(self) -> None:
        self.hidden = hides_information(self.state)
        self.per_seat = self.hidden and not self.state.same_view_for_all

    # -- seats -------------------------------------------------------------------------

    def seats_of(self, who: Who) -> frozenset[int]:
        """The seats that ``who`` holds (empty for a spectator)."""
        return seats_held(self.seats, who)

    def holder(self, who: Who) -> frozenset[int]:
        """The seats of ``who``; refuses a missing or wrong token, or an account
        with no seat in this game."""
        if not who:
            raise token_required()
        held = self.seats_of(who)
        if not held:
            if isinstance(who, SignedIn) and who.token is None:
                raise not_your_game()
            raise wrong_token()
        return held

    @property
    def ready(self) -> bool:
        """Every seat has its player: clocks run only then."""
        return all(s.taken for s in self.seats)

    def seat_kind(self, seat: int | None) -> str | None:
        return None if seat is None else self.seats[seat].kind

    # -- what clients see --------------------------------------------------------------

    def view(self, viewer: int | None) -> dict[str, Any]:
        return self.state.view(viewer)

    def _fresh_cache(self) -> None:
        if self._views_version != self.version:
            self._views = {}
            self._status_json = None
            self._views_version = self.version

    def view_json(self, viewer: int | None) -> str:
        """``view(viewer)`` as JSON, computed once per state number (and per seat only
        in games whose views differ by seat)."""
        self._fresh_cache()
        key = viewer if self.per_seat else None
        text = self._views.get(key)
        if text is None:
            text = self._views[key] = dumps(self.state.view(key))
        return text

    def prime_view(self, spectator_view: dict[str, Any]) -> None:
        """Keeps ``view(None)``, already computed for the clocks, for the spectators."""
        self._fresh_cache()
        self._views[None] = dumps(spectator_view)

    def status_fields(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "result": self.result,
            "termination": self.termination,
            "clock": self.clock.public(),
        }

    def status_json(self) -> str:
        """The status fields as a JSON object, cached per state number."""
        self._fresh_cache()
        if self._status_json is None:
            self._status_json = dumps(self.status_fields())
        return self._status_json

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game.id,
            "title": self.game.title,
            "options": self.public_options,
            "status": self.status,
            "casual": self.casual,
            "private": self.private,
            "watchable": self.watchable,
            "state": self.version,
            "seq": self.seq,
            "ply": len(self.moves),
            "to_move": self.state.to_move if self.status == "active" else None,
            "result": self.result,
            "termination": self.termination,
            "seats": [s.public() for s in self.seats],
            "time_control": self.time_control,
            "clock": self.clock.public(),
            "rematch": {"offers": list(self.rematch_offers), "game_id": self.rematch_id},
            "rematch_of": self.rematch_of,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "finished_at": self.finished_at,
        }

    def game_row(self) -> dict[str, Any]:
        """The ``games`` row's changing fields as they stand in memory."""
        to_move = self.state.to_move if self.status == "active" else None
        return {
            "status": self.status,
            "version": self.version,
            "seq": self.seq,
            "ply": len(self.moves),
            "to_move": to_move,
            "result": self.result,
            "termination": self.termination,
            "clock": self.clock.to_json(),
            "deadline": self.clock.deadline if self.status == "active" else None,
            "computer_to_move": self.status == "active" and self.seat_kind(to_move) == "computer",
            "rematch_offers": list(self.rematch_offers),
            "rematch_id": self.rematch_id,
            "updated_at": self.updated_at,
            "finished_at": self.finished_at,
        }


@dataclass
class Change:
    """One change of a game, prepared under its lock and committed as a whole."""

    live: LiveGame
    now: float = field(default_factory=time.time)
    events: list[Event] = field(default_factory=list)
    writes: list[Callable[[Connection], Any]] = field(default_factory=list)
    inserts: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)
    apply: list[Callable[[], None]] = field(default_factory=list)


SeatSpec = Mapping[str, Any]


def start_clocks(clock: ClockState, state: State, now: float) -> None:
    """Starts a game's clocks: the time control of the seat to move, the game's own limit."""
    if state.result is not None:
        return
    if clock.remaining is not None:
        clock.running = state.to_move
        clock.since = now
    clock.set_engine(engine_clock(state.view(None)), now)
