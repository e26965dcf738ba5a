"""Migration 0003 on a database of schema 0002: every game, seat, move and event is kept,
the reviews table comes and goes with upgrade and downgrade, on SQLite and PostgreSQL."""

from __future__ import annotations

import random

import sqlalchemy as sa

from sansu.server.base.store import downgrade, make_engine, migrate
from tests.server.conftest import Api, make_client
from tests.server.test_ratings_migration import HEAD, snapshot, state
from tests.server.test_reviews import wait_done

OLD_TABLES = ("games", "seats", "moves", "events", "users", "ratings", "rated_games")


def test_games_survive_the_reviews_migration(any_db: str) -> None:
    with make_client(any_db, review_simulations=8) as client:
        api = Api(client)
        playing, tokens = api.two_players("sansumoku")
        api.play_random(playing, tokens, random.Random(7), stop_after=6)
        finished, finished_tokens = api.two_players("uttt")
        api.play_random(finished, finished_tokens, random.Random(8))
        assert client.post(f"/api/games/{finished}/review").status_code == 202
        review = wait_done(client, finished)
        before = {g: api.get(g) for g in (playing, finished)}
    engine = make_engine(any_db)
    tables, version = state(engine)
    assert version == HEAD and "reviews" in tables
    downgrade(engine, "0002")  # the database as the accounts schema left it
    tables, version = state(engine)
    assert version == "0002" and "reviews" not in tables
    rows = snapshot(engine, OLD_TABLES)
    assert rows["moves"][1] and rows["events"][1] and len(rows["games"][1]) == 2
    migrate(engine)
    tables, version = state(engine)
    assert version == HEAD and "reviews" in tables
    assert snapshot(engine, OLD_TABLES, like=rows) == rows
    with engine.connect() as c:
        assert c.execute(sa.select(sa.func.count()).select_from(sa.table("reviews"))).scalar() == 0
    engine.dispose()
    with make_client(any_db, review_simulations=8) as client:
        api = Api(client)
        for g, seen in before.items():
            now = api.get(g)
            assert now["moves"] == seen["moves"] and now["result"] == seen["result"]
        assert client.get(f"/api/games/{finished}/review").status_code == 404
        assert client.post(f"/api/games/{finished}/review").status_code == 202
        assert wait_done(client, finished) == review  # the same review, computed again
