"""Where a SQLite commit runs: on the event loop while the disk is quick, in its thread
once commits grow slow, so that a slow disk never stalls the sockets."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from sansu.server.base import store as store_module
from sansu.server.base.rows import Rows
from sansu.server.base.store import Store

PROBE = sa.Table(
    "commit_probe",
    sa.MetaData(),
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("n", sa.Integer),
)


@pytest.fixture
def store(db_path: str) -> Any:
    store = Store(db_path)
    store.open()
    PROBE.create(store.engine)
    asyncio.run(store.write(Rows()))  # the writer's connection is set up (a commit of its own)
    yield store
    store.close()


def row(n: int) -> Rows:
    rows = Rows()
    rows.insert(PROBE, {"n": n})
    return rows


def committing_threads(store: Store) -> list[int]:
    """The threads the store's commits run on, from now on."""
    seen: list[int] = []

    def commit(_connection: Any) -> None:
        seen.append(threading.get_ident())

    event.listen(store.engine, "commit", commit)
    return seen


def write_each(store: Store, count: int) -> int:
    """Writes rows 0 .. count - 1, a commit each; the event loop's thread."""

    async def main() -> int:
        for n in range(count):
            await store.write(row(n))
        return threading.get_ident()

    return asyncio.run(main())


def stored(store: Store) -> list[int]:
    return store.read_now(lambda c: [r.n for r in c.execute(sa.select(PROBE.c.n))])


def test_quick_commits_run_on_the_event_loop(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "QUICK_COMMIT", 1.0)  # however busy the test machine
    store.commit_average = 0.0
    threads = committing_threads(store)

    loop_thread = write_each(store, 5)
    assert threads == [loop_thread] * 5
    assert store.commit_average < store_module.QUICK_COMMIT
    assert stored(store) == [0, 1, 2, 3, 4]


def test_slow_commits_move_to_their_thread_and_the_loop_serves_meanwhile(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "QUICK_COMMIT", 0.02)
    store.commit_average = 0.0
    ticks = 0
    served: list[int] = []  # for each commit, how often the loop ran another task during it
    threads: list[int] = []

    def slow_commit(_connection: Any) -> None:
        threads.append(threading.get_ident())
        before = ticks
        time.sleep(4 * store_module.QUICK_COMMIT)
        served.append(ticks - before)

    event.listen(store.engine, "commit", slow_commit)

    async def main() -> int:
        nonlocal ticks
        for n in range(6):
            write = asyncio.ensure_future(store.write(row(n)))
            while not write.done():
                ticks += 1
                await asyncio.sleep(0.002)
        return threading.get_ident()

    loop_thread = asyncio.run(main())
    # The first slow commits stall the loop while the average catches up with the disk ...
    assert threads[0] == loop_thread and served[0] == 0
    assert store.commit_average >= store_module.QUICK_COMMIT
    # ... then they run in the commit thread, and the loop serves during them.
    switched = next(i for i, t in enumerate(threads) if t != loop_thread)
    assert 0 < switched < 6
    assert all(t != loop_thread for t in threads[switched:])
    assert served[:switched] == [0] * switched
    assert all(n > 0 for n in served[switched:])
    assert stored(store) == list(range(6))


def test_commits_come_back_to_the_loop_once_the_disk_is_quick_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "QUICK_COMMIT", 1.0)  # however busy the test machine
    store.commit_average = 10.0  # a disk that was slow
    threads = committing_threads(store)

    loop_thread = write_each(store, 40)
    assert threads[0] != loop_thread
    assert threads[-1] == loop_thread
    assert store.commit_average < store_module.QUICK_COMMIT
    assert stored(store) == list(range(40))
