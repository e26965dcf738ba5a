"""Lookalike user names: each account's name skeleton.

Adds ``users.name_skeleton`` (unique; see ``accounts/lookalikes.py``) and
fills it for every account, oldest first; an account whose older lookalike
already holds the skeleton keeps none (both go on; no new one can join them).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from sansu.server.accounts import skeleton

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(20), nullable=True))
    users = sa.table(
        "users",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_skeleton"),
    )
    connection = op.get_bind()
    held: set[str] = set()
    for user_id, name in connection.execute(
        sa.select(users.c.id, users.c.name).order_by(users.c.id)
    ).all():
        shape = skeleton(name)
        if shape in held:
            continue
        held.add(shape)
        connection.execute(
            sa.update(users).where(users.c.id == user_id).values(name_skeleton=shape)
        )
    with op.batch_alter_table("users") as batch:
        batch.create_unique_constraint("uq_users_name_skeleton", ["name_skeleton"])


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_constraint("uq_users_name_skeleton", type_="unique")
        batch.drop_column("name_skeleton")
