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
