"""Fuzzing of the HTTP API from its OpenAPI schema: no request, however odd, makes the
server fail (5xx) or answer outside what its schema promises.

Every check runs except "a schema-valid request is accepted": whether seats
fit a game and whether a record's moves are legal is for the engines to say,
not the schema, so those refusals are correct.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings

from sansu.server import create_app

DB = Path(tempfile.mkdtemp(prefix="sansu-fuzz-")) / "sansu.db"
APP = create_app(str(DB), computer_workers=0, computer_time_ms=10)
schema = schemathesis.openapi.from_asgi("/api/openapi.json", APP)


@schema.parametrize()
@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_the_api_never_fails(case: schemathesis.Case) -> None:
    case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance])
