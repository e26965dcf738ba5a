"""Challenges as a state machine: whatever the two accounts do, in any order, a
challenge is answered once; accepting makes exactly one game, both seats bound."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.accounts_fixtures import fast_hashing_fixture as fast_hashing_fixture
from tests.server.conftest import make_client


class People:
    """Two people signed in on one server, each with their session cookie and CSRF token;
    ``as_(name)`` makes the client theirs."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.sessions: dict[str, tuple[str, str]] = {}
        for name in ("ann", "bob"):
            client.cookies.clear()
            r = client.post("/api/account/signup", json={"name": name, "password": "password123"})
            self.sessions[name] = (r.cookies["sansu_session"], r.json()["csrf_token"])

    def as_(self, name: str) -> TestClient:
        cookie, csrf = self.sessions[name]
        self.client.cookies.clear()
        self.client.cookies.set("sansu_session", cookie)
        self.client.headers["X-CSRF-Token"] = csrf
        return self.client


@pytest.fixture(name="people")
def people_fixture(db_path: str, fast_hashing: None) -> Iterator[People]:
    with make_client(db_path) as client:
        client.app.state.challenges.set_limit(None)
        yield People(client)


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["ann", "bob"]), st.sampled_from(["accept", "decline", "cancel"])),
    max_size=6,
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(actions=ACTIONS)
def test_a_challenge_is_answered_once(people: People, actions: list) -> None:
    made = people.as_("ann").post("/api/challenge/bob", json={"game": "uttt", "challenger_seat": 1})
    assert made.status_code == 201, made.text
    cid = made.json()["id"]
    allowed = {"ann": {"cancel"}, "bob": {"accept", "decline"}}
    final = "open"
    for who, action in actions:
        r = people.as_(who).post(f"/api/challenge/{cid}/{action}")
        if action not in allowed[who]:
            assert r.status_code == 403
        elif final != "open":
            assert r.status_code == 409 and r.json()["error"]["code"] == "challenge_closed"
        else:
            assert r.status_code == 200, r.text
            final = {"accept": "accepted", "decline": "declined", "cancel": "canceled"}[action]
    ann = people.as_("ann")
    seen = ann.get(f"/api/challenges/{cid}").json()
    assert seen["status"] == final
    if final == "accepted":
        game = ann.get(f"/api/games/{seen['game_id']}").json()
        assert [s["name"] for s in game["seats"]] == ["bob", "ann"]
        assert all(s["account"] and not s["bot"] for s in game["seats"])
        assert game["you"] == [1]  # ann acts for her seat by her session alone
    else:
        assert seen["game_id"] is None
    open_ones = [c["id"] for c in people.as_("bob").get("/api/challenges").json()["challenges"]]
    assert open_ones == ([cid] if final == "open" else [])
    if final == "open":
        assert people.as_("ann").post(f"/api/challenge/{cid}/cancel").status_code == 200
