"""An owner's account: deleting it (its games stay under ``deleted user N``, everything
that signs in as it goes, the name cannot come back) and exporting its data."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from sansu.server.accounts.identity import CSRF_HEADER
from sansu.server.base.store import make_engine
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import make_client
from tests.server.test_seat_accounts import PASSWORD, Browser


@pytest.fixture
def web(db_path: str, fast_hashing: None) -> Iterator[TestClient]:
    with make_client(db_path) as c:
        yield c


def played(alice: Browser, bob: Browser) -> str:
    """A game of Alice and Bob, with a chat message of Alice's; its id."""
    r = alice.post("/api/games", json={"game": "uttt"})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert bob.post(f"/api/games/{gid}/join", json={}).status_code == 200
    view = alice.get(f"/api/games/{gid}").json()
    r = alice.post(f"/api/games/{gid}/moves", json={"move": "r5c5", "state": view["state"]})
    assert r.status_code == 200, r.text
    r = alice.post(f"/api/games/{gid}/chat", json={"room": "players", "text": "good luck"})
    assert r.status_code == 201, r.text
    return gid


def rows(db_path: str, query: str, **params) -> list[tuple]:
    engine = make_engine(db_path)
    try:
        with engine.connect() as c:
            return [tuple(r) for r in c.execute(sa.text(query), params)]
    finally:
        engine.dispose()


def test_deleting_needs_the_password_and_changes_nothing_without_it(web: TestClient) -> None:
    alice = Browser(web).sign("Alice", new=True)
    r = alice.post("/api/account/delete", json={"password": "not the password"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_credentials"
    no_csrf = alice.post("/api/account/delete", json={"password": PASSWORD},
                         headers={CSRF_HEADER: "wrong"})  # fmt: skip
    assert no_csrf.status_code == 403
    assert alice.get("/api/account").json()["user"]["name"] == "Alice"
    anonymous = Browser(web).post("/api/account/delete", json={"password": PASSWORD})
    assert anonymous.status_code == 401


def test_a_deleted_account_keeps_its_games_under_a_new_name(db_path: str, web: TestClient) -> None:
    alice = Browser(web).sign("Alice", new=True)
    other_browser = Browser(web).sign("alice", new=False)
    bob = Browser(web).sign("Bob", new=True)
    gid = played(alice, bob)
    assert alice.post("/api/users/Bob/follow").status_code == 200
    assert bob.post("/api/users/Alice/follow").status_code == 200
    alice_id = alice.get("/api/account").json()["user"]["id"]
    r = alice.post("/api/account/delete", json={"password": PASSWORD})
    assert r.status_code == 200, r.text
    name = f"deleted user {alice_id}"
    assert r.json() == {"ok": True, "name": name}
    assert "sansu_session=" in r.headers["set-cookie"]  # the cookie is cleared
    for browser in (alice, other_browser):
        assert browser.get("/api/account").json()["user"] is None
    assert rows(db_path, "SELECT name FROM seats WHERE game_id = :g ORDER BY seat", g=gid) == [
        (name,),
        ("Bob",),
    ]
    assert rows(db_path, "SELECT name, text FROM chat_messages WHERE game_id = :g", g=gid) == [
        (name, "good luck")
    ]
    assert rows(db_path, "SELECT count(*) FROM moves WHERE game_id = :g", g=gid) == [(1,)]
    assert rows(db_path, "SELECT count(*) FROM follows") == [(0,)]  # both ways gone
    assert bob.get("/api/users/Bob/relation").json()["following"] == 0
    again = Browser(web).post("/api/account/login", json={"name": "Alice", "password": PASSWORD})
    assert again.status_code == 401
    for taken in ("Alice", "alice", "AIice"):  # the name and its lookalikes stay retired
        r = Browser(web).post("/api/account/signup", json={"name": taken, "password": PASSWORD})
        assert r.status_code == 409, (taken, r.text)
    login_as_new_name = Browser(web).post(
        "/api/account/login", json={"name": name, "password": PASSWORD}
    )
    assert login_as_new_name.status_code == 401


def test_a_deleted_bot_account_s_tokens_stop_working(web: TestClient) -> None:
    owner = Browser(web)
    r = owner.post("/api/account/signup", json={"name": "Botty", "password": PASSWORD, "bot": True})
    assert r.status_code == 201, r.text
    owner.headers[CSRF_HEADER] = r.json()["csrf_token"]
    token = owner.post("/api/account/tokens", json={"label": "main"}).json()["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    assert web.get("/api/bot/account", headers=bearer).status_code == 200
    assert owner.post("/api/account/delete", json={"password": PASSWORD}).status_code == 200
    assert web.get("/api/bot/account", headers=bearer).status_code == 401


def test_the_export_holds_the_account_s_data_and_no_secret(db_path: str, web: TestClient) -> None:
    alice = Browser(web).sign("Alice", new=True)
    bob = Browser(web).sign("Bob", new=True)
    gid = played(alice, bob)
    assert alice.post("/api/users/Bob/follow").status_code == 200
    assert Browser(web).get("/api/account/export").status_code == 401
    r = alice.get("/api/account/export")
    assert r.status_code == 200, r.text
    assert r.headers["content-disposition"] == 'attachment; filename="sansu-Alice.json"'
    assert r.headers["cache-control"] == "no-store"
    data = r.json()
    assert data["format"] == "sansu account export" and data["profile"]["name"] == "Alice"
    assert [(g["id"], g["game"], g["seat"]) for g in data["games"]] == [(gid, "uttt", 0)]
    assert [(m["game_id"], m["text"]) for m in data["chat_messages"]] == [(gid, "good luck")]
    assert data["ratings"] == [] and data["settings"] == {"email_verified": False}
    assert data["profile"]["email"] is None
    assert [f["name"] for f in data["following"]] == ["Bob"]
    hashes = rows(db_path, "SELECT password_hash FROM users WHERE name = 'Alice'")
    assert hashes[0][0] not in r.text and "password_hash" not in r.text
    assert alice.cookies.get("sansu_session") not in r.text
    bob_export = bob.get("/api/account/export").json()
    assert bob_export["profile"]["name"] == "Bob" and bob_export["chat_messages"] == []


def test_wrong_passwords_at_deletion_count_as_failed_log_ins(web: TestClient) -> None:
    alice = Browser(web).sign("Alice", new=True)
    for _ in range(5):
        r = alice.post("/api/account/delete", json={"password": "a wrong password"})
        assert r.status_code == 403
    held = alice.post("/api/account/delete", json={"password": PASSWORD})
    assert held.status_code == 429 and held.json()["error"]["code"] == "too_many_attempts"
    assert alice.get("/api/account").json()["user"]["name"] == "Alice"
    r = Browser(web).post("/api/account/login", json={"name": "Alice", "password": PASSWORD})
    assert r.status_code == 429  # the same count as log-ins from this address
