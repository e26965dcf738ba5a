"""Property: no sequence of HTTP requests by user A changes user B's rating, rating
history or B's rated game in play, whatever A tries; A's own rated game still counts."""

from __future__ import annotations

import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sansu.server.accounts.identity import CSRF_HEADER
from sansu.server.ratings import table as ratings
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.test_rated_games import opened_game, rated_game
from tests.server.test_seat_accounts import Browser

ACTIONS = ("resign", "abort", "claim", "takeback", "rematch", "join")
moves = st.sampled_from(["r5c5", "r1c1", "r9c9", "r4c4", "resign", "bad"])
operations = st.one_of(
    st.tuples(st.sampled_from(ACTIONS), st.booleans()),
    st.tuples(st.just("move"), moves, st.integers(0, 4), st.booleans()),
    st.tuples(st.just("own_game"), st.booleans()),
    st.tuples(
        st.just("look"),
    ),
)


def b_data(client: TestClient, bob: int, game_id: str) -> dict:
    engine = client.app.state.service.store.engine
    with engine.connect() as c:
        rows = {
            "ratings": c.execute(
                sa.select(ratings.ratings).where(ratings.ratings.c.user_id == bob)
            ).all(),
            "history": c.execute(
                sa.select(ratings.rating_history).where(ratings.rating_history.c.user_id == bob)
            ).all(),
        }
    game = client.get(f"/api/games/{game_id}").json()
    rows["game"] = (game["status"], game["state"], game["seats"])
    return {k: sorted(map(repr, v)) if k != "game" else v for k, v in rows.items()}


def test_user_a_cannot_change_user_bs_rating(client: TestClient, fast_hashing: None) -> None:
    alice, bob, carol, dave = (
        Browser(client).sign(name, new=True) for name in ("Alice", "Bob", "Carol", "Dave")
    )
    finished = opened_game(bob, carol)
    assert bob.post(f"/api/games/{finished}/resign", json={}).status_code == 200
    playing = rated_game(bob, carol)
    assert client.get("/api/users/bob").json()["ratings"]  # Bob has a rating to keep
    engine = client.app.state.service.store.engine
    with engine.connect() as c:
        (bob_user,) = c.execute(sa.text("SELECT id FROM users WHERE name = 'Bob'")).one()
    before = b_data(client, bob_user, playing)

    @settings(
        max_examples=15,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(st.lists(operations, max_size=6))
    def run(ops: list[tuple]) -> None:
        for op in ops:
            headers = {} if len(op) > 1 and op[-1] is False else None
            kw = {} if headers is None else {"headers": {CSRF_HEADER: ""}}
            if op[0] in ACTIONS:
                alice.post(f"/api/games/{playing}/{op[0]}", json={}, **kw)
            elif op[0] == "move":
                alice.post(
                    f"/api/games/{playing}/moves", json={"move": op[1], "state": op[2]}, **kw
                )
            elif op[0] == "own_game":
                mine = rated_game(alice, dave)
                alice.post(f"/api/games/{mine}/resign", json={}, **kw)
            else:
                alice.get("/api/users/bob")
        assert b_data(client, bob_user, playing) == before
        # The last word is an operation of A's that must take effect: A's own rated game.
        mine = opened_game(alice, dave)
        answer = alice.post(f"/api/games/{mine}/resign", json={})
        assert answer.status_code == 200 and answer.json()["ratings"] is not None
        assert b_data(client, bob_user, playing) == before

    run()
