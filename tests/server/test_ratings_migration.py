"""Migration 0002 on a database of the first schema: every game, seat, move and event is
kept, the new tables come and go with upgrade and downgrade, on SQLite and PostgreSQL."""

from __future__ import annotations

import random

import sqlalchemy as sa
from alembic.config import Config
from alembic.script import ScriptDirectory

from sansu.server.base.store import MIGRATIONS, downgrade, make_engine, migrate
from tests.server.conftest import Api, make_client

NEW_TABLES = {"users", "user_sessions", "ratings", "rated_games", "rating_history"}
OLD_TABLES = ("games", "seats", "moves", "events")


def to_revision(engine: sa.Engine, revision: str) -> None:
    if revision == "0001":
        downgrade(engine, revision)
    else:
        migrate(engine, revision)


def snapshot(
    engine: sa.Engine, names: tuple[str, ...] = OLD_TABLES, like: dict | None = None
) -> dict[str, list[tuple]]:
    """The rows of ``names``, in the columns the database has now (or, with ``like``, the
    columns of that earlier snapshot: later migrations may add columns)."""
    with engine.connect() as c:
        out = {}
        for name in names:
            table = sa.Table(name, sa.MetaData(), autoload_with=c)
            columns = like[name][0] if like else tuple(table.c.keys())
            rows = c.execute(sa.select(*(table.c[k] for k in columns))).all()
            out[name] = (columns, sorted(map(tuple, rows), key=repr))
        return out


def head() -> str:
    """The newest revision: the one every start migrates to."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()


HEAD = head()


def state(engine: sa.Engine) -> tuple[set[str], str]:
    with engine.connect() as c:
        tables = set(sa.inspect(c).get_table_names())
        version = c.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    return tables, version


def test_existing_games_survive_the_upgrade(any_db: str) -> None:
    with make_client(any_db) as client:
        api = Api(client)
        gid, tokens = api.two_players("sansumoku", time_control={"initial_seconds": 600})
        api.play_random(gid, tokens, random.Random(7), stop_after=6)
        finished, finished_tokens = api.two_players("uttt")
        api.play_random(finished, finished_tokens, random.Random(8))
        before = {g: api.get(g) for g in (gid, finished)}
    engine = make_engine(any_db)
    to_revision(engine, "0001")  # the database as the first schema left it
    tables, version = state(engine)
    assert version == "0001" and not tables & NEW_TABLES
    rows = snapshot(engine)
    assert rows["moves"][1] and rows["events"][1] and len(rows["games"][1]) == 2
    migrate(engine)
    tables, version = state(engine)
    assert version == HEAD and tables >= NEW_TABLES
    assert snapshot(engine, like=rows) == rows
    with engine.connect() as c:
        for name in NEW_TABLES:
            assert c.execute(sa.select(sa.func.count()).select_from(sa.table(name))).scalar() == 0
    engine.dispose()
    with make_client(any_db) as client:
        api = Api(client)
        for g, seen in before.items():
            now = api.get(g)
            assert now["moves"] == seen["moves"] and now["result"] == seen["result"]
