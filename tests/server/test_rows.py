"""A batch's rows written on the driver's cursor are stored exactly as SQLAlchemy's own
``execute`` stores them: the same values, the same JSON text, the same booleans; on
SQLite, and on PostgreSQL, where the statements go out in one pipeline."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Connection, Engine, bindparam, insert
from sqlalchemy.dialects import sqlite
from sqlalchemy.dialects.postgresql import psycopg, psycopg2

from sansu.server.base import Rows, write_rows
from sansu.server.base import events as events_table
from sansu.server.base import games as games_table
from sansu.server.base import moves as moves_table
from sansu.server.base.rows import prepare
from sansu.server.base.store import make_engine, migrate

chars = st.characters(codec="utf-8", exclude_characters="\x00")  # PostgreSQL: no NUL
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(chars, max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(chars, max_size=4), inner),
    max_leaves=8,
)
texts = st.text(chars, min_size=1, max_size=12)
floats = st.floats(allow_nan=False, allow_infinity=False, width=32)
game_changes = st.fixed_dictionaries(
    {},
    optional={
        "status": st.sampled_from(["active", "finished", "aborted"]),
        "version": st.integers(0, 10**6),
        "to_move": st.none() | st.integers(0, 4),
        "result": st.none() | json_values,
        "clock": st.none() | json_values,
        "deadline": st.none() | floats,
        "computer_to_move": st.booleans(),
        "termination": st.none() | st.text(chars, max_size=16),
        "meta": st.dictionaries(st.text(chars, max_size=4), json_values, max_size=3),
    },
)
moves_made = st.lists(
    st.tuples(texts, st.none() | st.integers(0, 4), floats, json_values, st.booleans()),
    min_size=1,
    max_size=6,
)


@pytest.fixture(params=["sqlite", "postgresql"])
def engines(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Any]]:
    """Two migrated databases of one kind; calling the fixture's value empties them and
    gives both engines (one example of the property each time)."""
    if request.param == "sqlite":
        urls = [str(tmp_path / f"{name}.db") for name in ("cursor", "execute")]
    else:
        urls = [request.getfixturevalue("postgres_url")]
        urls.append(request.getfixturevalue("second_postgres_url"))
    made = [make_engine(url) for url in urls]
    for engine in made:
        migrate(engine)

    def fresh() -> tuple[Engine, Engine]:
        for engine in made:
            with engine.begin() as c:
                for table in ("events", "moves", "seats", "games"):
                    c.exec_driver_sql(f"DELETE FROM {table}")
        return made[0], made[1]

    yield fresh
    for engine in made:
        engine.dispose()


def by_execute(connection: Connection, jobs: list[Rows]) -> None:
    """The model: every row through ``connection.execute``, one statement per row."""
    for job in jobs:
        for table, row in job.inserts:
            connection.execute(insert(table), [row])
        for table, key, values in job.updates:
            statement = (
                table.update()
                .where(table.c.id == bindparam("k_id"))
                .values({n: bindparam(f"v_{n}", type_=table.c[n].type) for n in values})
            )
            connection.execute(
                statement, [{"k_id": key, **{f"v_{n}": v for n, v in values.items()}}]
            )


def stored(engine: Engine) -> dict[str, list[tuple[Any, ...]]]:
    """Each table's rows as the database holds them (JSON as its text, booleans as stored)."""
    with engine.connect() as c:
        return {
            name: [tuple(r) for r in c.exec_driver_sql(f"SELECT * FROM {name} ORDER BY 1, 2")]
            for name in ("games", "moves", "events")
        }


def new_game(game_id: str) -> dict[str, Any]:
    return {
        "id": game_id, "game": "uttt", "options": {}, "public_options": {}, "status": "active",
        "created_at": 1.0, "updated_at": 1.0,
    }  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(changes=st.lists(game_changes, min_size=1, max_size=4), made=moves_made)
def test_the_cursor_stores_what_execute_stores(
    engines: Callable[[], Any], changes: list[dict[str, Any]], made: list[Any]
) -> None:
    cursor_db, model_db = engines()
    games = [f"g{i}" for i in range(len(changes))]
    setup = Rows()
    for game_id in games:
        setup.insert(games_table, new_game(game_id))  # Python-side defaults: SQLAlchemy's way
    jobs = []
    for game_id, change in zip(games, changes, strict=True):
        job = Rows()
        for ply, (text, seat, at, data, _) in enumerate(made, start=1):
            job.insert(
                moves_table,
                {
                    "game_id": game_id,
                    "ply": ply,
                    "text": text,
                    "seat": seat,
                    "at": at,
                    "state": ply,
                },
            )
            event = {"game_id": game_id, "seq": ply, "type": "move", "state": ply}
            job.insert(events_table, {**event, "data": {"d": data}, "at": at})
        if change:
            job.update(games_table, game_id, change)
        jobs.append(job)
    with cursor_db.begin() as c:
        write_rows(c, [setup])
        write_rows(c, jobs)
    with model_db.begin() as c:
        by_execute(c, [setup, *jobs])
    assert stored(cursor_db) == stored(model_db)


def test_the_cursor_is_used_only_where_it_can_be() -> None:
    """Positional SQLite statements and psycopg's named ones take the cursor; Python-side
    defaults and other drivers' parameter styles stay with ``execute``."""
    move_keys = ("game_id", "ply", "text", "seat", "at", "state")
    for dialect in (sqlite.dialect(), psycopg.dialect()):
        assert prepare(insert(moves_table), dialect, move_keys) is not None
        assert prepare(insert(games_table), dialect, tuple(new_game("g"))) is None
    assert prepare(insert(moves_table), psycopg2.dialect(), move_keys) is None
