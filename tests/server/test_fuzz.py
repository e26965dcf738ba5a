"""Fuzzing of the HTTP API from its OpenAPI schema: no request, however odd, makes the
server fail (5xx) or answer outside what its schema promises.

Every check runs except "a schema-valid request is accepted": whether seats
fit a game and whether a record's moves are legal is for the engines to say,
not the schema, so those refusals are correct.

The fuzzed server has no rate limits. With them, whether a case reached its
route depended on how many requests the same process had sent in the same
minute (how the cases were shared among test workers, how loaded the
machine was): past the limit every route answers a documented 429, which
hid the answers behind it, so a route's undocumented answer failed the run
only now and then. The limits have tests of their own (test_seeks.py,
test_challenges.py, ...).

A body over the server's size limit is refused with 413 before its route
reads it, whatever the schema says of it: for a generated invalid body that
happens to be that large, 413 is a correct refusal too.
"""

from __future__ import annotations

import importlib
import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from sansu.server import create_app
from sansu.server.base.ratelimit import RateLimits

# schemathesis imports some of its modules only when it first needs them; pytest rewrites
# them as they are imported (schemathesis is a pytest plugin), and Python 3.11's parser
# now and then failed that rewrite ("AST constructor recursion depth mismatch", CPython
# issue 106905) when it ran beside the app's threads. Imported here, before any thread.
for _module in (
    "specs.openapi.schemas", "specs.openapi.object_authorization",
    "generation.body_overrides", "generation.dictionaries", "wfc.escalation",
):  # fmt: skip
    importlib.import_module(f"schemathesis.{_module}")
DB = Path(tempfile.mkdtemp(prefix="sansu-fuzz-")) / "sansu.db"
APP = create_app(
    str(DB),
    computer_workers=0,
    computer_time_ms=10,
    rate_limits=RateLimits(requests=None, creates=None, accounts=None, imports=None),
)
REFUSALS = [
    *SchemathesisConfig().projects.default.checks.negative_data_rejection.expected_statuses,
    "413",
]
"""What may answer an invalid request: schemathesis's refusals, and "too large"."""
schema = schemathesis.openapi.from_asgi(
    "/api/openapi.json",
    APP,
    config=SchemathesisConfig.from_dict(
        {"checks": {"negative_data_rejection": {"expected-statuses": REFUSALS}}}
    ),
)


@schema.parametrize()
@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_the_api_never_fails(case: schemathesis.Case) -> None:
    case.call_and_validate(excluded_checks=[schemathesis.checks.positive_data_acceptance])


def operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, methods in APP.openapi()["paths"].items()
        for method, operation in methods.items()
    ]


def test_every_operation_that_reads_a_token_documents_its_401() -> None:
    """A malformed ``Authorization`` header is refused with 401 wherever one is read, even
    where (a game whose watching is off) the fuzzing cannot reach it."""
    missing = [
        f"{method} {path}"
        for method, path, operation in operations()
        if any(
            p["in"] == "header" and p["name"].lower() == "authorization"
            for p in operation.get("parameters", [])
        )
        and "401" not in operation["responses"]
    ]
    assert missing == []


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/games/{game_id}/record"),
        ("GET", "/api/games/{game_id}/positions/{ply}"),
        ("GET", "/api/games/{game_id}/review"),
        ("POST", "/api/games/{game_id}/review"),
    ],
)
def test_a_game_whose_watching_is_off_answers_as_documented(
    client: TestClient, method: str, path: str
) -> None:
    """A spectator is refused (403) and a malformed token too (401), as the schema says.
    (An app of its own: a second lifespan on the fuzzed app would close its store.)"""
    documented = client.app.openapi()["paths"][path][method.lower()]["responses"]  # type: ignore[attr-defined]
    r = client.post("/api/games", json={"game": "uttt", "watchable": False})
    assert r.status_code == 201, r.text
    url = path.format(game_id=r.json()["id"], ply=0)
    spectator = client.request(method, url)
    malformed = client.request(method, url, headers={"Authorization": "Basic x"})
    assert (spectator.status_code, spectator.json()["error"]["code"]) == (403, "not_watchable")
    assert (malformed.status_code, malformed.json()["error"]["code"]) == (401, "token_required")
    assert {"401", "403"} <= set(documented)
