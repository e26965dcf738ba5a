"""The first schema: games, seats, moves, events.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("public_options", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("casual", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("to_move", sa.Integer(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("termination", sa.String(16), nullable=True),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("deadline", sa.Float(), nullable=True),
        sa.Column("computer_to_move", sa.Boolean(), nullable=False),
        sa.Column("time_control", sa.JSON(), nullable=True),
        sa.Column("rematch_offers", sa.JSON(), nullable=False),
        sa.Column("rematch_of", sa.String(24), nullable=True),
        sa.Column("rematch_id", sa.String(24), nullable=True),
        sa.Column("seed_chosen", sa.Boolean(), nullable=False),
        sa.Column("meta", sa.JSON(), nullable=False),
    )
    op.create_index("ix_games_status_game", "games", ["status", "game", "updated_at"])
    op.create_index("ix_games_status_deadline", "games", ["status", "deadline"])
    op.create_table(
        "seats",
        sa.Column(
            "game_id",
            sa.String(24),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.Float(), nullable=True),
    )
    op.create_table(
        "moves",
        sa.Column(
            "game_id",
            sa.String(24),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("ply", sa.Integer(), primary_key=True),
        sa.Column("text", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("state", sa.Integer(), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column(
            "game_id",
            sa.String(24),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("type", sa.String(24), nullable=False),
        sa.Column("state", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_index("ix_games_status_deadline", table_name="games")
    op.drop_index("ix_games_status_game", table_name="games")
    op.drop_table("games")
