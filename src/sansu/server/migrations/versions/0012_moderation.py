"""Moderation: the reports queue, an account's closing, engine mark and one rename, and
the rated games whose points an engine mark gave back.

Reports of chat messages move from ``chat_reports`` into ``reports`` (as open
reports; their reporter's name is the account's or the seat's), and
``chat_reports`` goes. Every account stays open, unmarked, and keeps its name.

Revision ID: 0012
Revises: 0010
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def account_column(name: str) -> sa.Column:
    """An account a report names: null once the account is deleted."""
    return sa.Column(
        name, sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("closed_at", sa.Float(), nullable=True))
        batch.add_column(sa.Column("engine_at", sa.Float(), nullable=True))
        batch.add_column(
            sa.Column("rename_once", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("rating_history") as batch:
        batch.add_column(sa.Column("refunded_at", sa.Float(), nullable=True))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        account_column("reporter_id"),
        sa.Column("reporter", sa.String(64), nullable=False),
        account_column("target_id"),
        sa.Column("target", sa.String(64), nullable=True),
        sa.Column(
            "message_id",
            sa.Integer(),
            sa.ForeignKey("chat_messages.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("game_id", sa.String(24), nullable=True),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("open_key", sa.String(96), nullable=True, unique=True),
        sa.Column("closed_at", sa.Float(), nullable=True),
        account_column("closed_by_id"),
        sa.Column("closed_by", sa.String(64), nullable=True),
        sa.Column("resolution", sa.String(200), nullable=True),
    )
    op.create_index("ix_reports_status_at", "reports", ["status", "at"])
    op.execute(
        """
        INSERT INTO reports (at, kind, category, text, reporter_id, reporter, target_id, target,
                             message_id, game_id, status, open_key)
        SELECT r.at, 'message', r.reason, '', r.user_id,
               COALESCE(u.name, 'seat ' || COALESCE(CAST(r.seat AS VARCHAR(8)), '?')
                        || ' of ' || m.game_id),
               m.user_id, m.name, r.message_id, m.game_id, 'open',
               'chat-report:' || CAST(r.id AS VARCHAR(16))
        FROM chat_reports r
        JOIN chat_messages m ON m.id = r.message_id
        LEFT JOIN users u ON u.id = r.user_id
        """
    )
    op.drop_index("ix_chat_reports_message_id", table_name="chat_reports")
    op.drop_table("chat_reports")


def downgrade() -> None:
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
    op.execute(
        """
        INSERT INTO chat_reports (message_id, reason, user_id, seat, at)
        SELECT message_id, category, reporter_id, NULL, at FROM reports
        WHERE kind = 'message' AND message_id IS NOT NULL
        """
    )
    op.drop_index("ix_reports_status_at", table_name="reports")
    op.drop_table("reports")
    with op.batch_alter_table("rating_history") as batch:
        batch.drop_column("refunded_at")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("rename_once")
        batch.drop_column("engine_at")
        batch.drop_column("closed_at")
