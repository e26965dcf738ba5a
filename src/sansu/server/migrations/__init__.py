"""Alembic migrations of the server's schema; :func:`sansu.server.store.migrate` runs them."""
