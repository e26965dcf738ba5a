"""Migration 0005 on SQLite and PostgreSQL: the API tokens table comes and goes with
upgrade and downgrade, accounts (bots included) are kept, and a token works again only
once made anew."""

from __future__ import annotations

import sqlalchemy as sa

from sansu.server.base.store import make_engine, migrate
from sansu.server.bots import accounts as bot_accounts
from tests.server.accounts_fixtures import engine_fixture as engine_fixture
from tests.server.accounts_fixtures import fast_hashing_fixture as fast_hashing_fixture
from tests.server.accounts_fixtures import sign_up
from tests.server.test_ratings_migration import HEAD, state
from tests.server.test_reviews_migration import downgrade


def test_api_tokens_come_and_go_with_0005(engine: sa.Engine, any_db: str) -> None:
    user = sign_up(engine, "robot")
    with engine.begin() as c:
        user = bot_accounts.make_bot(c, user.id)
        token, _info = bot_accounts.create_token(c, user, "first", now=1.0)
    with engine.connect() as c:
        assert bot_accounts.token_user(c, token) == user
    assert state(engine)[1] == HEAD
    downgrade(engine, "0004")
    tables, version = state(engine)
    assert version == "0004" and "api_tokens" not in tables and "users" in tables
    with engine.connect() as c:
        assert c.execute(sa.text("select bot from users where name = 'robot'")).scalar()
    migrate(make_engine(any_db))
    tables, version = state(engine)
    assert version == HEAD and "api_tokens" in tables
    with engine.connect() as c:
        assert bot_accounts.token_user(c, token) is None
