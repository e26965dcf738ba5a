"""Seats bound to accounts: a signed-in player's seat follows them to any browser where
they are signed in (HTTP with the CSRF header, WebSocket from this site's pages only);
nobody else's account or cookie acts for it, and the binding survives a restart."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sansu.server.accounts.routes import CSRF_HEADER
from sansu.server.base.store import make_engine, migrate
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import Api, make_client
from tests.server.test_ratings_migration import HEAD, snapshot, state
from tests.server.test_reviews_migration import downgrade

PASSWORD = "a long enough password"
SITE = "http://testserver"


class Browser:
    """One browser of one server: its own cookie jar and CSRF token, sharing the server's
    test client (one app, one event loop) with the other browsers."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies = type(client.cookies)()
        self.headers: dict[str, str] = {}

    def sign(self, name: str, *, new: bool) -> Browser:
        path = "/api/account/signup" if new else "/api/account/login"
        r = self.post(path, json={"name": name, "password": PASSWORD})
        assert r.status_code in (200, 201), r.text
        self.headers[CSRF_HEADER] = r.json()["csrf_token"]
        return self

    @contextmanager
    def _as(self) -> Iterator[TestClient]:
        self.client.cookies = self.cookies
        yield self.client
        self.cookies = self.client.cookies
        self.client.cookies = type(self.cookies)()

    def get(self, url: str, **kw) -> Any:
        with self._as() as c:
            return c.get(url, headers={**self.headers, **kw.pop("headers", {})}, **kw)

    def post(self, url: str, **kw) -> Any:
        with self._as() as c:
            return c.post(url, headers={**self.headers, **kw.pop("headers", {})}, **kw)

    @contextmanager
    def websocket(self, url: str, origin: str):
        with self._as() as c, c.websocket_connect(url, headers={"origin": origin}) as ws:
            yield ws


@pytest.fixture
def browsers(client: TestClient, fast_hashing: None) -> dict[str, Browser]:
    return {
        "alice": Browser(client).sign("Alice", new=True),
        "bob": Browser(client).sign("Bob", new=True),
        "alice2": Browser(client).sign("alice", new=False),
    }


def create(c: Browser, **body) -> dict:
    r = c.post("/api/games", json={"game": "uttt", **body})
    assert r.status_code == 201, r.text
    return r.json()


def test_the_seat_follows_its_account_to_another_browser(browsers) -> None:
    alice, alice2 = browsers["alice"], browsers["alice2"]
    made = create(alice, name="ignored: the account's name is used")
    gid = made["id"]
    seat = made["game"]["seats"][0]
    assert seat["name"] == "Alice" and seat["account"] is True
    assert browsers["bob"].post(f"/api/games/{gid}/join", json={}).status_code == 200
    view = alice2.get(f"/api/games/{gid}").json()  # no token: the cookie alone
    assert view["you"] == [0]
    r = alice2.post(f"/api/games/{gid}/moves", json={"move": "r5c5", "state": view["state"]})
    assert r.status_code == 200, r.text
    assert [m["move"] for m in alice.get(f"/api/games/{gid}").json()["moves"]] == ["r5c5"]


def test_a_cookie_write_needs_the_csrf_header(browsers) -> None:
    alice = browsers["alice"]
    gid = create(alice)["id"]
    browsers["bob"].post(f"/api/games/{gid}/join", json={})
    csrf = alice.headers.pop(CSRF_HEADER)
    r = alice.post(f"/api/games/{gid}/moves", json={"move": "r5c5", "state": 1})
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    r = alice.post(
        f"/api/games/{gid}/moves", json={"move": "r5c5", "state": 1}, headers={CSRF_HEADER: "x"}
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "csrf_failed"
    assert alice.get(f"/api/games/{gid}").json()["moves"] == []
    # Without the header a create is anonymous: the seat is not bound.
    made = alice.post("/api/games", json={"game": "uttt"}).json()
    assert made["game"]["seats"][0]["account"] is False
    alice.headers[CSRF_HEADER] = csrf


def test_another_account_cannot_act_for_the_seat(browsers) -> None:
    alice, bob = browsers["alice"], browsers["bob"]
    gid = create(alice)["id"]
    game = bob.get(f"/api/games/{gid}").json()
    assert game["you"] == []
    r = bob.post(f"/api/games/{gid}/moves", json={"move": "r5c5", "state": game["state"]})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_game"
    for what in ("resign", "takeback", "rematch"):
        r = bob.post(f"/api/games/{gid}/{what}", json={})
        assert r.status_code == 403, (what, r.text)
    assert alice.get(f"/api/games/{gid}").json()["status"] == "active"


def test_a_socket_acts_by_cookie_only_from_this_site(browsers) -> None:
    alice, alice2 = browsers["alice"], browsers["alice2"]
    gid = create(alice)["id"]
    browsers["bob"].post(f"/api/games/{gid}/join", json={})
    with alice2.websocket(f"/api/games/{gid}/ws", SITE) as ws:
        hello = ws.receive_json()
        assert hello["type"] == "hello" and hello["you"] == [0]
        ws.send_text(json.dumps({"type": "move", "move": "r5c5", "state": hello["state"], "id": 1}))
        while (answer := ws.receive_json())["type"] != "ack":
            assert answer["type"] != "error", answer
    with alice2.websocket(f"/api/games/{gid}/ws", "https://evil.example") as ws:
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "bad_origin"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    assert len(alice.get(f"/api/games/{gid}").json()["moves"]) == 1


def test_the_binding_survives_a_restart(db_path: str, fast_hashing: None) -> None:
    with make_client(db_path) as client:
        gid = create(Browser(client).sign("Alice", new=True))["id"]
    with make_client(db_path) as fresh:
        r = fresh.post("/api/account/login", json={"name": "ALICE", "password": PASSWORD})
        fresh.headers[CSRF_HEADER] = r.json()["csrf_token"]
        assert fresh.get(f"/api/games/{gid}").json()["you"] == [0]


def test_games_survive_the_seat_accounts_migration(any_db: str) -> None:
    with make_client(any_db) as client:
        api = Api(client)
        gid, tokens = api.two_players("uttt")
        api.play_random(gid, tokens, random.Random(3), stop_after=3)
        before = api.get(gid)
    engine = make_engine(any_db)
    downgrade(engine, "0003")
    assert state(engine)[1] == "0003"
    rows = snapshot(engine)
    assert len(rows["seats"][1]) == 2 and rows["moves"][1] and rows["events"][1]
    migrate(engine)
    assert state(engine)[1] == HEAD
    assert snapshot(engine, like=rows) == rows
    with engine.connect() as c:
        games = c.execute(sa.text("SELECT private, watchable, created_by FROM games")).all()
        seats = c.execute(sa.text("SELECT user_id FROM seats")).all()
    engine.dispose()
    assert [tuple(g) for g in games] == [(False, True, None)]
    assert {s[0] for s in seats} == {None}
    with make_client(any_db) as client:
        api = Api(client)
        after = api.get(gid, tokens[1])
        assert after["moves"] == before["moves"] and after["you"] == [1]
