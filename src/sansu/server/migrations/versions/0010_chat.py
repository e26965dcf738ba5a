"""Chat: the messages of each game's two rooms, and reports of them.

Only new tables: every existing row stays as it was.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(24),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(140), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("removed_by", sa.Integer(), nullable=True),
        sa.Column("removed_at", sa.Float(), nullable=True),
    )
    op.create_index("ix_chat_messages_game", "chat_messages", ["game_id", "room", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "message_id",
            sa.Integer(),
            sa.ForeignKey("chat_messages.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_chat_reports_message_id", "chat_reports", ["message_id"])


def downgrade() -> None:
    op.drop_index("ix_chat_reports_message_id", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_game", table_name="chat_messages")
    op.drop_table("chat_messages")
