"""Alembic's environment: migrates the connection the server hands over, or a URL.

The server runs migrations itself at start (``sansu.server.base.store.migrate``),
passing its open connection in ``config.attributes["connection"]``; the
``alembic`` command line can also be pointed here with ``sqlalchemy.url``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

# Importing the domains adds their tables to the metadata.
import sansu.server.accounts
import sansu.server.analysis
import sansu.server.bots
import sansu.server.chat
import sansu.server.learn
import sansu.server.moderation
import sansu.server.ratings
import sansu.server.relation
import sansu.server.tournaments  # noqa: F401
from sansu.server.base import metadata

config = context.config


def run_migrations_offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
