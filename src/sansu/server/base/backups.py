"""Backups of a server's database while it runs, and their restoring (``sansu admin``).

A backup is one consistent snapshot, whatever the server writes meanwhile:

* SQLite: the online backup API (``sqlite3.Connection.backup``) copies every page
  in one read transaction, into a file written beside the target and renamed
  over it when complete;
* PostgreSQL: ``pg_dump -Fc`` (Debian's ``postgresql-client``), which dumps one
  snapshot; the counts printed are read in that same snapshot
  (``pg_export_snapshot``).

A restore refuses a database that holds tables unless forced (it then replaces
them all), and a backup whose schema revision (Alembic's) this code does not
know: one made by a newer sansu. An older one is restored as it is, and the
server upgrades it when it starts.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from alembic.script import ScriptDirectory
from sqlalchemy import Connection, MetaData, create_engine, inspect, make_url, text
from sqlalchemy.engine import URL

from sansu.server.base.store import MIGRATIONS, normalise_url

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"
COUNTED = {"games": "games", "moves": "moves", "accounts": "users"}
"""What a backup's summary counts, and the table of each."""


class BackupError(Exception):
    """A backup or restore that could not be made; nothing was changed."""


@dataclass(frozen=True)
class Summary:
    """What a backup holds: its schema revision and its counts (games, moves, accounts)."""

    revision: str | None
    counts: dict[str, int]

    def __str__(self) -> str:
        counts = ", ".join(f"{n} {what}" for what, n in self.counts.items())
        return f"{counts} (schema {self.revision or 'none'})"


def _url(db: str) -> URL:
    return make_url(normalise_url(db))


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError("a SQLite database is a file")
    return Path(url.database)


def code_revision() -> str:
    """The schema revision this code migrates to (Alembic's head)."""
    return _script().get_current_head() or ""


def _script() -> ScriptDirectory:
    return ScriptDirectory(str(MIGRATIONS))


def check_revision(revision: str | None) -> None:
    """Refuses a backup from a schema this code does not know (a newer sansu's)."""
    if revision is None:
        raise BackupError("the backup holds no schema revision: not a sansu database")
    known = {script.revision for script in _script().walk_revisions()}
    if revision not in known:
        raise BackupError(
            f"the backup's schema revision {revision} is unknown to this sansu"
            f" (newest known: {code_revision()}); restore it with the sansu that made it"
        )


def _sqlite_summary(connection: sqlite3.Connection) -> Summary:
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    revision = None
    if "alembic_version" in tables:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = row[0] if row else None
    counts = {
        what: connection.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        if table in tables
        else 0
        for what, table in COUNTED.items()
    }
    return Summary(revision, counts)


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """The whole of ``source`` into ``target``, written beside it and renamed when done."""
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(handle)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)  # all pages in one step: one consistent snapshot
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            copy.close()
        os.replace(partial, target)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise


def _open_sqlite(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    connection.execute("PRAGMA busy_timeout=30000")
    return connection


def backup(db: str, file: str | Path) -> Summary:
    """Writes a consistent backup of the database ``db`` to ``file``; its summary."""
    url, file = _url(db), Path(file)
    if url.get_backend_name() == "sqlite":
        path = _sqlite_path(url)
        if not path.is_file():
            raise BackupError(f"no database at {path}")
        source = _open_sqlite(path)
        try:
            _copy(source, file)
        except sqlite3.Error as error:
            raise BackupError(f"cannot back up {path}: {error}") from None
        finally:
            source.close()
        copy = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
        try:
            return _sqlite_summary(copy)
        finally:
            copy.close()
    if url.get_backend_name() == "postgresql":
        return _pg_backup(url, file)
    raise BackupError(f"cannot back up a {url.get_backend_name()} database")


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _pg_env(url: URL) -> dict[str, str]:
    """libpq's variables for ``url``: no password ever on a command line."""
    env = dict(os.environ)
    for key, value in (
        ("PGHOST", url.host),
        ("PGPORT", url.port),
        ("PGUSER", url.username),
        ("PGPASSWORD", url.password),
        ("PGDATABASE", url.database),
    ):
        if value is not None:
            env[key] = str(value)
    return env


def _run(command: list[str], url: URL) -> None:
    done = subprocess.run(command, env=_pg_env(url), capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()[-2000:]}")


def _pg_counts(connection: Connection) -> Summary:
    tables = set(inspect(connection).get_table_names())
    revision = None
    if "alembic_version" in tables:
        revision = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    counts = {
        what: int(connection.execute(text(f'SELECT count(*) FROM "{table}"')).scalar() or 0)
        if table in tables
        else 0
        for what, table in COUNTED.items()
    }
    return Summary(revision, counts)


def _pg_backup(url: URL, file: Path) -> Summary:
    pg_dump = _tool("pg_dump")
    engine = create_engine(url)
    partial = file.with_name(f".{file.name}.partial")
    try:
        with engine.connect() as connection:
            connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                snapshot = connection.execute(text("SELECT pg_export_snapshot()")).scalar()
                summary = _pg_counts(connection)  # the dump's own snapshot
                _run([pg_dump, "-Fc", f"--snapshot={snapshot}", "-f", str(partial)], url)
        os.replace(partial, file)
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    except Exception as error:
        partial.unlink(missing_ok=True)
        raise BackupError(f"cannot back up: {error}") from None
    finally:
        engine.dispose()
    return summary


def _kind(file: Path) -> str:
    try:
        with file.open("rb") as f:
            head = f.read(16)
    except OSError as error:
        raise BackupError(f"cannot read {file}: {error.strerror}") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(PG_MAGIC):
        return "postgresql"
    raise BackupError(f"{file} is not a sansu backup (neither SQLite nor pg_dump -Fc)")


def _pg_dump_revision(file: Path) -> str | None:
    """The ``alembic_version`` row of a ``pg_dump -Fc`` file."""
    done = subprocess.run(
        [_tool("pg_restore"), "--data-only", "--table=alembic_version", "-f", "-", str(file)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise BackupError(f"cannot read {file}: {done.stderr.strip()[-2000:]}")
    match = re.search(r"^COPY \S*alembic_version .*?\n(\S+)\n\\\.", done.stdout, re.M)
    return match.group(1) if match else None


def restore(file: str | Path, db: str, *, force: bool = False) -> Summary:
    """Restores the backup ``file`` into the database ``db`` (refused when ``db`` holds
    tables, unless ``force``: they are then replaced); the summary of what it holds."""
    url, file = _url(db), Path(file)
    kind, backend = _kind(file), url.get_backend_name()
    if kind != backend:
        raise BackupError(f"{file} is a {kind} backup; the database is {backend}")
    if kind == "sqlite":
        return _sqlite_restore(file, _sqlite_path(url), force)
    return _pg_restore(file, url, force)


def _sqlite_restore(file: Path, path: Path, force: bool) -> Summary:
    source = _open_sqlite(file)
    try:
        summary = _sqlite_summary(source)
        check_revision(summary.revision)
        if path.exists():
            target = sqlite3.connect(path)
            try:
                tables = target.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                if tables and not force:
                    raise BackupError(f"{path} is not empty: give --force to replace it")
                source.backup(target)
            finally:
                target.close()
        else:
            _copy(source, path)
    except sqlite3.Error as error:
        raise BackupError(f"cannot restore {file}: {error}") from None
    finally:
        source.close()
    return summary


def _pg_restore(file: Path, url: URL, force: bool) -> Summary:
    check_revision(_pg_dump_revision(file))
    pg_restore = _tool("pg_restore")
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            present = MetaData()
            present.reflect(connection)
            if present.tables and not force:
                raise BackupError(f"{url.database} is not empty: give --force to replace it")
            present.drop_all(connection)
        _run([pg_restore, "--no-owner", "--exit-on-error", "--single-transaction",
              "-d", url.database or "", str(file)], url)  # fmt: skip
        with engine.connect() as connection:
            return _pg_counts(connection)
    except BackupError:
        raise
    except Exception as error:
        raise BackupError(f"cannot restore: {error}") from None
    finally:
        engine.dispose()
