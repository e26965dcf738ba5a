"""A game's rows in the store: reading a game back into memory, and writing a new one.

The rows are the truth (:mod:`sansu.server.play.rounds`): a game read back is
replayed move by move from its options, so that memory holds exactly what the
engine makes of the stored moves.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, insert, select

import sansu
from sansu.server.base import games as games_table
from sansu.server.base import moves as moves_table
from sansu.server.base import not_found
from sansu.server.base import seats as seats_table
from sansu.server.play.clocks import ClockState
from sansu.server.play.live import LiveGame, PlayedMove, Seat


def read_game(c: Connection, game_id: str) -> tuple[Any, list[Any], list[Any]]:
    """The game's row, its seats' and its moves' (``404 not_found`` if there is none)."""
    if c.dialect.name == "postgresql":  # one snapshot: another node's commit whole or not
        c.execution_options(isolation_level="REPEATABLE READ")
    row = c.execute(select(games_table).where(games_table.c.id == game_id)).first()
    if row is None:
        raise not_found(game_id)
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


def stored_seq(c: Connection, game_id: str) -> int | None:
    """The game's stored event number (``None``: no such game): one row, where reading
    the game itself means its seats, its moves and replaying them."""
    return c.execute(select(games_table.c.seq).where(games_table.c.id == game_id)).scalar()


def live_game(row: Any, seat_rows: list[Any], move_rows: list[Any]) -> LiveGame:
    """The game in memory, from its rows: the moves replayed on a fresh engine state."""
    game = sansu.load_game(row.game, **row.options)
    state = game.initial_state()
    for m in move_rows:
        state = state.play(m.text)
    return LiveGame(
        id=row.id,
        game=game,
        state=state,
        options=dict(row.options),
        public_options=dict(row.public_options),
        seats=[
            Seat(s.seat, s.kind, s.level, s.name, s.token_hash, s.joined_at, s.user_id)
            for s in seat_rows
        ],
        moves=[PlayedMove(m.ply, m.text, m.seat, m.at, m.state) for m in move_rows],
        status=row.status,
        casual=row.casual,
        created_by=row.created_by,
        private=row.private,
        join_secret_hash=row.join_secret_hash,
        watchable=row.watchable,
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


def insert_game(c: Connection, live: LiveGame) -> None:
    """Writes a new game's rows: the game, its seats and any moves it starts with."""
    row = live.game_row()
    row.update(
        id=live.id,
        game=live.game.id,
        options=live.options,
        public_options=live.public_options,
        casual=live.casual,
        created_by=live.created_by,
        private=live.private,
        join_secret_hash=live.join_secret_hash,
        watchable=live.watchable,
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
