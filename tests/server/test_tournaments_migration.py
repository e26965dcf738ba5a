"""Migration 0006 on a database of schema 0004: the tournaments' tables come and go with
upgrade and downgrade, every game is kept, on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa

from sansu.server.base.store import make_engine, migrate
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import make_client
from tests.server.test_ratings_migration import HEAD, snapshot, state
from tests.server.test_reviews_migration import downgrade
from tests.server.test_tournaments_api import duel, people

TABLES = ("tournaments", "tournament_entries", "tournament_pairings")
KEPT = ("games", "seats", "moves", "events", "users")


def test_tournament_tables_come_and_go(any_db: str, fast_hashing: None) -> None:
    with make_client(any_db) as client:
        tid, game = duel(people(client, "Alice", "Bob"), format="swiss", rounds=2)
    engine = make_engine(any_db)
    tables, version = state(engine)
    assert version == HEAD and set(TABLES) <= tables
    downgrade(engine, "0005")
    tables, version = state(engine)
    assert version == "0005" and not set(TABLES) & tables
    rows = snapshot(engine, KEPT)
    columns, games = rows["games"]
    assert game["game_id"] in {r[columns.index("id")] for r in games}  # the game is kept
    migrate(engine)
    tables, version = state(engine)
    assert version == HEAD and set(TABLES) <= tables
    assert snapshot(engine, KEPT, like=rows) == rows
    with engine.connect() as c:
        count = sa.select(sa.func.count()).select_from(sa.table("tournaments"))
        assert c.execute(count).scalar() == 0
    engine.dispose()
    with make_client(any_db) as client:
        assert client.get(f"/api/tournaments/{tid}").status_code == 404
        assert client.get(f"/api/games/{game['game_id']}").status_code == 200
