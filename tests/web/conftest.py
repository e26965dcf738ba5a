"""Browser tests: Playwright drives Debian's Chromium against a real server.

The browser is ``/usr/bin/chromium`` (``scripts/chromium-for-tests`` installs
it); Playwright never downloads one. The game server runs as a subprocess
(``sansu serve``) on a free loopback port with a temporary SQLite file, so
the tests see exactly what a player sees. Screenshots go to
``artifacts/screenshots/``.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import shutil
import socket
import socketserver
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from sansu.web import STATIC_DIR

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = os.environ.get("SANSU_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing: run scripts/chromium-for-tests")
    with playwright_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def static_url() -> Iterator[str]:
    """The static files alone, served without the game server (for the gallery)."""
    handler = functools.partial(_Quiet, directory=str(STATIC_DIR))
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _wait_for(url: str, process: subprocess.Popen[bytes], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"sansu serve exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"sansu serve did not answer {url} within {seconds} s")


@contextlib.contextmanager
def serving(
    sansu: str,
    db: Path,
    *,
    cwd: Path | None = None,
    wait: float = 240,
    extra: tuple[str, ...] = (),
) -> Iterator[str]:
    """``sansu serve`` (the executable ``sansu``) on a free port with the SQLite file ``db``.

    ``wait``: how long the server may take to answer (it warms its computer players first,
    which on a busy machine can take minutes: the wait ends as soon as it answers);
    ``extra``: more options for ``sansu serve``.
    """
    port = free_port()
    log = open(db.with_suffix(".log"), "wb")  # noqa: SIM115 - closed after the server stops
    process = subprocess.Popen(
        [
            sansu,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{db}",
            # Small budgets keep whole games against the computer quick.
            "--computer-workers",
            "1",
            "--computer-time-ms",
            "100",
            "--log-level",
            "warning",
            *extra,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=cwd,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{url}/index.html", process, wait)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A running ``sansu serve`` with a fresh SQLite database."""
    db = tmp_path_factory.mktemp("web-db") / "games.db"
    sansu = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"
    # A player who left may be claimed against after 10 s, not a minute: the claim's test
    # waits that long.
    with serving(sansu, db, extra=("--claim-after", "10")) as url:
        yield url


@pytest.fixture
def context(browser: object) -> Iterator[object]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: object) -> Iterator[object]:
    pg = context.new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    pg.on("pageerror", lambda error: errors.append(str(error)))
    pg.js_errors = errors  # type: ignore[attr-defined]
    yield pg
    assert not errors, f"JavaScript errors on the page: {errors}"
