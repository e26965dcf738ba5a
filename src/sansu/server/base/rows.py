"""Rows a write job carries, and how a batch of them is written.

A batch's rows become one statement per table and kind (``executemany``).
SQLAlchemy Core builds each statement once per table and column set and
compiles it once per dialect; where the driver takes positional parameters
(SQLite) the rows then go straight to its cursor, each value through its
column type's own bind processor, so the database receives exactly what
``connection.execute`` would have sent it. A move's three statements took
0.14 ms per commit through ``execute``, mostly SQLAlchemy's per-execution
bookkeeping, and take 0.08 ms on the cursor, SQLite's own work included
(``benchmarks/move_path_bench.py``, one move per commit).

On PostgreSQL (psycopg, named parameters) the rows go to the cursor the same
way, and a batch's statements are sent in one pipeline: one round trip to the
server for all of them instead of one each, the fences checked when it returns.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from sqlalchemy import Connection, Table, bindparam, insert
from sqlalchemy.engine import Dialect


class Fenced(Exception):
    """A fenced row changed since the change was made from it: nothing is written."""


class Rows:
    """A write given as rows: inserts, and updates of one row by its ``id``.

    The writer merges the rows of every job in a batch into one statement
    per table (``executemany``), which is much cheaper than a statement per
    row. Jobs of one batch never touch the same game (a game's changes wait
    for each other's commits), so merging cannot reorder what matters.
    """

    __slots__ = ("fences", "inserts", "updates")

    def __init__(self) -> None:
        self.inserts: list[tuple[Table, dict[str, Any]]] = []
        self.updates: list[tuple[Table, Any, dict[str, Any]]] = []
        self.fences: list[tuple[Table, Any, str, Any, Any]] = []

    def fence(self, table: Table, key: Any, column: str, seen: Any, new: Any) -> None:
        """Writes nothing unless ``column`` of the row ``key`` still holds ``seen`` (it is
        then set to ``new``): a change made from a stale copy is refused whole
        (:class:`Fenced`). The fences of a batch are checked in one statement."""
        self.fences.append((table, key, column, seen, new))

    def insert(self, table: Table, row: dict[str, Any]) -> None:
        self.inserts.append((table, row))

    def update(self, table: Table, key: Any, values: dict[str, Any]) -> None:
        self.updates.append((table, key, values))


WriteJob = Callable[[Connection], Any] | Rows


@functools.cache
def _insert_statement(table: Table) -> Any:
    return insert(table)


@functools.cache
def _update_statement(table: Table, names: tuple[str, ...], fence: str | None = None) -> Any:
    """``UPDATE table SET name = :v_name, ... WHERE id = :k_id``, built once per column set;
    with a ``fence`` column, ``AND fence = :k_seen`` too."""
    where = [table.c.id == bindparam("k_id")]
    if fence is not None:
        where.append(table.c[fence] == bindparam("k_seen"))
    return (
        table.update()
        .where(*where)
        .values({name: bindparam(f"v_{name}", type_=table.c[name].type) for name in names})
    )


class Prepared(NamedTuple):
    """A statement compiled for one dialect: its SQL, and for each parameter the row key
    it reads and the processor its value goes through; ``named``: the parameters go to
    the cursor as a mapping by key (psycopg's ``%(key)s``), else as a tuple in order."""

    sql: str
    keys: tuple[str, ...]
    processors: tuple[Callable[[Any], Any] | None, ...]
    named: bool


@functools.cache
def prepare(statement: Any, dialect: Dialect, keys: tuple[str, ...]) -> Prepared | None:
    """``statement`` compiled for ``dialect`` with the row keys ``keys``, or ``None`` where
    the driver's cursor cannot take it as is: values SQLAlchemy would fill in itself
    (Python-side column defaults), or a parameter style other than SQLite's positional
    one and psycopg's named one."""
    compiled = statement.compile(dialect=dialect, column_keys=list(keys))
    if compiled.insert_prefetch or compiled.update_prefetch:
        return None
    if compiled.positional:
        binds = [compiled.binds[name] for name in compiled.positiontup or []]
    elif dialect.paramstyle == "pyformat" and dialect.driver == "psycopg":
        binds = list(compiled.binds.values())
        if compiled.escaped_bind_names or any(b.key != name for name, b in compiled.binds.items()):
            return None
    else:
        return None
    if any(bind.key not in keys for bind in binds):
        return None
    return Prepared(
        compiled.string,
        tuple(bind.key for bind in binds),
        tuple(bind.type.dialect_impl(dialect).bind_processor(dialect) for bind in binds),
        not compiled.positional,
    )


def execute_many(
    connection: Connection, statement: Any, params: Sequence[dict[str, Any]], opened: list[Any]
) -> Any:
    """Runs ``statement`` once per row of ``params`` (all with the same keys); returns what
    ran it, whose ``rowcount`` counts the rows it matched. A cursor it opens goes to
    ``opened``, for the caller to close (in a pipeline, only once its results are in)."""
    prepared = prepare(statement, connection.dialect, tuple(params[0]))
    if prepared is None:
        return connection.execute(statement, list(params))
    sql, keys, processors, named = prepared
    pairs = tuple(zip(keys, processors, strict=True))
    values: list[Any]
    if named:
        values = [
            {key: row[key] if fn is None else fn(row[key]) for key, fn in pairs} for row in params
        ]
    else:
        values = [
            tuple(row[key] if fn is None else fn(row[key]) for key, fn in pairs) for row in params
        ]
    cursor = connection.connection.cursor()
    opened.append(cursor)
    cursor.executemany(sql, values)
    return cursor


Updates = dict[tuple[Table, tuple[str, ...], str | None], list[dict[str, Any]]]
"""Update rows by statement: table, columns set, fenced column (or ``None``)."""


def write_rows(connection: Connection, jobs: list[Rows]) -> None:
    """Writes the rows of ``jobs``: one statement per table and kind. A fence on a row its
    job updates too becomes part of that update (``... WHERE id = :k_id AND column =
    :k_seen``): one statement where there were two, the commonest case (a game's row)."""
    inserts: dict[tuple[Table, tuple[str, ...]], list[dict[str, Any]]] = {}
    updates: Updates = {}
    fences: Updates = {}  # a fence alone: an update of the fenced column only, run first
    for job in jobs:
        for table, row in job.inserts:
            inserts.setdefault((table, tuple(row)), []).append(row)
        fenced = {(table, key): (column, seen, new) for table, key, column, seen, new in job.fences}
        for table, key, values in job.updates:
            column, seen, new = fenced.get((table, key), (None, None, None))
            if column is not None and values.get(column, new) == new:
                del fenced[(table, key)]
                values = {**values, column: new}
            else:
                column = None
            names = tuple(sorted(values))
            params = {f"v_{name}": values[name] for name in names}
            params["k_id"] = key
            if column is not None:
                params["k_seen"] = seen
            updates.setdefault((table, names, column), []).append(params)
        for (table, key), (column, seen, new) in fenced.items():
            fence = {f"v_{column}": new, "k_id": key, "k_seen": seen}
            fences.setdefault((table, (column,), column), []).append(fence)
    opened: list[Any] = []
    checks = []

    def update(group: Updates) -> None:
        for (table, names, column), params in group.items():
            done = execute_many(connection, _update_statement(table, names, column), params, opened)
            if column is not None:
                checks.append((done, params))

    try:
        with _pipeline(connection):
            update(fences)
            for (table, _keys), table_rows in inserts.items():
                execute_many(connection, _insert_statement(table), table_rows, opened)
            update(updates)
        for done, params in checks:  # before the cursors close, which forgets their counts
            if done.rowcount != len(params):
                raise Fenced(", ".join(str(p["k_id"]) for p in params))
    finally:
        for cursor in opened:
            cursor.close()


def _pipeline(connection: Connection) -> contextlib.AbstractContextManager[Any]:
    """psycopg's pipeline: the statements inside go out together, their results come back
    when it ends (one round trip); elsewhere nothing."""
    if connection.dialect.driver == "psycopg":
        return connection.connection.driver_connection.pipeline()  # type: ignore[union-attr]
    return contextlib.nullcontext()
