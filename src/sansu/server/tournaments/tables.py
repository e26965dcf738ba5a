"""The tables of tournaments: the tournament, its entries, and its pairings.

A pairing row is written before its game is created (``game_id`` empty), and
the created game carries the pairing's id in its ``meta``; so a server that
stops between the two finds the game again, or creates it, when it starts.
A pairing's result is written once, by a conditional update (``finished_at``
still empty), so a game's end advances its tournament exactly once.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.base import Base


class TournamentRow(Base):
    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    format: Mapped[str] = mapped_column(String(16))
    """``arena``, ``swiss`` or ``round_robin``."""
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    time_control: Mapped[dict[str, Any]] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    table_size: Mapped[int] = mapped_column(Integer, default=2)
    """Players per game (Sudoku Challenge: 2–5)."""
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Swiss: as created; round-robin: fixed at the start; arena: none."""
    minutes: Mapped[float | None] = mapped_column(Float, nullable=True)
    """An arena's length."""
    streak: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[str] = mapped_column(String(16))
    """``upcoming``, ``running`` or ``finished``."""
    round: Mapped[int] = mapped_column(Integer, default=0)
    """The round being played (Swiss, round-robin)."""
    created_by: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[float] = mapped_column(Float)
    starts_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    ends_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (Index("ix_tournaments_status", "status", "created_at"),)


class EntryRow(Base):
    __tablename__ = "tournament_entries"

    tournament_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(20))
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    rating: Mapped[float] = mapped_column(Float)
    """The rating when the player entered (pairing order, seeds)."""
    joined_at: Mapped[float] = mapped_column(Float)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)


class PairingRow(Base):
    __tablename__ = "tournament_pairings"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("tournaments.id", ondelete="CASCADE")
    )
    round: Mapped[int] = mapped_column(Integer)
    """The round (Swiss, round-robin); an arena numbers its pairings."""
    board: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    """``game``, ``bye`` (a Swiss bye, a round-robin rest) or ``forfeit`` (a withdrawn
    round-robin opponent: the other player wins)."""
    players: Mapped[list[int]] = mapped_column(JSON)
    """User ids in seat order (seat 0 moves first)."""
    game_id: Mapped[str | None] = mapped_column(String(24), nullable=True, unique=True)
    outcomes: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    """Each player's ``win``, ``draw`` or ``loss``, once over."""
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (Index("ix_tournament_pairings_tournament", "tournament_id", "round"),)


tournaments = TournamentRow.__table__
entries = EntryRow.__table__
pairings = PairingRow.__table__
