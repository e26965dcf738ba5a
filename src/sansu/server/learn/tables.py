"""What the server keeps of learning: lessons finished, puzzle ratings, first attempts.

A lesson's progress is the set of its steps an account finished; a browser keeps
the same set for anonymous learners and hands it over when they sign in.
Puzzles and puzzle players carry Glicko-2 ratings per game (a puzzle starts at
the rating it shipped with); an account's first attempt at a puzzle is the one
that rates both, so its row's key makes rating an attempt twice impossible.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from sansu.server.base import Base


class LessonStepRow(Base):
    __tablename__ = "lesson_steps"

    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    step: Mapped[str] = mapped_column(String(64), primary_key=True)
    """The step's id in the game's lesson."""
    done_at: Mapped[float] = mapped_column(Float)


class PuzzleRatingRow(Base):
    __tablename__ = "puzzle_ratings"

    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)


class PuzzlePlayerRow(Base):
    __tablename__ = "puzzle_players"

    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    """Puzzles solved in a row (a failure sets it to 0)."""
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)


class PuzzleAttemptRow(Base):
    __tablename__ = "puzzle_attempts"

    user_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    solved: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[float] = mapped_column(Float)
    rating_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_puzzle_attempts_user", "user_id", "game", "at"),)
