"""Migration 0013 on a database of schema 0010: every account keeps its row and can log
in, with no address and not deleted; the links' table comes and goes with upgrade and
downgrade, on SQLite and PostgreSQL."""

from __future__ import annotations

from fastapi.testclient import TestClient

from sansu.server.accounts.identity import CSRF_HEADER
from sansu.server.base.store import make_engine, migrate
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import make_client
from tests.server.test_ratings_migration import HEAD, snapshot, state
from tests.server.test_reviews_migration import downgrade

PASSWORD = "a long enough password"
KEPT = ("users", "user_sessions", "games", "seats")


def signed_up(client: TestClient, name: str) -> None:
    r = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    client.headers[CSRF_HEADER] = r.json()["csrf_token"]


def test_accounts_survive_the_recovery_migration(any_db: str, fast_hashing: None) -> None:
    with make_client(any_db) as client:
        signed_up(client, "Alice")
        assert client.post("/api/games", json={"game": "uttt"}).status_code == 201
        client.cookies.clear()
        signed_up(client, "Bob")
    engine = make_engine(any_db)
    downgrade(engine, "0010")
    tables, version = state(engine)
    assert version == "0010" and "account_links" not in tables
    rows = snapshot(engine, KEPT)
    assert len(rows["users"][1]) == 2 and "email" not in rows["users"][0]
    migrate(engine)
    tables, version = state(engine)
    assert version == HEAD and "account_links" in tables
    assert snapshot(engine, KEPT, like=rows) == rows
    after = snapshot(engine, ("users",))
    columns = after["users"][0]
    assert {
        (r[columns.index("email")], r[columns.index("deleted_at")]) for r in after["users"][1]
    } == {(None, None)}
    engine.dispose()
    with make_client(any_db) as client:
        r = client.post("/api/account/login", json={"name": "alice", "password": PASSWORD})
        assert r.status_code == 200 and r.json()["user"]["name"] == "Alice"
        assert client.get("/api/account/email").json()["email"] is None
