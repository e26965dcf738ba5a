"""Fixtures for the user and rating domain tests (a test module imports the
``*_fixture`` functions): a migrated database on SQLite and PostgreSQL, a fast
Argon2 hasher, and a helper to sign users up."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine

from sansu.server.accounts import users
from sansu.server.base.store import make_engine, migrate

FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Still Argon2id, cheap enough for property tests that sign many users up."""


@pytest.fixture(name="fast_hashing")
def fast_hashing_fixture(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(users, "HASHER", FAST_HASHER)
    monkeypatch.setattr(users, "_DUMMY_HASH", FAST_HASHER.hash("dummy password"))


@pytest.fixture(name="engine")
def engine_fixture(any_db: str, fast_hashing: None) -> Iterator[Engine]:
    """A database migrated to the newest schema, on SQLite and on PostgreSQL."""
    engine = make_engine(any_db)
    migrate(engine)
    yield engine
    engine.dispose()


def sign_up(engine: Engine, name: str, password: str = "correct horse", now: float = 0.0):
    with engine.begin() as c:
        return users.sign_up(c, name, password, now=now)
