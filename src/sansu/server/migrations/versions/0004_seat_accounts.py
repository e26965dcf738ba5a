"""Seats bound to accounts, and private games.

Adds ``seats.user_id`` (the account a seat is bound to) and, on ``games``,
the creator's account, the private flag with the invitation's secret
(hashed) and whether the game may be watched. Existing games stay as they
were: public, watchable, every seat anonymous.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN, never a batch copy of the table: on SQLite a batch
    # rebuild of ``games`` would drop it, and the cascade would take its seats,
    # moves and events with it.
    op.add_column("seats", sa.Column("user_id", sa.Integer(), nullable=True))
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.add_column("games", sa.Column("created_by", sa.Integer(), nullable=True))
    op.add_column(
        "games", sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("games", sa.Column("join_secret_hash", sa.String(64), nullable=True))
    op.add_column(
        "games", sa.Column("watchable", sa.Boolean(), nullable=False, server_default=sa.true())
    )


def downgrade() -> None:
    for column in ("watchable", "join_secret_hash", "private", "created_by"):
        op.drop_column("games", column)
    op.drop_index("ix_seats_user_id", table_name="seats")
    op.drop_column("seats", "user_id")
