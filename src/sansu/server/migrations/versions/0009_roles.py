"""Roles and the audit log: an account may be an admin or a moderator, and every change of
a role (and later every moderator's action) is recorded.

Every existing account stays a player (no role); no row changes.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def account_column(name: str) -> sa.Column:
    """An account named by a line of the log: null once the account is deleted."""
    return sa.Column(
        name, sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("role", sa.String(16), nullable=True))
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float(), nullable=False),
        account_column("actor_id"),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        account_column("target_id"),
        sa.Column("target", sa.String(64), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
    )
    op.create_index("audit_log_at", "audit_log", ["at"])


def downgrade() -> None:
    op.drop_index("audit_log_at", table_name="audit_log")
    op.drop_table("audit_log")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("role")
