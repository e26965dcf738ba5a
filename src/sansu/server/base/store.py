"""Durable storage: the database engine, migrations, and one writer that commits in batches.

Every change the server accepts is a *write job* (rows to write, or a
function of a connection). The jobs that queue up while a commit is under
way run together in a single transaction and one commit (one fsync), then
each waiting request wakes: it tells nobody about its change before that
commit returned. A failing batch is retried job by job, so one bad job
cannot sink the others.

On SQLite the statements run on the event loop, and so does the commit while
the disk is quick (:data:`QUICK_COMMIT`); on a slow disk the commit waits in a
thread of its own, so the loop goes on serving meanwhile.

SQLite runs in WAL mode with ``synchronous=FULL``, so a commit that returned
survives a crash of the process or of the machine. PostgreSQL is used as
is (its default ``fsync=on`` and ``synchronous_commit=on`` give the same).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, make_url

from sansu.server.base.rows import Rows, WriteJob, write_rows

log = logging.getLogger("sansu.server")

T = TypeVar("T")


MIGRATIONS = Path(__file__).resolve().parents[1] / "migrations"
MAX_BATCH = 256
CHECKPOINT_EVERY = 1.0
"""Seconds between SQLite WAL checkpoints while writes go on."""
QUICK_COMMIT = 0.002
"""Seconds a durable SQLite commit may take, on average, and still run on the event loop.
A commit on the loop spares a hand-over to a thread and the loop's wake-up after it
(about a tenth of a move's CPU at light load), but stalls every socket for its fsync: on a
disk that takes longer than this, the commits go to their thread instead."""


def normalise_url(url: str) -> str:
    """A SQLAlchemy URL from what a person types: a plain path means a SQLite file,
    and ``postgresql://`` uses the psycopg 3 driver."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite files get WAL, ``synchronous=FULL`` and foreign keys."""
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if not database or database == ":memory:":
            raise ValueError("the server needs a SQLite file, not an in-memory database")
        Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False, "timeout": 30},
            pool_size=8,
            max_overflow=8,
        )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    return create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)


def migrate(engine: Engine, revision: str = "head") -> None:
    """Brings the schema up to date (Alembic ``upgrade head``), or up to ``revision``."""
    _alembic(engine, "upgrade", revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Takes the schema back to ``revision`` (Alembic ``downgrade``)."""
    _alembic(engine, "downgrade", revision)


def _alembic(engine: Engine, action: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Alembic changes a SQLite table by copying it and dropping the old one; with
            # foreign keys on, that drop would fire the ON DELETE action of every row
            # pointing at the table (an account's follows deleted, reporters forgotten).
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                config.attributes["connection"] = connection
                getattr(command, action)(config, revision)
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration left dangling rows: {broken[:5]}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


class StoreError(Exception):
    """The store could not commit a change (the change did not happen)."""


class _Job:
    __slots__ = ("error", "fn", "future", "loop", "result")

    def __init__(self, fn: WriteJob, loop: asyncio.AbstractEventLoop | None) -> None:
        self.fn = fn
        self.loop = loop
        self.future: asyncio.Future[Any] | None = loop.create_future() if loop else None
        self.result: Any = None
        self.error: BaseException | None = None


class Store:
    """The database of one server: batched durable writes and reads off the event loop."""

    def __init__(self, url: str, *, inline: bool | None = None) -> None:
        self.url = normalise_url(url)
        self.engine = make_engine(self.url)
        self.dialect = self.engine.dialect.name
        self.inline = self.dialect == "sqlite" if inline is None else inline
        """SQLite: statements run on the event loop (microseconds each, no GIL handovers),
        and the commit too unless the disk is slow (:data:`QUICK_COMMIT`). Other databases
        answer over the network, so their whole batch runs in the writer thread."""
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._pending: list[_Job] = []
        self._flusher: asyncio.Task[None] | None = None
        self._connection: Connection | None = None
        self._writer_connection: Connection | None = None
        """The writer thread's own connection, kept between batches (a checkout from the
        pool pings the server first: a round trip per commit)."""
        self._committer: ThreadPoolExecutor | None = None
        """Commits wait only for each other, never behind other threads' work."""
        self.commit_average = 0.0
        """The recent SQLite commits' mean seconds (a moving average): while it stays
        under :data:`QUICK_COMMIT`, commits run on the event loop."""
        self._checkpointing: asyncio.Task[None] | None = None
        self._checkpointed = 0.0
        self._open = False
        self.batches = 0
        self.jobs = 0
        self.sql_seconds = 0.0
        self.commit_seconds = 0.0
        self.on_commit: Callable[[float], None] | None = None
        """Told the seconds of each batch committed, from its first statement to its
        durable commit (the server's metrics)."""

    def open(self) -> None:
        """Migrates the schema and starts the writer."""
        migrate(self.engine)
        self._open = True
        if self._committer is None:
            self._committer = ThreadPoolExecutor(1, thread_name_prefix="sansu-commit")
        if not self.inline and self._thread is None:
            self._thread = threading.Thread(target=self._writer, name="sansu-writer", daemon=True)
            self._thread.start()

    async def drain(self) -> None:
        """Waits for the writes and the checkpoint in flight (before closing)."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)
        if self._checkpointing is not None:
            await asyncio.shield(self._checkpointing)

    def close(self) -> None:
        self._open = False
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)
            self._thread = None
        if self._writer_connection is not None:
            self._writer_connection.close()
            self._writer_connection = None
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._committer is not None:
            self._committer.shutdown(wait=True)
            self._committer = None
        self.engine.dispose()

    async def write(self, fn: WriteJob) -> Any:
        """Runs ``fn`` in a committed transaction; returns once the commit is durable.

        Raises :class:`StoreError` when it could not be committed.
        """
        if not self._open:
            raise StoreError("the store is closed")
        job = _Job(fn, asyncio.get_running_loop())
        assert job.future is not None
        if self.inline:
            self._pending.append(job)
            if self._flusher is None:
                self._flusher = asyncio.get_running_loop().create_task(self._flush())
        else:
            self._queue.put(job)
        return await job.future

    # -- SQLite: statements and quick commits on the loop, slow commits in a thread --------

    async def _flush(self) -> None:
        try:
            while self._pending:
                batch = self._pending[:MAX_BATCH]
                del self._pending[:MAX_BATCH]
                if not await self._commit_inline(batch) and len(batch) > 1:
                    for job in batch:
                        await self._commit_inline([job])
                for job in batch:
                    self._settle(job)
                now = time.monotonic()
                if self._checkpointing is None and now - self._checkpointed > CHECKPOINT_EVERY:
                    self._checkpointed = now
                    self._checkpointing = asyncio.get_running_loop().create_task(self._checkpoint())
        finally:
            self._flusher = None

    async def _checkpoint(self) -> None:
        """Copies committed pages from the WAL into the database file, beside the writer
        (a passive checkpoint never blocks a commit), so no commit waits for it."""
        try:
            await asyncio.to_thread(self._checkpoint_now)
        except Exception:
            log.exception("a WAL checkpoint failed")
        finally:
            self._checkpointing = None

    def _checkpoint_now(self) -> None:
        with self.engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    async def _commit_inline(self, batch: list[_Job]) -> bool:
        if self._connection is None:
            self._connection = self.engine.connect()
            # checkpoints run beside the commits (see _checkpoint), never inside one
            self._connection.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
            self._connection.commit()
        connection = self._connection
        transaction = connection.begin()
        try:
            started = time.perf_counter()
            self._run_jobs(connection, batch)
            written = time.perf_counter()
            if self.commit_average < QUICK_COMMIT:
                transaction.commit()
            else:
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(self._committer, transaction.commit)
            done = time.perf_counter()
            self.commit_average += (done - written - self.commit_average) / 8
            self.sql_seconds += written - started
            self.commit_seconds += done - written
            if self.on_commit is not None:
                self.on_commit(done - started)
        except Exception:
            try:
                transaction.rollback()
            except Exception:  # a broken connection: start afresh next time
                connection.invalidate()
                self._connection = None
            if len(batch) == 1:
                log.exception("a write failed")
                batch[0].error = StoreError("the change could not be stored")
            return False
        self.batches += 1
        self.jobs += len(batch)
        return True

    @staticmethod
    def _settle(job: _Job) -> None:
        future = job.future
        if future is None or future.done():
            return
        if job.error is not None:
            future.set_exception(job.error)
        else:
            future.set_result(job.result)

    @classmethod
    def _run_jobs(cls, connection: Connection, batch: list[_Job]) -> None:
        rows: list[Rows] = []
        for job in batch:
            job.error = None
            if isinstance(job.fn, Rows):
                rows.append(job.fn)
            else:
                job.result = job.fn(connection)
        if rows:
            write_rows(connection, rows)

    def write_now(self, fn: WriteJob) -> Any:
        """:meth:`write` for code outside the event loop (imports, tools)."""
        with self.engine.begin() as connection:
            return fn(connection)

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """Runs ``fn`` on a connection in a worker thread."""
        return await asyncio.to_thread(self.read_now, fn)

    def read_now(self, fn: Callable[[Connection], T]) -> T:
        """Runs ``fn`` on one snapshot of the database: a page read from several tables
        never shows a change half made (a game's end without what was written with it).
        SQLite's driver would run each SELECT on its own: one read transaction holds them;
        PostgreSQL's READ COMMITTED takes a snapshot per statement: REPEATABLE READ one."""
        with self.engine.connect() as connection:
            if self.dialect == "sqlite":
                connection.exec_driver_sql("BEGIN")
            elif self.dialect == "postgresql":
                connection.execution_options(isolation_level="REPEATABLE READ")
            return fn(connection)

    # -- the writer thread ---------------------------------------------------------

    def _writer(self) -> None:
        stop = False
        while not stop:
            first = self._queue.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    job = self._queue.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stop = True
                    break
                batch.append(job)
            self._run_batch(batch)

    def _run_batch(self, batch: list[_Job], *, again: bool = True) -> None:
        try:
            started = time.perf_counter()
            if self._writer_connection is None:
                self._writer_connection = self.engine.connect()
            connection = self._writer_connection
            transaction = connection.begin()
            try:
                self._run_jobs(connection, batch)
            except Exception:
                with contextlib.suppress(Exception):
                    transaction.rollback()
                if self._forget_if_lost(connection) and again:
                    # the kept connection was lost (a server restart): once more
                    log.warning("the database connection was lost; writing again")
                    self._run_batch(batch, again=False)
                    return
                raise
            try:
                transaction.commit()  # not written again: a lost answer may hide a commit
            except Exception:
                self._forget_if_lost(connection)
                raise
            if self.on_commit is not None:
                self.on_commit(time.perf_counter() - started)
        except Exception:
            if len(batch) == 1:
                log.exception("a write failed")
                batch[0].error = StoreError("the change could not be stored")
            else:
                for job in batch:
                    job.result = None
                    self._run_batch([job])
                return
        self.batches += 1
        self.jobs += len(batch)
        for job in batch:
            self._wake(job)

    def _forget_if_lost(self, connection: Connection) -> bool:
        """Drops the writer's connection if the database lost it (the next batch connects
        afresh); true if it did."""
        if connection.invalidated or connection.closed:
            self._writer_connection = None
            return True
        return False

    @staticmethod
    def _wake(job: _Job) -> None:
        if job.loop is None or job.future is None:
            return

        with contextlib.suppress(RuntimeError):
            job.loop.call_soon_threadsafe(Store._settle, job)
