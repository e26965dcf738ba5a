"""Following and who is online: a signed-in player follows and unfollows others (never
themselves, never past the limit, never for someone else), and sees who of them is
online, from a socket opened and closed or a recent request, and what they play."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from sansu.server.accounts import find_user
from sansu.server.relation import follows
from tests.server.accounts_fixtures import engine_fixture, fast_hashing_fixture, sign_up  # noqa: F401
from tests.server.test_chat import code, stored
from tests.server.test_seat_accounts import PASSWORD, SITE, Browser, create


class Person(Browser):
    """A browser that also unfollows (``DELETE``)."""

    def delete(self, url: str, **kw: Any) -> Any:
        with self._as() as c:
            return c.delete(url, headers={**self.headers, **kw.pop("headers", {})}, **kw)


@pytest.fixture
def people(client: TestClient, fast_hashing: None) -> dict[str, Person]:
    return {n: Person(client).sign(n.capitalize(), new=True) for n in ("ann", "bob", "cid")}


@pytest.fixture
def now(client: TestClient) -> list[float]:
    """The online tracker's clock, moved by hand."""
    t = [1000.0]
    client.app.state.online.clock = lambda: t[0]  # type: ignore[attr-defined]
    return t


def relation(p: Browser, name: str) -> dict[str, Any]:
    r = p.get(f"/api/users/{name}/relation")
    assert r.status_code == 200, r.text
    return r.json()


def following(p: Browser) -> list[dict[str, Any]]:
    r = p.get("/api/account/following")
    assert r.status_code == 200, r.text
    return r.json()["following"]


def wait_for(check: Callable[[], bool], seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "never came true"
        time.sleep(0.02)


def test_a_player_follows_and_unfollows_another(people: dict[str, Person]) -> None:
    ann, bob = people["ann"], people["bob"]
    assert relation(ann, "Bob")["you_follow"] is False
    r = ann.post("/api/users/bob/follow")  # any case
    assert r.status_code == 200, r.text
    assert r.json() == {"name": "Bob", "following": True}
    assert ann.post("/api/users/Bob/follow").status_code == 200  # again: nothing changes
    seen = relation(ann, "Bob")
    assert (seen["followers"], seen["following"], seen["you_follow"]) == (1, 0, True)
    assert relation(bob, "Ann")["following"] == 1 and relation(bob, "Ann")["you_follow"] is False
    assert [f["name"] for f in following(ann)] == ["Bob"]
    assert following(bob) == []
    r = ann.delete("/api/users/Bob/follow")
    assert r.status_code == 200 and r.json()["following"] is False
    assert ann.delete("/api/users/Bob/follow").status_code == 200
    assert relation(ann, "Bob")["followers"] == 0 and following(ann) == []


def test_bad_follows_are_refused_and_change_nothing(
    client: TestClient, people: dict[str, Person], db_path: str
) -> None:
    ann = people["ann"]
    anonymous = Browser(client)
    assert code(anonymous.post("/api/users/Bob/follow")) == (401, "not_signed_in")
    assert code(anonymous.get("/api/account/following")) == (401, "not_signed_in")
    no_csrf = Person(client)
    no_csrf.cookies = ann.cookies
    assert code(no_csrf.post("/api/users/Bob/follow")) == (403, "csrf_failed")
    assert code(no_csrf.delete("/api/users/Bob/follow")) == (403, "csrf_failed")
    assert code(ann.post("/api/users/Ann/follow")) == (422, "follow_yourself")
    assert code(ann.post("/api/users/nobody/follow")) == (404, "no_user")
    assert code(ann.delete("/api/users/nobody/follow")) == (404, "no_user")
    assert code(ann.get("/api/users/nobody/relation")) == (404, "no_user")
    assert ann.post("/api/users/" + "x" * 21 + "/follow").status_code == 422
    assert ann.get("/api/account/following", headers={"X-CSRF-Token": "wrong"}).status_code == 200
    assert code(ann.get("/api/online", params={"limit": 101})) == (422, "invalid_request")
    assert code(ann.get("/api/online", params={"offset": -1})) == (422, "invalid_request")
    assert stored(db_path, "follows") == []


def test_nobody_follows_or_unfollows_for_someone_else(people: dict[str, Person]) -> None:
    ann, bob, cid = people["ann"], people["bob"], people["cid"]
    assert ann.post("/api/users/Cid/follow").status_code == 200
    # Bob's session acts for Bob alone, whatever the request names.
    assert bob.post("/api/users/Cid/follow", json={"follower": "Ann"}).status_code == 200
    assert bob.delete("/api/users/Cid/follow", params={"follower": "Ann"}).status_code == 200
    assert [f["name"] for f in following(ann)] == ["Cid"]
    assert following(bob) == []
    assert relation(cid, "Cid")["followers"] == 1


def test_bots_may_be_followed_but_their_sessions_do_not_follow(
    client: TestClient, people: dict[str, Person]
) -> None:
    robot = Person(client)
    r = robot.post("/api/account/signup", json={"name": "Robo", "password": PASSWORD, "bot": True})
    assert r.status_code == 201, r.text
    robot.headers["X-CSRF-Token"] = r.json()["csrf_token"]
    assert people["ann"].post("/api/users/Robo/follow").status_code == 200
    assert following(people["ann"])[0]["bot"] is True
    assert code(robot.post("/api/users/Ann/follow")) == (403, "bot_account")


def test_following_stops_at_the_limit(
    client: TestClient, people: dict[str, Person], monkeypatch: pytest.MonkeyPatch, db_path: str
) -> None:
    monkeypatch.setattr(follows, "MAX_FOLLOWING", 2)
    ann = people["ann"]
    Person(client).sign("Dee", new=True)
    assert ann.post("/api/users/Bob/follow").status_code == 200
    assert ann.post("/api/users/Cid/follow").status_code == 200
    r = ann.post("/api/users/Dee/follow")
    assert code(r) == (409, "following_limit")
    assert "2" in r.json()["error"]["message"]
    assert ann.post("/api/users/Cid/follow").status_code == 200  # one followed already
    assert len(stored(db_path, "follows")) == 2
    assert ann.delete("/api/users/Bob/follow").status_code == 200
    assert ann.post("/api/users/Dee/follow").status_code == 200


def test_a_followed_player_is_online_while_a_socket_is_open(
    people: dict[str, Person], now: list[float]
) -> None:
    ann, bob, cid = people["ann"], people["bob"], people["cid"]
    assert ann.post("/api/users/Bob/follow").status_code == 200
    gid = create(bob)["id"]
    assert cid.post(f"/api/games/{gid}/join", json={}).status_code == 200
    listed = following(ann)[0]
    assert listed["online"] is True  # a request a moment ago
    assert listed["playing"] == {"id": gid, "game": "uttt"}
    now[0] += 61  # a minute without a request: offline, and their game is not shown
    assert following(ann)[0]["online"] is False
    assert following(ann)[0]["playing"] is None
    assert relation(ann, "Bob")["online"] is False
    with bob.websocket(f"/api/games/{gid}/ws", SITE) as ws:
        assert ws.receive_json()["type"] == "hello"
        now[0] += 600  # the socket holds them online however long it stays open
        assert following(ann)[0]["online"] is True
        assert following(ann)[0]["playing"] == {"id": gid, "game": "uttt"}
        assert relation(ann, "Bob")["online"] is True
    now[0] += 61  # closed a minute ago

    def offline() -> bool:
        now[0] += 61
        return following(ann)[0]["online"] is False

    wait_for(offline)


def test_the_online_list_counts_players_and_games_and_puts_friends_first(
    client: TestClient, people: dict[str, Person]
) -> None:
    ann, bob, cid = people["ann"], people["bob"], people["cid"]
    gid = create(bob)["id"]
    assert cid.post(f"/api/games/{gid}/join", json={}).status_code == 200
    assert ann.post("/api/users/Cid/follow").status_code == 200
    seen = ann.get("/api/online").json()
    assert seen["players"] == 3 and seen["games"] >= 1
    assert [p["name"] for p in seen["online"]] == ["Cid", "Ann", "Bob"]
    assert [p["you_follow"] for p in seen["online"]] == [True, False, False]
    paged = ann.get("/api/online", params={"limit": 1, "offset": 1}).json()
    assert [p["name"] for p in paged["online"]] == ["Ann"] and paged["players"] == 3
    anyone = Browser(client).get("/api/online").json()
    assert [p["name"] for p in anyone["online"]] == ["Ann", "Bob", "Cid"]
    Person(client).sign("Dee", new=True)  # signing up (or in) is a request of theirs
    assert relation(ann, "Dee")["online"] is True
    assert ann.get("/api/online").json()["players"] == 4


def test_a_private_game_is_not_shown_to_watch(people: dict[str, Person]) -> None:
    ann, bob = people["ann"], people["bob"]
    assert ann.post("/api/users/Bob/follow").status_code == 200
    create(bob, private=True)
    listed = following(ann)[0]
    assert listed["online"] is True and listed["playing"] is None


def test_follows_go_with_the_accounts(people: dict[str, Person], db_path: str) -> None:
    assert people["ann"].post("/api/users/Bob/follow").status_code == 200
    engine = sa.create_engine(f"sqlite:///{db_path}")
    try:
        with engine.begin() as c:
            c.exec_driver_sql("PRAGMA foreign_keys=ON")
            c.execute(sa.text("DELETE FROM users WHERE name = 'Bob'"))
    finally:
        engine.dispose()
    assert stored(db_path, "follows") == []


ops = st.lists(
    st.tuples(st.booleans(), st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=25
)
"""Follows (true) and unfollows (false), each from one of four accounts to one of them."""


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops)
def test_follows_stay_what_was_asked_and_counts_add_up(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, steps: list[tuple[bool, int, int]]
) -> None:
    """On SQLite and PostgreSQL: whatever the order of follows and unfollows, the rows are
    the model's set, nobody follows themselves or past the limit, and each account's
    followers and following are the model's counts."""
    monkeypatch.setattr(follows, "MAX_FOLLOWING", 2)
    with engine.begin() as c:
        c.execute(sa.delete(follows.follows))
        ids = [found.id if (found := find_user(c, f"p{i}")) else 0 for i in range(4)]
    if not all(ids):
        ids = [sign_up(engine, f"p{i}").id for i in range(4)]
    model: set[tuple[int, int]] = set()
    for follow, a, b in steps:
        with engine.begin() as c:
            if follow:
                refused = follows.follow(c, ids[a], ids[b], now=1.0)
                allowed = a != b and ((a, b) in model or sum(1 for x, _ in model if x == a) < 2)
                assert (refused is None) == allowed
                if allowed:
                    model.add((a, b))
            else:
                follows.unfollow(c, ids[a], ids[b])
                model.discard((a, b))
    with engine.connect() as c:
        for i, user in enumerate(ids):
            assert follows.followed_ids(c, user) == {ids[b] for a, b in model if a == i}
            assert follows.count_followers(c, user) == sum(1 for _, b in model if b == i)
            assert follows.count_following(c, user) == sum(1 for a, _ in model if a == i)
