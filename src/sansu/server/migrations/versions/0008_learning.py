"""Learning: lessons' finished steps, puzzle and puzzle-player ratings, first attempts.

Only new tables: every existing game, seat, move, event, user and rating stays as it was.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def user_column(primary_key: bool = True) -> sa.Column:
    return sa.Column(
        "user_id",
        sa.Integer(),
        sa.ForeignKey("users.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=False,
    )


def glicko_columns() -> list[sa.Column]:
    return [
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "lesson_steps",
        user_column(),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("step", sa.String(64), primary_key=True),
        sa.Column("done_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        *glicko_columns(),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "puzzle_players",
        user_column(),
        sa.Column("game", sa.String(32), primary_key=True),
        *glicko_columns(),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        user_column(),
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
    )
    op.create_index("ix_puzzle_attempts_user", "puzzle_attempts", ["user_id", "game", "at"])


def downgrade() -> None:
    op.drop_index("ix_puzzle_attempts_user", table_name="puzzle_attempts")
    for table in ("puzzle_attempts", "puzzle_players", "puzzle_ratings", "lesson_steps"):
        op.drop_table(table)
