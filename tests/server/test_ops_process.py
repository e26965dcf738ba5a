"""A real ``sansu serve --log-format json --metrics-port``: JSON lines with a request id
each, no secret at DEBUG, metrics on their own listener only; and the request id of a
trusted proxy kept, anyone else's replaced."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from tests.server.conftest import make_client
from tests.server.test_crash import Server, free_port
from tests.server.test_process import answer

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="signals")

PASSWORD = "Very-Secret-Passphrase-42"


def test_json_logs_hold_request_ids_and_no_secret_and_metrics_stay_private(
    tmp_path: Path,
) -> None:
    log = tmp_path / "server.log"
    metrics_port = free_port()
    options = ("--log-level", "debug", "--log-format", "json", "--metrics-port", str(metrics_port))
    server = Server(tmp_path / "g.db", log, *options)
    server.start()
    secrets: list[str] = [PASSWORD]
    ids: list[str] = []
    try:
        with httpx.Client(base_url=server.url, timeout=10) as c:
            r = c.post("/api/account/signup", json={"name": "Olga", "password": PASSWORD})
            assert r.status_code == 201, r.text
            secrets += [c.cookies["sansu_session"], r.json()["csrf_token"]]
            ids.append(r.headers["x-request-id"])
            r = c.post("/api/games", json={"game": "uttt", "private": True})
            created = r.json()
            gid, secret = created["id"], created["join_secret"]
            secrets += [created["token"], secret]
            c.cookies.clear()
            r = c.post(f"/api/games/{gid}/join", json={"secret": secret})
            assert r.status_code == 200, r.text
            secrets.append(r.json()["token"])
            made_up = "client-chosen-id-1"
            r = c.get("/api/health", headers={"X-Request-Id": made_up})
            assert r.headers["x-request-id"] != made_up  # not a trusted proxy
            ids.append(r.headers["x-request-id"])
            r = c.post("/api/account/login", json={"name": "Olga", "password": PASSWORD + "x"})
            assert r.status_code == 401
            ws_url = f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws"
            with connect(ws_url, subprotocols=["sansu", f"token.{created['token']}"]) as ws:
                assert ws.response is not None
                assert ws.response.headers["x-request-id"]
                ws.send(json.dumps({"type": "move", "move": "r5c5", "state": 0}))
                assert answer(ws)["type"] == "ack"
            private = f"http://127.0.0.1:{metrics_port}"
            scraped = httpx.get(f"{private}/metrics", timeout=10)
            assert scraped.status_code == 200
            assert "sansu_moves_total 1.0" in scraped.text
            assert 'sansu_login_failures_total{reason="bad_credentials"} 1.0' in scraped.text
            assert httpx.get(f"{private}/api/health", timeout=10).status_code == 404
            assert c.get("/metrics").status_code == 404
    finally:
        server.stop()
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert {"debug", "info"} <= {r["level"] for r in records}
    assert any("serving on" in r["message"] for r in records)
    access = [r for r in records if r["logger"] == "sansu.access"]
    assert {r["request_id"] for r in access} >= set(ids)
    assert any(r["path"] == "/api/account/login" and r["status"] == 401 for r in access)
    text = log.read_text()
    leaked = [s for s in secrets if s in text]
    assert not leaked, [line for line in lines if any(s in line for s in leaked)]


@pytest.mark.parametrize(
    ("trusted", "sent", "kept"),
    [
        ("*", "edge-7f3a.42", True),
        ("*", "two words", False),
        ("*", "x" * 200, False),
        (None, "edge-7f3a.42", False),
    ],
)
def test_an_incoming_request_id_is_kept_only_from_a_trusted_proxy_and_only_if_sane(
    db_path: str, trusted: str | None, sent: str, kept: bool
) -> None:
    app = make_client(db_path, forwarded_allow_ips=trusted).app
    with TestClient(app) as client:
        echoed = client.get("/api/health", headers={"X-Request-Id": sent}).headers["x-request-id"]
        other = client.get("/api/health").headers["x-request-id"]
    assert (echoed == sent) is kept
    assert other != echoed and len(other) >= 16


def test_bad_metrics_options_are_refused_before_the_server_starts(tmp_path: Path) -> None:
    from sansu.cli.main import main

    db = str(tmp_path / "g.db")
    assert main(["serve", "--db", db, "--metrics-allow", "10.0.0.0/33"]) == 2
    assert main(["serve", "--db", db, "--port", "8123", "--metrics-port", "8123"]) == 2
    assert not Path(db).exists()
