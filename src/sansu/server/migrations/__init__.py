"""Alembic migrations of the server's schema; :func:`sansu.server.base.store.migrate` runs them."""
