"""Account recovery and ownership: an optional verified email address, one-time links
(stored as hashes), and the mark of a deleted account.

Every existing account keeps its row, with no address and not deleted.

Revision ID: 0013
Revises: 0010
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("deleted_at", sa.Float(), nullable=True))
        batch.create_unique_constraint("uq_users_email", ["email"])
    op.create_table(
        "account_links",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("purpose", sa.String(8), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("binding", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_account_links_user", "account_links", ["user_id", "purpose"])


def downgrade() -> None:
    op.drop_index("ix_account_links_user", table_name="account_links")
    op.drop_table("account_links")
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("uq_users_email", type_="unique")
        batch.drop_column("deleted_at")
        batch.drop_column("email")
