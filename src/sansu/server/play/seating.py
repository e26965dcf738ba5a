"""Seating: creating a game, taking its seats, and the tokens that hold them.

A game has one seat per player, human or computer. Whoever takes a human
seat gets a secret token, shown only once (the server keeps its sha256);
one token may hold several seats of a game. A signed-in player's seats are
also bound to their account (under the account's name), so that they can
continue from any browser where they are signed in.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, update

import sansu
from sansu.core.protocol import Game, IllegalMove, State
from sansu.core.registry import game_class
from sansu.server.accounts import User
from sansu.server.base import ApiError, game_over
from sansu.server.base import seats as seats_table
from sansu.server.play.clocks import ClockState, check_time_control
from sansu.server.play.computer import levels
from sansu.server.play.live import (
    MAX_NAME,
    Change,
    LiveGame,
    Seat,
    SeatSpec,
    hash_token,
    new_id,
    start_clocks,
)
from sansu.server.play.rated import check_create, check_join
from sansu.server.play.rounds import Rounds


def build_game(
    game_id: str, options: Mapping[str, Any]
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


def with_aids_default(
    game_id: str, options: Mapping[str, Any], seats: Sequence[SeatSpec] | None
) -> dict[str, Any]:
    """``options`` with ``aids`` set when the game has it and the creator left it unsaid:
    on in a game against the computer, off in a game between people."""
    options = dict(options)
    try:
        names = {o.name for o in game_class(game_id).option_specs}
    except ValueError:
        return options  # an unknown game is refused by build_game
    if "aids" in names and options.get("aids") is None:
        options["aids"] = any(
            isinstance(spec, Mapping) and spec.get("kind") == "computer" for spec in seats or ()
        )
    return options


class Seating:
    """Creates games and seats their players."""

    def __init__(self, rounds: Rounds, clock: Callable[[], float]) -> None:
        self.rounds = rounds
        self.time = clock

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
        user: User | None = None,
        private: bool = False,
        join_secret_hash: str | None = None,
        watchable: bool = True,
        bind: Mapping[int, User] | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> tuple[LiveGame, str | None]:
        """A new game; returns it and the creator's token (``None`` if they took no seat).

        ``user``: the signed-in creator, whose seats are bound to their account.
        ``private``, ``join_secret_hash``, ``watchable``: see :mod:`sansu.server.play.privacy`.
        ``bind``: seats taken at once for other accounts (a tournament's pairing),
        each with a token nobody is shown. ``meta``: stored with the game (e.g. the challenge or
        pairing that started it)."""
        try:
            tc = check_time_control(time_control)
            options = with_aids_default(game_id, options or {}, seats)
            game, state, seed_chosen, public = await asyncio.to_thread(build_game, game_id, options)
        except IllegalMove as error:
            raise ApiError(422, "bad_options", str(error)) from None
        except ValueError as error:
            code = "unknown_game" if str(error).startswith("unknown game") else "bad_options"
            raise ApiError(422, code, str(error)) from None
        seat_list = seat_list_for(game, seats)
        humans = [s.seat for s in seat_list if s.kind == "human"]
        if take is None:
            take = humans[:1]
        take = list(dict.fromkeys(take))
        if not casual:
            check_create(seat_list, take, user, bind)
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
            if user is not None:
                seat_list[seat].user_id = user.id
                seat_list[seat].name = user.name
            elif name:
                seat_list[seat].name = name[:MAX_NAME]
        for seat, player in (bind or {}).items():
            if seat not in humans or seat in take:
                raise ApiError(422, "bad_seat", f"seat {seat} cannot be bound to an account")
            seat_list[seat].token_hash = hash_token(secrets.token_urlsafe(24))
            seat_list[seat].joined_at = now
            seat_list[seat].user_id = player.id
            seat_list[seat].name = player.name
        live = LiveGame(
            id=new_id(),
            game=game,
            state=state,
            options=dict(game.options),
            public_options=public,
            seats=seat_list,
            moves=[],
            casual=bool(casual),
            created_by=None if user is None else user.id,
            private=private,
            join_secret_hash=join_secret_hash if private else None,
            watchable=watchable,
            clock=ClockState.start(tc, len(seat_list)),
            time_control=tc,
            seed_chosen=seed_chosen,
            meta=dict(meta or {}),
            created_at=now,
            updated_at=now,
        )
        if live.ready:
            start_clocks(live.clock, live.state, now)
        await self.rounds.insert(live)
        self.rounds.changed(live)
        return live, token

    async def join(
        self,
        game_id: str,
        seat: int | None = None,
        name: str | None = None,
        token: str | None = None,
        user: User | None = None,
    ) -> tuple[LiveGame, int, str]:
        """Takes a free human seat (the first one unless ``seat`` is given).

        With ``token`` (a seat already held in this game, e.g. a second seat
        on the same device) the seat joins that token; otherwise a new token
        is made and returned — the only time the server ever shows it. With
        ``user`` (signed in) the seat is also bound to that account.
        """
        live = await self.rounds.get(game_id)
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
                raise game_over()
            check_join(live, user)
            if token:
                live.holder(token)
            else:
                token = secrets.token_urlsafe(24)
            change = Change(live)
            digest = hash_token(token)
            seat_name = user.name if user is not None else (name or "")[:MAX_NAME] or None
            user_id = None if user is None else user.id
            was_ready = live.ready
            now = change.now

            def write(c: Connection) -> None:
                c.execute(
                    update(seats_table)
                    .where(seats_table.c.game_id == live.id, seats_table.c.seat == seat)
                    .values(token_hash=digest, joined_at=now, name=seat_name, user_id=user_id)
                )

            change.writes.append(write)
            self.rounds.event(change, "joined", seat=seat, name=seat_name)
            new_seat = Seat(seat, "human", None, seat_name, digest, now, user_id)
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
            await self.rounds.commit(change, row=row)
            self.rounds.hub.send_presence(live)
            return live, seat, token


def seat_list_for(game: Game, specs: Sequence[SeatSpec] | None) -> list[Seat]:
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
            raise ApiError(422, "bad_seats", f"seat {i}: kind is human or computer, not {kind!r}")
    return out
