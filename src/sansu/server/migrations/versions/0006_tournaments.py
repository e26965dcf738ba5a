"""Tournaments: the tournament, its entries and its pairings.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("time_control", sa.JSON(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("minutes", sa.Float(), nullable=True),
        sa.Column("streak", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=True),
        sa.Column("started_at", sa.Float(), nullable=True),
        sa.Column("ends_at", sa.Float(), nullable=True),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "created_at"])
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id",
            sa.String(24),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("bot", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column(
            "tournament_id",
            sa.String(24),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("game_id", sa.String(24), nullable=True, unique=True),
        sa.Column("outcomes", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
    )
    op.create_index(
        "ix_tournament_pairings_tournament", "tournament_pairings", ["tournament_id", "round"]
    )


def downgrade() -> None:
    op.drop_index("ix_tournament_pairings_tournament", table_name="tournament_pairings")
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
