"""The tables that hold every game: what was created, who sits where, each move, each event.

The moves are the truth of a game (engines are pure, so replaying them
rebuilds every position); the ``games`` row carries what replay cannot give
(state number, host results such as a resignation, clock deadlines) and the
``events`` table the numbered history that reconnecting clients catch up on.
Times are UTC epoch seconds (floats), the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The metadata of the server's schema (Alembic's migrations follow it)."""


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    """The game id (``uttt``, ``challenge``, ...)."""
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Every option, as the engine normalised them: replaying needs them all."""
    public_options: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The options as anyone may see them (Sudoku Challenge withholds its seed)."""
    status: Mapped[str] = mapped_column(String(16))
    """``active``, ``finished`` or ``imported`` (an archived record whose game did not end)."""
    casual: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    """The state number: raised by every change of the position."""
    seq: Mapped[int] = mapped_column(Integer, default=0)
    """The number of the last event."""
    ply: Mapped[int] = mapped_column(Integer, default=0)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    termination: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """How the game ended: ``rules``, ``resignation`` or ``time``."""
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The nearest clock deadline, so a restart finds the games whose clocks run."""
    computer_to_move: Mapped[bool] = mapped_column(Boolean, default=False)
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_offers: Mapped[list[int]] = mapped_column(JSON, default=list)
    rematch_of: Mapped[str | None] = mapped_column(String(24), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    seed_chosen: Mapped[bool] = mapped_column(Boolean, default=False)
    """The server drew the ``seed`` option, so a rematch draws a fresh one."""
    meta: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The account that created the game (``None``: an anonymous creator)."""
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    """Joined only with the invitation's secret, and never listed."""
    join_secret_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """sha256 of the invitation's join secret (private games)."""
    watchable: Mapped[bool] = mapped_column(Boolean, default=True)
    """Whether anyone with the link may watch (the creator may turn it off)."""

    __table_args__ = (
        Index("ix_games_status_game", "status", "game", "updated_at"),
        Index("ix_games_status_deadline", "status", "deadline"),
    )


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    """``human``, ``computer``, or ``imported`` (a player of an imported record)."""
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """sha256 of the seat's secret token; ``None`` while a human seat is free."""
    joined_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    user_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    """The account the seat is bound to (its holder was signed in); ``None``: anonymous."""


class MoveRow(Base):
    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the first move."""
    text: Mapped[str] = mapped_column(String(64))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat that moved; ``None`` for a move the host applied (a clock's ``timeout``)."""
    at: Mapped[float] = mapped_column(Float)
    state: Mapped[int] = mapped_column(Integer)
    """The state number this move produced."""


class EventRow(Base):
    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(24))
    state: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


metadata = Base.metadata
games = GameRow.__table__
seats = SeatRow.__table__
moves = MoveRow.__table__
events = EventRow.__table__
