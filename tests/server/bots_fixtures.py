"""A real server in a thread (the bot API streams, which a test client cannot follow
forever) and helpers to make accounts, bot tokens, and read ND-JSON streams."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from sansu.server import create_app
from sansu.server.accounts import users
from tests.server.accounts_fixtures import FAST_HASHER
from tests.server.conftest import NO_LIMITS
from tests.server.test_crash import free_port


class ThreadServer:
    """The app under uvicorn on a free port, in a thread of this process."""

    def __init__(self, db: Path) -> None:
        self.app = create_app(
            str(db), computer_workers=0, computer_time_ms=20, rate_limits=NO_LIMITS, warm_up=False
        )
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            self.app,
            port=self.port,
            log_level="warning",
            lifespan="on",
            timeout_graceful_shutdown=5,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> None:
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < end, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> float:
        """Stops it the way a signal does; the seconds it took."""
        began = time.monotonic()
        self.app.state.streams.closing = True
        self.server.should_exit = True
        self.thread.join(30)
        return time.monotonic() - began


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ThreadServer]:
    monkeypatch.setattr(users, "HASHER", FAST_HASHER)
    monkeypatch.setattr(users, "_DUMMY_HASH", FAST_HASHER.hash("dummy password"))
    server = ThreadServer(tmp_path / "bots.db")
    server.start()
    yield server
    server.stop()


class Account:
    """A signed-in browser of one account (cookie and CSRF token), and its bot token."""

    def __init__(self, url: str, name: str, *, bot: bool) -> None:
        self.name = name
        self.web = httpx.Client(base_url=url, timeout=20)
        r = self.web.post(
            "/api/account/signup", json={"name": name, "password": "password123", "bot": bot}
        )
        assert r.status_code == 201, r.text
        self.id = r.json()["user"]["id"]
        self.csrf = {"X-CSRF-Token": r.json()["csrf_token"]}
        self.token: str | None = None
        self.api = httpx.Client(base_url=url, timeout=20)

    def new_token(self) -> str:
        r = self.web.post("/api/account/tokens", json={"label": "tests"}, headers=self.csrf)
        assert r.status_code == 201, r.text
        self.token = r.json()["token"]
        self.api.headers["Authorization"] = f"Bearer {self.token}"
        return self.token


def bot(url: str, name: str) -> Account:
    account = Account(url, name, bot=True)
    account.new_token()
    return account


def events(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """The objects of an ND-JSON stream, keep-alive lines skipped."""
    for line in lines:
        if line.strip():
            yield json.loads(line)


def next_of(stream: Iterator[dict[str, Any]], kind: str) -> dict[str, Any]:
    """The next object of type ``kind`` (others before it are passed over)."""
    for event in stream:
        if event["type"] == kind:
            return event
    raise AssertionError(f"the stream ended before a {kind!r}")
