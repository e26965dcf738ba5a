"""The game service: the only judge of every game on the server.

It keeps each game that is being played in memory (:class:`LiveGame`: the
engine state, the seats, the clocks) and changes it only under that game's
lock, in three steps: check the request against the rules and the state
number the client saw; commit the change and its events to the store; then
change the memory and tell the clients. A request refused at the first step
and a change that could not be committed leave everything as it was.

State numbers (``state``) rise with every change of the position (a move,
a takeback, a resignation, a fallen flag); event numbers (``seq``) with
every event, including those that leave the position alone (a seat taken,
a rematch offered).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

import sansu
from sansu.core.protocol import Game, IllegalMove, Result, State
from sansu.core.registry import game_class
from sansu.server import errors
from sansu.server.clocks import ClockState, check_time_control, engine_clock
from sansu.server.computer import ComputerRequest, ComputerRunner, levels, random_move
from sansu.server.errors import ApiError
from sansu.server.hub import Hub, dumps
from sansu.server.models import events as events_table
from sansu.server.models import games as games_table
from sansu.server.models import moves as moves_table
from sansu.server.models import seats as seats_table
from sansu.server.store import Rows, Store, StoreError

log = logging.getLogger("sansu.server")

EVENT_CACHE = 512
"""Recent events kept in memory per game for reconnecting clients (older ones: from the store)."""
KEEP_FINISHED = 600.0
"""Seconds a finished game stays in memory after its last change (for rematches, replays)."""
ID_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
MAX_NAME = 64

POSITION_EVENTS = frozenset({"move", "takeback", "resign", "flag"})


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
        }

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "level": self.level,
            "name": self.name,
            "taken": self.taken,
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
    timer: asyncio.TimerHandle | None = None
    computer_version: int = -1
    hidden: bool = False
    """The game keeps information from its players: views differ by seat."""
    _views: dict[int | None, str] = field(default_factory=dict)
    _views_version: int = -1
    _status_json: str | None = None

    def __post_init__(self) -> None:
        self.hidden = hides_information(self.state)

    # -- seats -------------------------------------------------------------------------

    def seats_of(self, token: str | None) -> frozenset[int]:
        """The seats that ``token`` holds (empty for a spectator)."""
        if not token:
            return frozenset()
        digest = hash_token(token)
        return frozenset(
            s.seat
            for s in self.seats
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest)
        )

    def holder(self, token: str | None) -> frozenset[int]:
        """The seats of ``token``; refuses a missing or wrong token."""
        if not token:
            raise errors.token_required()
        held = self.seats_of(token)
        if not held:
            raise errors.wrong_token()
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
        in games that hide something)."""
        self._fresh_cache()
        key = viewer if self.hidden else None
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


class GameService:
    """Every game on this server: create, join, play, resign, rematch, take back, watch."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        computer: ComputerRunner,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.hub = hub
        self.computer = computer
        self.time = clock
        self.games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.computer_moves = 0
        self.lags: deque[float] = deque(maxlen=2400)
        self.timings: deque[float] = deque(maxlen=20000)
        """Seconds from a socket request's arrival to its answer (recent ones)."""

    async def watch_loop(self, every: float = 0.05) -> None:
        """Notes how late the event loop wakes up: every game waits that long."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(every)
            self.lags.append(loop.time() - before - every)

    def loop_lag_ms(self) -> dict[str, float] | None:
        if not self.lags:
            return None
        ordered = sorted(self.lags)
        return {
            "p99": round(1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1),
            "max": round(1000 * ordered[-1], 1),
        }

    def handling_ms(self) -> dict[str, float] | None:
        """Median and 99th percentile of :attr:`timings`, in milliseconds."""
        if not self.timings:
            return None
        ordered = sorted(self.timings)
        return {
            "count": len(ordered),
            "p50": round(1000 * ordered[len(ordered) // 2], 2),
            "p99": round(1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2),
        }

    # -- start and stop ----------------------------------------------------------------

    async def start(self) -> None:
        """Resumes the games that need the server: running clocks, computers to move."""
        self._spawn(self.watch_loop())
        ids = await self.store.read(
            lambda c: [
                row[0]
                for row in c.execute(
                    select(games_table.c.id).where(
                        games_table.c.status == "active",
                        (games_table.c.deadline.is_not(None))
                        | (games_table.c.computer_to_move.is_(True)),
                    )
                )
            ]
        )
        for game_id in ids:
            try:
                live = await self.get(game_id)
            except Exception:
                log.exception("cannot resume game %s", game_id)
                continue
            self._after_change(live)

    async def stop(self) -> None:
        for live in self.games.values():
            if live.timer is not None:
                live.timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def evict(self, game_id: str) -> bool:
        """Drops a finished game nobody watches from memory (the store keeps it)."""
        live = self.games.get(game_id)
        if (
            live is None
            or live.status == "active"
            or live.lock.locked()
            or self.hub.connections.get(game_id)
        ):
            return False
        del self.games[game_id]
        self.hub.forget(game_id)
        return True

    # -- loading -----------------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game ``game_id``, loaded from the store if needed; 404 when there is none."""
        live = self.games.get(game_id)
        if live is not None:
            return live
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 24:
            raise errors.not_found(str(game_id)[:40])
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveGame] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            live = await asyncio.to_thread(self._load, game_id)
            self.games[game_id] = live
            future.set_result(live)
            return live
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: other waiters re-raise it themselves
            raise
        finally:
            del self._loading[game_id]

    def _load(self, game_id: str) -> LiveGame:
        def read(c: Connection) -> tuple[Any, list[Any], list[Any]]:
            row = c.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                raise errors.not_found(game_id)
            seat_rows = c.execute(
                select(seats_table)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
            ).all()
            move_rows = c.execute(
                select(moves_table)
                .where(moves_table.c.game_id == game_id)
                .order_by(moves_table.c.ply)
            ).all()
            return row, seat_rows, move_rows

        row, seat_rows, move_rows = self.store.read_now(read)
        game = sansu.load_game(row.game, **row.options)
        state = game.initial_state()
        for m in move_rows:
            state = state.play(m.text)
        live = LiveGame(
            id=row.id,
            game=game,
            state=state,
            options=dict(row.options),
            public_options=dict(row.public_options),
            seats=[
                Seat(s.seat, s.kind, s.level, s.name, s.token_hash, s.joined_at) for s in seat_rows
            ],
            moves=[PlayedMove(m.ply, m.text, m.seat, m.at, m.state) for m in move_rows],
            status=row.status,
            casual=row.casual,
            version=row.version,
            seq=row.seq,
            result=row.result,
            termination=row.termination,
            clock=ClockState.from_json(row.clock),
            time_control=row.time_control,
            rematch_offers=list(row.rematch_offers or []),
            rematch_of=row.rematch_of,
            rematch_id=row.rematch_id,
            seed_chosen=row.seed_chosen,
            meta=dict(row.meta or {}),
            created_at=row.created_at,
            updated_at=row.updated_at,
            finished_at=row.finished_at,
        )
        return live

    # -- committing --------------------------------------------------------------------

    def _event(self, change: Change, kind: str, **data: Any) -> Event:
        live = change.live
        seq = live.seq + 1 + len(change.events)
        state = live.version
        event = Event(seq, kind, state, data, change.now)
        change.events.append(event)
        return event

    async def _commit(self, change: Change, *, row: Mapping[str, Any] | None = None) -> None:
        """Stores the change, then applies it in memory and tells the clients."""
        live = change.live
        live_seq = live.seq + len(change.events)
        fields = dict(row or {})
        fields["seq"] = live_seq
        fields["updated_at"] = change.now
        rows = Rows()
        for table, values in change.inserts:
            rows.insert(table, values)
        for e in change.events:
            rows.insert(events_table, e.to_row(live.id))
        rows.update(games_table, live.id, fields)
        writes = list(change.writes)
        job: Any = rows
        if writes:

            def job(c: Connection) -> None:
                for write in writes:
                    write(c)
                Store.write_rows(c, [rows])

        try:
            await self.store.write(job)
        except StoreError as error:
            raise ApiError(503, "store_unavailable", str(error)) from None
        for fn in change.apply:
            fn()
        live.seq = live_seq
        live.updated_at = change.now
        live.events.extend(change.events)
        self.hub.publish(live, change.events)
        self._after_change(live)

    def _row_after(self, live: LiveGame, **overrides: Any) -> dict[str, Any]:
        row = live.game_row()
        row.update(overrides)
        return row

    # -- creating ----------------------------------------------------------------------

    def _build_game(
        self, game_id: str, options: Mapping[str, Any]
    ) -> tuple[Game, State, bool, dict[str, Any]]:
        """Loads the game (off the event loop: some generate a puzzle) and its first state.

        A game whose ``seed`` option defaults to a fixed number gets a fresh
        seed when none is given, so that every new game is a new puzzle.
        """
        options = dict(options)
        cls = game_class(game_id)
        seed_chosen = False
        seed_spec = next((o for o in cls.option_specs if o.name == "seed"), None)
        if (
            seed_spec is not None
            and seed_spec.default is not None
            and options.get("seed") is None
            and not options.get("puzzle")
        ):
            options["seed"] = secrets.randbelow(2**31)
            seed_chosen = True
        game = sansu.load_game(game_id, **options)
        state = game.initial_state()
        public = state.view(None).get("options", game.options)
        return game, state, seed_chosen, dict(public)

    async def create(
        self,
        game_id: str,
        options: Mapping[str, Any] | None = None,
        seats: Sequence[SeatSpec] | None = None,
        *,
        take: Sequence[int] | None = None,
        name: str | None = None,
        casual: bool = True,
        time_control: Mapping[str, Any] | None = None,
    ) -> tuple[LiveGame, str | None]:
        """A new game; returns it and the creator's token (``None`` if they took no seat)."""
        try:
            tc = check_time_control(time_control)
            game, state, seed_chosen, public = await asyncio.to_thread(
                self._build_game, game_id, options or {}
            )
        except IllegalMove as error:
            raise ApiError(422, "bad_options", str(error)) from None
        except ValueError as error:
            code = "unknown_game" if str(error).startswith("unknown game") else "bad_options"
            raise ApiError(422, code, str(error)) from None
        seat_list = self._seats(game, seats)
        humans = [s.seat for s in seat_list if s.kind == "human"]
        if take is None:
            take = humans[:1]
        take = list(dict.fromkeys(take))
        for seat in take:
            if seat not in humans:
                raise ApiError(
                    422,
                    "bad_seat",
                    f"seat {seat} is not a human seat of this game (humans: {humans})",
                )
        now = self.time()
        token = secrets.token_urlsafe(24) if take else None
        for seat in take:
            seat_list[seat].token_hash = hash_token(token or "")
            seat_list[seat].joined_at = now
            if name:
                seat_list[seat].name = name[:MAX_NAME]
        live = LiveGame(
            id=new_id(),
            game=game,
            state=state,
            options=dict(game.options),
            public_options=public,
            seats=seat_list,
            moves=[],
            casual=bool(casual),
            clock=ClockState.start(tc, len(seat_list)),
            time_control=tc,
            seed_chosen=seed_chosen,
            created_at=now,
            updated_at=now,
        )
        if live.ready:
            start_clocks(live.clock, live.state, now)
        try:
            await self.store.write(lambda c: self._insert_game(c, live))
        except StoreError as error:
            raise ApiError(503, "store_unavailable", str(error)) from None
        self.games[live.id] = live
        self._after_change(live)
        return live, token

    def _seats(self, game: Game, specs: Sequence[SeatSpec] | None) -> list[Seat]:
        players = game.num_players
        if specs is None:
            specs = [{"kind": "human"}] * players
        if len(specs) != players:
            raise ApiError(
                422,
                "bad_seats",
                f"{game.title} with these options has {players} seats, not {len(specs)}",
            )
        out = []
        known = levels()
        for i, spec in enumerate(specs):
            kind = spec.get("kind", "human")
            level = spec.get("level")
            seat_name = spec.get("name")
            if kind == "computer":
                level = level or "medium"
                if level not in known:
                    raise ApiError(
                        422,
                        "bad_seats",
                        f"seat {i}: unknown level {level!r} (levels: {', '.join(known)})",
                    )
                out.append(Seat(i, "computer", level, seat_name or f"computer ({level})"))
            elif kind == "human":
                if level is not None:
                    raise ApiError(422, "bad_seats", f"seat {i}: a human seat has no level")
                out.append(Seat(i, "human", None, seat_name))
            else:
                raise ApiError(
                    422, "bad_seats", f"seat {i}: kind is human or computer, not {kind!r}"
                )
        return out

    def _insert_game(self, c: Connection, live: LiveGame) -> None:
        row = live.game_row()
        row.update(
            id=live.id,
            game=live.game.id,
            options=live.options,
            public_options=live.public_options,
            casual=live.casual,
            created_at=live.created_at,
            time_control=live.time_control,
            rematch_of=live.rematch_of,
            seed_chosen=live.seed_chosen,
            meta=live.meta,
        )
        c.execute(insert(games_table).values(**row))
        c.execute(insert(seats_table), [s.to_row(live.id) for s in live.seats])
        if live.moves:
            c.execute(
                insert(moves_table),
                [
                    {
                        "game_id": live.id,
                        "ply": m.ply,
                        "text": m.text,
                        "seat": m.seat,
                        "at": m.at,
                        "state": m.state,
                    }
                    for m in live.moves
                ],
            )

    # -- joining -----------------------------------------------------------------------

    async def join(
        self,
        game_id: str,
        seat: int | None = None,
        name: str | None = None,
        token: str | None = None,
    ) -> tuple[LiveGame, int, str]:
        """Takes a free human seat (the first one unless ``seat`` is given).

        With ``token`` (a seat already held in this game, e.g. a second seat
        on the same device) the seat joins that token; otherwise a new token
        is made and returned — the only time the server ever shows it.
        """
        live = await self.get(game_id)
        async with live.lock:
            free = [s.seat for s in live.seats if s.kind == "human" and s.token_hash is None]
            if seat is None:
                if not free:
                    raise ApiError(409, "no_free_seat", "every seat of this game is taken")
                seat = free[0]
            if not 0 <= seat < len(live.seats):
                raise ApiError(
                    422, "bad_seat", f"this game has seats 0 to {len(live.seats) - 1}, not {seat}"
                )
            if live.seats[seat].kind != "human":
                raise ApiError(409, "seat_taken", f"seat {seat} is played by the computer")
            if seat not in free:
                raise ApiError(409, "seat_taken", f"seat {seat} is already taken")
            if live.status != "active":
                raise errors.game_over()
            if token:
                live.holder(token)
            else:
                token = secrets.token_urlsafe(24)
            change = Change(live)
            digest = hash_token(token)
            seat_name = (name or "")[:MAX_NAME] or None
            was_ready = live.ready
            now = change.now

            def write(c: Connection) -> None:
                c.execute(
                    update(seats_table)
                    .where(seats_table.c.game_id == live.id, seats_table.c.seat == seat)
                    .values(token_hash=digest, joined_at=now, name=seat_name)
                )

            change.writes.append(write)
            self._event(change, "joined", seat=seat, name=seat_name)
            new_seat = Seat(seat, "human", None, seat_name, digest, now)
            clock = live.clock.copy()
            seats_after = [new_seat if s.seat == seat else s for s in live.seats]
            ready_after = all(s.taken for s in seats_after)
            row = live.game_row()
            if ready_after and not was_ready:
                start_clocks(clock, live.state, now)
                row["clock"] = clock.to_json()
                row["deadline"] = clock.deadline

            def apply() -> None:
                live.seats = seats_after
                live.clock = clock

            change.apply.append(apply)
            await self._commit(change, row=row)
            self.hub.send_presence(live)
            return live, seat, token

    # -- moves -------------------------------------------------------------------------

    async def play(self, game_id: str, token: str | None, move: str, seen: int | None) -> LiveGame:
        """Plays ``move`` for the token's seat against state number ``seen``."""
        live = await self.get(game_id)
        async with live.lock:
            held = live.holder(token)
            await self._apply_due_clocks(live)
            if live.status != "active":
                raise errors.game_over()
            if seen is None:
                raise ApiError(
                    422, "state_required", "a move names the state number it was made in"
                )
            if seen != live.version:
                raise errors.stale(seen, live.version)
            mover = live.state.to_move
            if mover not in held:
                raise ApiError(
                    409,
                    "not_your_turn",
                    f"it is seat {mover}'s turn; this token holds seat"
                    f"{'s' if len(held) > 1 else ''} {', '.join(map(str, sorted(held)))}",
                    to_move=mover,
                )
            new_state = self._judge(live.state, move)
            await self._commit_move(live, new_state, mover)
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

    async def _commit_move(
        self, live: LiveGame, new_state: State, seat: int | None, *, by: str | None = None
    ) -> None:
        change = Change(live)
        now = change.now
        text = str(new_state.last_move) if new_state.last_move is not None else "?"
        version = live.version + 1
        ply = len(live.moves) + 1
        clock = live.clock.copy()
        data = new_state.view(None)
        result = new_state.result
        if live.ready:
            clock.after_move(seat, new_state.to_move, data, now)
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
        ev = self._event(change, "move", **event_data)
        ev.state = version
        if result is not None:
            over = self._event(change, "game_over", result=result.to_dict(), termination="rules")
            over.state = version
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
        await self._commit(change, row=row)

    # -- ending by the host: resignation, fallen flag ----------------------------------

    @staticmethod
    def _others_win(live: LiveGame, loser: int, reason: str) -> Result:
        teams = live.game.teams if hasattr(live.game, "teams") else None
        losers = {loser}
        if teams:
            for team in teams:
                if loser in team:
                    losers |= set(team)
        winners = [s.seat for s in live.seats if s.seat not in losers]
        return Result.win(*winners, reason=reason)

    async def _finish(
        self, live: LiveGame, result: Result, termination: str, event: str, **data: Any
    ) -> None:
        change = Change(live)
        now = change.now
        version = live.version + 1
        clock = live.clock.copy()
        clock.stop(now)
        ev = self._event(change, event, **data)
        ev.state = version
        over = self._event(change, "game_over", result=result.to_dict(), termination=termination)
        over.state = version

        def apply() -> None:
            live.version = version
            live.status = "finished"
            live.result = result.to_dict()
            live.termination = termination
            live.finished_at = now
            live.clock = clock

        change.apply.append(apply)
        row = {
            "version": version,
            "status": "finished",
            "result": result.to_dict(),
            "termination": termination,
            "finished_at": now,
            "to_move": None,
            "clock": clock.to_json(),
            "deadline": None,
            "computer_to_move": False,
        }
        await self._commit(change, row=row)

    async def resign(self, game_id: str, token: str | None, seen: int | None = None) -> LiveGame:
        live = await self.get(game_id)
        async with live.lock:
            held = live.holder(token)
            await self._apply_due_clocks(live)
            if live.status != "active":
                raise errors.game_over()
            if seen is not None and seen != live.version:
                raise errors.stale(seen, live.version)
            to_move = live.state.to_move
            seat = to_move if to_move in held else min(held)
            result = self._others_win(live, seat, f"seat {seat} resigned")
            await self._finish(live, result, "resignation", "resign", seat=seat)
            return live

    # -- clocks ------------------------------------------------------------------------

    async def _apply_due_clocks(self, live: LiveGame) -> None:
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
                await self._commit_move(live, new_state, None, by="clock")
            else:
                seat = live.clock.running
                assert seat is not None
                result = self._others_win(live, seat, f"seat {seat} ran out of time")
                await self._finish(live, result, "time", "flag", seat=seat)

    def _arm_timer(self, live: LiveGame) -> None:
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if live.status != "active" or not live.ready:
            return
        deadline = live.clock.deadline
        if deadline is None:
            return
        delay = max(0.0, deadline - self.time()) + 0.001
        loop = asyncio.get_running_loop()
        live.timer = loop.call_later(delay, lambda: self._spawn(self._on_timer(live)))

    async def _on_timer(self, live: LiveGame) -> None:
        live.timer = None
        try:
            async with live.lock:
                await self._apply_due_clocks(live)
        except ApiError as error:
            log.warning("game %s: a clock could not be applied: %s", live.id, error.message)
        finally:
            if live.timer is None:
                self._arm_timer(live)

    # -- after every change: clocks and computers --------------------------------------

    def _after_change(self, live: LiveGame) -> None:
        self._arm_timer(live)
        if live.status != "active":
            asyncio.get_running_loop().call_later(KEEP_FINISHED, self.evict, live.id)
            return
        to_move = live.state.to_move
        if live.seat_kind(to_move) == "computer" and live.computer_version != live.version:
            live.computer_version = live.version
            self._spawn(self._computer_turn(live, self._computer_request(live)))

    def _computer_request(self, live: LiveGame) -> ComputerRequest:
        seat = live.state.to_move
        assert seat is not None
        level = live.seats[seat].level or "medium"
        seconds_left = None
        if live.clock.remaining is not None:
            seconds_left = live.clock.remaining[seat]
        if live.clock.engine_deadline is not None:
            left = live.clock.engine_deadline - self.time()
            seconds_left = left if seconds_left is None else min(seconds_left, left)
        return ComputerRequest(
            game=live.game.id,
            options=live.options,
            moves=tuple(m.text for m in live.moves),
            level=level,
            seed=int.from_bytes(hashlib.sha256(f"{live.id}:{live.version}".encode()).digest()[:4]),
            time_ms=self.computer.budget(live.game.id, level, seconds_left),
            version=live.version,
            seat=seat,
        )

    async def _computer_turn(self, live: LiveGame, request: ComputerRequest) -> None:
        version, seat = request.version, request.seat
        try:
            text = await self.computer.choose(request)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the computer failed; it plays a random move", live.id)
            text = random_move(live.state, request.seed)
        async with live.lock:
            if live.version != version or live.status != "active":
                return
            await self._apply_due_clocks(live)
            if live.version != version or live.status != "active":
                return
            try:
                new_state = live.state.play(text)
            except (IllegalMove, ValueError):
                log.exception("game %s: the computer chose an illegal move %r", live.id, text)
                new_state = live.state.play(random_move(live.state, request.seed))
            try:
                await self._commit_move(live, new_state, seat)
            except ApiError as error:
                log.warning("game %s: a computer move was not stored: %s", live.id, error.message)
                live.computer_version = -1
                return
            self.computer_moves += 1

    # -- takeback ----------------------------------------------------------------------

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

    async def take_back(self, game_id: str, token: str | None, seen: int | None) -> LiveGame:
        """Undoes the holder's last move and every computer reply after it."""
        live = await self.get(game_id)
        async with live.lock:
            held = live.holder(token)
            if seen is not None and seen != live.version:
                raise errors.stale(seen, live.version)
            why = self.can_take_back(live, held)
            if why is not None:
                raise ApiError(409, "no_takeback", why)
            keep = max(i for i, m in enumerate(live.moves) if m.seat in held)
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
            ev = self._event(change, "takeback", undone=undone, ply=keep)
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
            await self._commit(change, row=row)
            return live

    # -- rematch -----------------------------------------------------------------------

    async def offer_rematch(self, game_id: str, token: str | None) -> LiveGame:
        """Offers (or accepts) a rematch; when every player agreed, the new game starts.

        The new game has the same game, options (a fresh seed if the server
        drew the old one) and players, seats turned by one so that everyone
        moves at another place in the order; each keeps their token.
        """
        live = await self.get(game_id)
        async with live.lock:
            held = live.holder(token)
            if live.status == "active":
                raise ApiError(409, "game_not_over", "a rematch is offered once the game is over")
            if live.status != "finished":
                raise ApiError(409, "no_rematch", "an imported game has no rematch")
            if live.rematch_id is not None:
                return live
            offers = sorted(set(live.rematch_offers) | held)
            humans = [s.seat for s in live.seats if s.kind == "human" and s.token_hash is not None]
            change = Change(live)
            if not all(h in offers for h in humans):
                self._event(change, "rematch_offer", seats=offers)

                def apply_offer() -> None:
                    live.rematch_offers = offers

                change.apply.append(apply_offer)
                await self._commit(change, row={"rematch_offers": offers})
                return live
            new = await self._rematch_game(live, change.now)
            self._event(change, "rematch", game_id=new.id, seats=self._turn(len(live.seats)))
            change.writes.append(lambda c: self._insert_game(c, new))

            def apply() -> None:
                live.rematch_offers = offers
                live.rematch_id = new.id

            change.apply.append(apply)
            await self._commit(change, row={"rematch_offers": offers, "rematch_id": new.id})
            self.games[new.id] = new
            self._after_change(new)
            return live

    @staticmethod
    def _turn(players: int) -> dict[str, int]:
        """Old seat → new seat of a rematch: everyone moves one place on."""
        return {str(s): (s + 1) % players for s in range(players)}

    async def _rematch_game(self, live: LiveGame, now: float) -> LiveGame:
        options = dict(live.options)
        if live.seed_chosen:
            options["seed"] = None
        try:
            game, state, seed_chosen, public = await asyncio.to_thread(
                self._build_game, live.game.id, {k: v for k, v in options.items() if v is not None}
            )
        except ValueError as error:
            raise ApiError(409, "no_rematch", f"the rematch cannot start: {error}") from None
        n = len(live.seats)
        seats: list[Seat] = [Seat(0, "human")] * n
        for old in live.seats:
            new_seat = (old.seat + 1) % n
            seats[new_seat] = Seat(
                new_seat,
                old.kind,
                old.level,
                old.name,
                old.token_hash,
                now if old.token_hash else None,
            )
        new = LiveGame(
            id=new_id(),
            game=game,
            state=state,
            options=dict(game.options),
            public_options=public,
            seats=seats,
            moves=[],
            casual=live.casual,
            clock=ClockState.start(live.time_control, n),
            time_control=live.time_control,
            rematch_of=live.id,
            seed_chosen=seed_chosen,
            created_at=now,
            updated_at=now,
        )
        if new.ready:
            start_clocks(new.clock, new.state, now)
        return new

    async def decline_rematch(self, game_id: str, token: str | None) -> LiveGame:
        live = await self.get(game_id)
        async with live.lock:
            held = live.holder(token)
            if live.rematch_id is not None:
                raise ApiError(409, "rematch_started", "the rematch has already started")
            change = Change(live)
            self._event(change, "rematch_declined", seats=sorted(held))

            def apply() -> None:
                live.rematch_offers = []

            change.apply.append(apply)
            await self._commit(change, row={"rematch_offers": []})
            return live

    # -- events for reconnecting clients -----------------------------------------------

    async def events_since(self, live: LiveGame, since: int) -> list[Event]:
        """Every event after number ``since`` (from memory, or the store for old ones)."""
        since = max(0, since)
        if since >= live.seq:
            return []
        cache_start = live.events[0].seq if live.events else live.seq + 1
        if since + 1 >= cache_start:
            return [e for e in live.events if e.seq > since]
        upto = live.seq

        def read(c: Connection) -> list[Event]:
            rows = c.execute(
                select(events_table)
                .where(
                    events_table.c.game_id == live.id,
                    events_table.c.seq > since,
                    events_table.c.seq <= upto,
                )
                .order_by(events_table.c.seq)
            ).all()
            return [Event(r.seq, r.type, r.state, dict(r.data), r.at) for r in rows]

        found = await self.store.read(read)
        return found + [e for e in live.events if e.seq > upto]

    # -- archive -----------------------------------------------------------------------

    async def list_games(
        self, *, status: str | None, game: str | None, limit: int, offset: int
    ) -> tuple[int, list[dict[str, Any]]]:
        """Games, latest change first, of one game id and status if given.

        Status ``archive`` means finished or imported.
        """
        g = games_table

        def read(c: Connection) -> tuple[int, list[dict[str, Any]]]:
            where = []
            if status == "archive":
                where.append(g.c.status.in_(("finished", "imported")))
            elif status:
                where.append(g.c.status == status)
            if game:
                where.append(g.c.game == game)
            total = c.execute(select(func.count()).select_from(g).where(*where)).scalar_one()
            rows = c.execute(
                select(g)
                .where(*where)
                .order_by(g.c.updated_at.desc(), g.c.id)
                .limit(limit)
                .offset(offset)
            ).all()
            ids = [r.id for r in rows]
            seat_rows = (
                c.execute(select(seats_table).where(seats_table.c.game_id.in_(ids))).all()
                if ids
                else []
            )
            by_game: dict[str, list[dict[str, Any]]] = {}
            for s in sorted(seat_rows, key=lambda s: s.seat):
                by_game.setdefault(s.game_id, []).append(
                    Seat(s.seat, s.kind, s.level, s.name, s.token_hash).public()
                )
            out = []
            for r in rows:
                out.append(
                    {
                        "id": r.id,
                        "game": r.game,
                        "options": r.public_options,
                        "status": r.status,
                        "casual": r.casual,
                        "state": r.version,
                        "ply": r.ply,
                        "to_move": r.to_move,
                        "result": r.result,
                        "termination": r.termination,
                        "seats": by_game.get(r.id, []),
                        "rematch_of": r.rematch_of,
                        "rematch_id": r.rematch_id,
                        "created_at": r.created_at,
                        "updated_at": r.updated_at,
                        "finished_at": r.finished_at,
                    }
                )
            return total, out

        return await self.store.read(read)

    def record(self, live: LiveGame) -> dict[str, Any]:
        """The game's JSON record (``sansu.GameRecord``), with who played and how it ended."""
        if live.status == "active" and hides_information(live.state):
            raise ApiError(
                409,
                "hidden_information",
                "this game keeps information from its players; its record is shown when it is over",
            )
        players = [
            {"seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name} for s in live.seats
        ]
        metadata = dict(live.meta)
        metadata.update(
            {
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(live.created_at)),
                "server_game": live.id,
                "players": players,
                "status": live.status,
            }
        )
        if live.termination is not None:
            metadata["termination"] = live.termination
        if live.result is not None and live.termination != "rules":
            metadata["host_result"] = live.result
        record = sansu.GameRecord(
            live.game.id, dict(live.options), [m.text for m in live.moves], metadata
        )
        return record.to_dict()

    async def import_record(self, data: Any) -> LiveGame:
        """Stores a JSON record as an archived game (checked by replaying every move)."""
        try:
            record = await asyncio.to_thread(sansu.GameRecord.from_dict, data)
            states = await asyncio.to_thread(record.states)
        except IllegalMove as error:
            raise ApiError(422, "bad_record", str(error)) from None
        except (ValueError, TypeError, KeyError) as error:
            raise ApiError(422, "bad_record", str(error)) from None
        final = states[-1]
        game = record.load()
        now = self.time()
        meta = dict(record.metadata)
        players = meta.get("players")
        seats = []
        for i in range(game.num_players):
            name = None
            if isinstance(players, list) and i < len(players):
                p = players[i]
                name = p.get("name") if isinstance(p, dict) else p if isinstance(p, str) else None
            seats.append(Seat(i, "imported", None, str(name)[:MAX_NAME] if name else None))
        result = None if final.result is None else final.result.to_dict()
        termination = "rules" if result else None
        host = meta.get("host_result")
        if result is None and isinstance(host, dict):
            try:
                result = Result.from_dict(host).to_dict()
                termination = str(meta.get("termination") or "host")[:16]
            except (KeyError, TypeError, ValueError):
                result = None
        status = "finished" if result is not None else "imported"
        moves = [PlayedMove(i + 1, m, None, now, i + 1) for i, m in enumerate(record.moves)]
        live = LiveGame(
            id=new_id(),
            game=game,
            state=final,
            options=dict(game.options),
            public_options=dict(final.view(None).get("options", game.options)),
            seats=seats,
            moves=moves,
            status=status,
            casual=True,
            version=len(moves),
            result=result,
            termination=termination,
            meta={"imported": True, **{k: v for k, v in meta.items() if k != "server_game"}},
            created_at=now,
            updated_at=now,
            finished_at=now,
        )
        try:
            await self.store.write(lambda c: self._insert_game(c, live))
        except StoreError as error:
            raise ApiError(503, "store_unavailable", str(error)) from None
        self.games[live.id] = live
        return live

    async def position(self, live: LiveGame, ply: int) -> dict[str, Any]:
        """The position after ``ply`` moves, as a spectator sees it."""
        if not 0 <= ply <= len(live.moves):
            raise ApiError(
                404, "no_such_position", f"this game has positions 0 to {len(live.moves)}"
            )
        texts = [m.text for m in live.moves[:ply]]
        state = await asyncio.to_thread(live.game.play_moves, texts)
        return {
            "ply": ply,
            "move": texts[-1] if texts else None,
            "seat": live.moves[ply - 1].seat if ply else None,
            "view": state.view(None),
        }
