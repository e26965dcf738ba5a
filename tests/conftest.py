"""Test settings: hypothesis runs derandomised in CI so a red build can be replayed."""

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Schemathesis is a pytest plugin, so pytest rewrites its modules when they are first
# imported. Importing them here, at a shallow stack before any test module, keeps that
# rewrite away from CPython 3.11's AST recursion-depth bookkeeping, which once failed
# ("AST constructor recursion depth mismatch") when the fuzz tests' import did it deep
# in a worker's collection.
import schemathesis  # noqa: E402, F401

LONG_FIRST = (
    "tests/server/test_tournaments_e2e.py",
    "tests/server/test_cluster.py",
    "tests/sudoku/test_rater_compiled.py",
    "tests/server/test_bots_e2e.py",
    "tests/sudoku/test_rater_hodoku.py",
    "tests/server/test_backups.py",
)
"""Modules with tests of 15 s and more: started first, so that on a few workers the short
tests fill in beside them instead of one worker finishing a long test alone at the end.
Browser tests stay last, where they were: Playwright's synchronous API keeps its event
loop marked as running in the worker's thread once a browser started, so a later test's
``asyncio.run`` would fail."""


def pytest_collection_modifyitems(items: list) -> None:  # type: ignore[type-arg]
    rank = {path: i for i, path in enumerate(LONG_FIRST)}
    order = {id(item): rank.get(item.nodeid.split("::")[0], len(rank)) for item in items}
    items.sort(key=lambda item: order[id(item)])  # stable: the rest keep their order


def pytest_configure(config) -> None:  # type: ignore[no-untyped-def]
    """With a kernel source edited since ``scripts/setup-env`` built the compiled code, its
    cache goes before any test loads it: numba checks only the file of the function it
    caches, so a kernel calling an edited function of another file would run, and pass
    or fail, as the old code (``scripts/test`` builds afresh first; this guards a bare
    ``pytest``). The stamp then says a build of today's code was cut short, which is
    what the cache holds, so that the next edit is caught too. Once, in the process
    that starts the workers."""
    stamp = Path(sys.prefix) / ".compiled"
    if hasattr(config, "workerinput") or os.environ.get("NUMBA_CACHE_DIR") or not stamp.exists():
        return
    from sansu import warmup

    if warmup.ensure(stamp, now=False):  # the old code went: what numba caches now is today's
        stamp.write_text(f"{warmup.fingerprint()} {warmup.PARTIAL}\n")
