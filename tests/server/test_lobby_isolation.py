"""No sequence of requests by one player changes another player's seek or private game."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import bearer
from tests.server.test_seat_accounts import Browser

ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "cancel_seek",
                "look_seek",
                "post_seek",
                "join_game",
                "watching",
                "move",
                "resign",
                "rematch",
                "wait",
                "cancel_wait",
                "accept_own",
            ]
        ),
        st.sampled_from(["none", "own", "forged", "cookie_only"]),
        st.sampled_from([None, "", "wrong-secret", "x" * 64]),
    ),
    min_size=1,
    max_size=8,
)


def snapshot(bob: Browser, seek_id: str, ticket: str, game_id: str) -> dict[str, Any]:
    seek = bob.get(f"/api/lobby/seeks/{seek_id}", headers=bearer(ticket))
    game = bob.get(f"/api/games/{game_id}").json()
    keep = ("seq", "state", "seats", "status", "watchable", "private", "you", "moves")
    return {"seek": (seek.status_code, seek.json()), "game": {k: game[k] for k in keep}}


def test_one_players_requests_never_change_anothers_seek_or_game(
    client: TestClient, fast_hashing: None
) -> None:
    bob = Browser(client).sign("Bob", new=True)
    alice = Browser(client).sign("Alice", new=True)
    posted = bob.post("/api/lobby/seeks", json={"game": "sansumoku"}).json()
    seek_id, ticket = posted["seek"]["id"], posted["ticket"]
    created = bob.post("/api/games", json={"game": "uttt", "private": True}).json()
    game_id = created["id"]
    mine = alice.post("/api/lobby/seeks", json={"game": "uttt"}).json()
    own_game = alice.post("/api/games", json={"game": "uttt"}).json()
    tokens = {"own": own_game["token"], "forged": "forged-token", "none": None}
    tickets = {"own": mine["ticket"], "forged": "forged-ticket", "none": None}

    @settings(
        max_examples=30,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(ACTIONS)
    def check(actions: list[tuple[str, str, str | None]]) -> None:
        before = snapshot(bob, seek_id, ticket, game_id)
        for action, who, secret in actions:
            token = tokens.get(who)
            tick = tickets.get(who)
            headers = bearer(token)
            if who == "cookie_only":  # the session cookie without its CSRF header
                actor = Browser(client)
                actor.cookies = alice.cookies
                headers = {}
            else:
                actor = alice
            if action == "cancel_seek":
                actor.client.cookies = actor.cookies
                r = client.delete(f"/api/lobby/seeks/{seek_id}", headers=bearer(tick))
                client.cookies = type(client.cookies)()
            elif action == "look_seek":
                r = actor.get(f"/api/lobby/seeks/{seek_id}", headers=bearer(tick))
            elif action == "post_seek":
                r = actor.post("/api/lobby/seeks", json={"game": "uttt"})
            elif action == "join_game":
                body = {} if secret is None else {"secret": secret}
                r = actor.post(f"/api/games/{game_id}/join", json=body, headers=headers)
            elif action == "watching":
                r = actor.post(
                    f"/api/games/{game_id}/watching", json={"watchable": False}, headers=headers
                )
            elif action == "move":
                r = actor.post(
                    f"/api/games/{game_id}/moves",
                    json={"move": "r5c5", "state": 0},
                    headers=headers,
                )
            elif action in ("resign", "rematch"):
                r = actor.post(f"/api/games/{game_id}/{action}", headers=headers)
            elif action == "wait":
                r = actor.post("/api/lobby/pairing", json={"game": "uttt"})
            elif action == "cancel_wait":
                actor.client.cookies = actor.cookies
                r = client.delete("/api/lobby/pairing", headers=bearer(ticket))
                client.cookies = type(client.cookies)()
            else:
                r = actor.post(f"/api/lobby/seeks/{mine['seek']['id']}/accept")
            assert r.status_code < 500, r.text
        assert snapshot(bob, seek_id, ticket, game_id) == before

    check()
