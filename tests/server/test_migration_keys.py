"""Migrations keep the rows that point at a table they change: on SQLite Alembic rebuilds
a table by copying it and dropping the old one, and with foreign keys on that drop would
fire every ``ON DELETE`` (an account's follows and sessions deleted, reporters forgotten)."""

from __future__ import annotations

import sqlalchemy as sa

from sansu.server.base.store import downgrade, make_engine, migrate
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import make_client
from tests.server.test_seat_accounts import Browser

POINTING = ("follows", "user_sessions")
"""Tables whose rows point at ``users`` with ``ON DELETE CASCADE``."""


def counts(engine: sa.Engine) -> dict[str, int]:
    with engine.connect() as c:
        return {t: c.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar_one() for t in POINTING}


def test_rows_pointing_at_accounts_survive_a_rebuild_of_the_accounts_table(
    any_db: str, fast_hashing: None
) -> None:
    with make_client(any_db) as web:
        ann = Browser(web).sign("Ann", new=True)
        Browser(web).sign("Bob", new=True)
        assert ann.post("/api/users/Bob/follow").status_code == 200
    engine = make_engine(any_db)
    try:
        before = counts(engine)
        assert before["follows"] == 1 and before["user_sessions"] >= 2
        downgrade(engine, "0011")  # back over the migrations that rebuild `users`
        assert counts(engine) == before
        migrate(engine)
        assert counts(engine) == before
        with engine.connect() as c:  # the connections are left checking keys again
            if c.dialect.name == "sqlite":
                assert c.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
    finally:
        engine.dispose()
