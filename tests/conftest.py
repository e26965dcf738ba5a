"""Test settings: hypothesis runs derandomised in CI so a red build can be replayed."""

import os

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
