"""Persistence on SQLite and on a real PostgreSQL: games, seats, tokens, events and clocks
come back after a restart; the schema that the migrations build is the models' schema."""

from __future__ import annotations

import random

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from sansu.server.base.schema import metadata
from sansu.server.base.store import Store, make_engine, migrate
from tests.server.conftest import Api, legal, make_client
from tests.server.test_ratings_migration import HEAD


def test_the_migrations_build_the_models_schema(any_db: str) -> None:
    engine = make_engine(any_db)
    migrate(engine)
    migrate(engine)  # a second start finds nothing to do
    with engine.connect() as c:
        diff = compare_metadata(MigrationContext.configure(c), metadata)
        version = c.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    engine.dispose()
    assert diff == [] and version == HEAD


def test_sqlite_is_in_wal_mode_with_full_sync(db_path: str) -> None:
    engine = make_engine(db_path)
    with engine.connect() as c:
        assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert c.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    engine.dispose()


def test_games_come_back_after_a_restart(any_db: str) -> None:
    with make_client(any_db) as client:
        api = Api(client)
        gid, tokens = api.two_players("sansumoku", time_control={"initial_seconds": 600})
        api.play_random(gid, tokens, random.Random(4), stop_after=7)
        vs = api.create("uttt", seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}])
        done, done_tokens = api.two_players("uttt")
        api.post(done, "resign", done_tokens[0])
        before = api.get(gid, tokens[0])
        before_done = api.get(done)
    with make_client(any_db) as client:
        api = Api(client)
        after = api.get(gid, tokens[0])
        for key in ("state", "seq", "ply", "moves", "view", "seats", "you", "status", "result"):
            assert after[key] == before[key], key
        running = before["clock"]["running"]
        assert after["clock"]["running"] == running
        assert after["clock"]["flag_deadline"] == before["clock"]["flag_deadline"]
        idle = 1 - running
        assert after["clock"]["remaining"][idle] == before["clock"]["remaining"][idle]
        assert api.get(done)["result"] == before_done["result"]
        seat = after["view"]["to_move"]
        r = api.move(gid, tokens[seat], legal(after)[0], after["state"])
        assert r.status_code == 200, r.text
        assert api.get(vs["id"], vs["token"])["you"] == [0]
        with client.websocket_connect(f"/api/games/{gid}/ws?since=0") as ws:
            hello = ws.receive_json()
        moves = [e["move"] for e in hello["missed"] if e["type"] == "move"]
        assert moves == [m["move"] for m in api.get(gid)["moves"]]
        listed = api.client.get("/api/games", params={"status": "active"}).json()
        assert {g["id"] for g in listed["games"]} == {gid, vs["id"]}


def test_a_failed_write_changes_nothing(db_path: str) -> None:
    with make_client(db_path) as client:
        api = Api(client)
        gid, tokens = api.two_players("uttt")
        store: Store = client.app.state.store
        with store.engine.begin() as c:  # the store refuses every new move row
            c.exec_driver_sql(
                "CREATE TRIGGER no_moves BEFORE INSERT ON moves BEGIN"
                " SELECT RAISE(ABORT, 'full disk'); END"
            )
        r = api.move(gid, tokens[0], "r5c5", 0)
        assert r.status_code == 503 and r.json()["error"]["code"] == "store_unavailable"
        game = api.get(gid)
        assert game["state"] == 0 and game["moves"] == [] and game["seq"] == 1
        with store.engine.begin() as c:
            c.exec_driver_sql("DROP TRIGGER no_moves")
        assert api.move(gid, tokens[0], "r5c5", 0).status_code == 200


def test_a_lost_database_connection_costs_no_move(postgres_url: str) -> None:
    """The writer keeps its PostgreSQL connection between commits (no ping before each):
    when the server drops it (a restart, an idle timeout), the next write notices, connects
    again and is stored, and the player never hears of it."""
    with make_client(postgres_url) as client:
        api = Api(client)
        gid, tokens = api.two_players("uttt")
        assert api.move(gid, tokens[0], "r5c5", 0).status_code == 200
        store: Store = client.app.state.store
        with store.engine.connect() as c:  # every other connection to this database
            ended = c.exec_driver_sql(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).scalar()
        assert ended >= 1  # the writer's among them
        r = api.move(gid, tokens[1], legal(api.get(gid))[0], 1)
        assert r.status_code == 200, r.text
        assert len(api.get(gid)["moves"]) == 2


def test_a_read_sees_one_snapshot_while_writes_commit(any_db: str) -> None:
    """A read of several statements (a tournament's page: its entries, then its pairings)
    sees the database as it was at its first: a change committed between two of them does
    not show half. The change here commits from another connection mid-read."""
    store = Store(any_db)
    store.open()
    try:
        table = sa.Table("snapshot_probe", sa.MetaData(), sa.Column("n", sa.Integer))
        table.create(store.engine)

        def count(c: sa.Connection) -> int:
            return c.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()

        def read(c: sa.Connection) -> tuple[int, int]:
            before = count(c)
            with store.engine.begin() as other:
                other.execute(table.insert(), [{"n": 1}])
            return before, count(c)

        assert store.read_now(read) == (0, 0)
        assert store.read_now(count) == 1  # the change itself is stored
    finally:
        store.close()
