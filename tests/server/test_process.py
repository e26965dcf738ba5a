"""A real ``sansu serve``: no secret in its log, nothing left behind when it stops, and no
cold first computer move."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.test_crash import Server, auth, new_game

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")


def children(pid: int) -> set[int]:
    """Every process descended from ``pid``."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, ppid in parents.items():
            if ppid == parent and child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def answer(ws: object, kinds: tuple[str, ...] = ("ack", "error", "pong")) -> dict[str, object]:
    while True:
        message = json.loads(ws.recv(timeout=10))  # type: ignore[attr-defined]
        if message["type"] in kinds:
            return message


def test_no_seat_token_reaches_the_log(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = Server(tmp_path / "g.db", log, "--log-level", "info")
    server.start()
    tokens: list[str] = []
    try:
        with httpx.Client(base_url=server.url, timeout=10) as c:
            for _ in range(2):
                gid, seats = new_game(c, "uttt")
                tokens += seats.values()
                ws_url = f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws"
                # seat 0 the new way (a subprotocol); seat 1 the old way (the URL)
                with (
                    connect(ws_url, subprotocols=["sansu", f"token.{seats[0]}"]) as p0,
                    connect(f"{ws_url}?token={seats[1]}&since=0") as p1,
                ):
                    assert p0.subprotocol == "sansu"
                    state = 0
                    for player, move in ((p0, "r5c5"), (p1, "r4c4"), (p0, "r2c2")):
                        player.send(json.dumps({"type": "move", "move": move, "state": state}))
                        ack = answer(player)
                        assert ack["type"] == "ack", ack
                        state = int(ack["state"])  # type: ignore[arg-type]
                r = c.post(f"/api/games/{gid}/resign", json={}, headers=auth(seats[1]))
                assert r.status_code == 200
    finally:
        server.stop()
    text = log.read_text(errors="replace")
    assert "WebSocket /api/games/" in text  # the accepts were logged ...
    assert "token=[hidden]" in text
    for token in tokens:  # ... without any token
        assert token not in text


def server_while_the_computer_thinks(tmp_path: Path) -> tuple[Server, Path]:
    """A real server with two workers, one of them searching a move for up to 8 s."""
    log = tmp_path / "server.log"
    server = Server(tmp_path / "g.db", log, "--computer-workers", "2", "--computer-time-ms", "8000")
    server.start()
    with httpx.Client(base_url=server.url, timeout=10) as c:
        gid, seats = new_game(
            c, "uttt", seats=[{"kind": "human"}, {"kind": "computer", "level": "max"}]
        )
        r = c.post(
            f"/api/games/{gid}/moves", json={"move": "r5c5", "state": 0}, headers=auth(seats[0])
        )
        assert r.status_code == 200, r.text
        assert server.process is not None
        end = time.monotonic() + 120  # the workers are up (slow to start on a busy machine)
        while len(children(server.process.pid)) < 2:
            assert time.monotonic() < end, "the computer's workers did not start"
            time.sleep(0.05)
        assert c.get(f"/api/games/{gid}").json()["ply"] == 1  # the computer is thinking
    return server, log


def assert_stopped_cleanly(server: Server, workers: set[int], log: Path) -> None:
    """The server ended, no worker outlived it, and its log holds no traceback."""
    assert server.process is not None
    server.process.wait(timeout=20)
    end = time.monotonic() + 10
    while time.monotonic() < end and any(alive(w) for w in workers):
        time.sleep(0.1)
    assert not [w for w in workers if alive(w)]
    text = log.read_text(errors="replace")
    assert "leaked semaphore" not in text and "Traceback" not in text, text[-3000:]


def test_sigterm_while_the_computer_thinks_leaves_no_process(tmp_path: Path) -> None:
    server, log = server_while_the_computer_thinks(tmp_path)
    assert server.process is not None
    pid = server.process.pid
    workers = children(pid)
    assert len(workers) >= 2, workers  # the two workers (and the pool's helpers)
    os.kill(pid, signal.SIGTERM)
    assert_stopped_cleanly(server, workers, log)
    # A normal exit, not death by the signal: Python's exit handlers ran, and with them
    # multiprocessing's, which unlink the pool's semaphores (else reported leaked).
    assert server.process.returncode == 128 + signal.SIGTERM


def test_ctrl_c_in_a_terminal_stops_everything_without_a_traceback(tmp_path: Path) -> None:
    """Ctrl-C reaches the whole foreground process group: the server and every worker."""
    server, log = server_while_the_computer_thinks(tmp_path)
    assert server.process is not None
    pid = server.process.pid
    workers = children(pid)
    assert len(workers) >= 2, workers
    for process in (pid, *workers):
        with contextlib.suppress(ProcessLookupError):
            os.kill(process, signal.SIGINT)
    assert_stopped_cleanly(server, workers, log)


@pytest.mark.parametrize("game", ["sansumoku", "uttt"])
def test_the_first_computer_move_of_a_fresh_server_comes_within_its_budget(
    tmp_path: Path, game: str
) -> None:
    budget_ms = 300
    server = Server(
        tmp_path / "g.db",
        tmp_path / "server.log",
        "--computer-workers",
        "1",
        "--computer-time-ms",
        str(budget_ms),
    )
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as c:
            started = time.monotonic()
            gid, _ = new_game(
                c, game, seats=[{"kind": "computer", "level": "max"}, {"kind": "human"}]
            )
            while (game_now := c.get(f"/api/games/{gid}").json())["state"] == 0:
                assert time.monotonic() - started < 30
                time.sleep(0.02)
            took = time.monotonic() - started
    finally:
        server.stop()
    assert game_now["moves"][0]["seat"] == 0
    # The budget, plus a margin for a loaded machine; a search that had to load its
    # compiled code first took seconds.
    assert took < budget_ms / 1000 + 1.2, took


def test_no_secret_reaches_the_debug_log(tmp_path: Path) -> None:
    """At the most talkative level, no seat token, session cookie or bearer secret is
    written, whichever way it travelled: URL, header, subprotocol or cookie."""
    log = tmp_path / "server.log"
    server = Server(tmp_path / "g.db", log, "--log-level", "debug")
    server.start()
    secrets: list[str] = []
    try:
        with httpx.Client(base_url=server.url, timeout=10) as c:
            gid, seats = new_game(c, "uttt")
            secrets += seats.values()
            r = c.post(
                "/api/account/signup",
                json={"name": "Debbie", "password": "a long passphrase"},
            )
            assert r.status_code in (200, 201), r.text
            session = c.cookies.get("sansu_session")
            assert session
            secrets.append(session)
            assert c.get("/api/account").status_code == 200
            c.get(f"/api/games/{gid}", headers=auth(seats[0]))
            c.get(f"/api/games/{gid}?token={seats[1]}")
            made_up = "madeUpSecretValue12345"
            secrets.append(made_up)
            c.get("/api/account", headers={"Authorization": f"Bearer {made_up}"})
            ws_url = f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws"
            with connect(ws_url, subprotocols=["sansu", f"token.{seats[0]}"]) as ws:
                assert ws.subprotocol == "sansu"
                ws.send(json.dumps({"type": "move", "move": "r5c5", "state": 0}))
                assert answer(ws)["type"] == "ack"
            # From this site's page (its Origin), so the socket is the account's, not refused.
            same_site = {
                "Cookie": f"sansu_session={session}",
                "Origin": f"http://127.0.0.1:{server.port}",
            }
            with connect(ws_url, additional_headers=same_site) as ws:
                ws.send(json.dumps({"type": "ping"}))
                assert answer(ws)["type"] == "pong"
            with connect(f"{ws_url}?token={seats[1]}") as ws:
                ws.send(json.dumps({"type": "ping"}))
                answer(ws)
    finally:
        server.stop()
    text = log.read_text(errors="replace")
    assert "WebSocket /api/games/" in text and "DEBUG" in text.upper()
    leaked = [s for s in secrets if s in text]
    assert not leaked, [line for line in text.splitlines() if any(s in line for s in leaked)]


def signup_cookie(c: httpx.Client, name: str, headers: dict[str, str]) -> str:
    r = c.post(
        "/api/account/signup", json={"name": name, "password": "a long passphrase"}, headers=headers
    )
    assert r.status_code in (200, 201), r.text
    return r.headers["set-cookie"]


def seeks_posted(c: httpx.Client, address: str, count: int) -> list[int]:
    forwarded = {"X-Forwarded-For": address}
    return [
        c.post("/api/lobby/seeks", json={"game": "uttt"}, headers=forwarded).status_code
        for _ in range(count)
    ]


@pytest.mark.parametrize("trusted", [True, False])
def test_behind_a_trusted_proxy_each_client_is_known_by_its_own_address(
    tmp_path: Path, trusted: bool
) -> None:
    """With ``--forwarded-allow-ips`` the proxy's X-Forwarded-For names the client (its
    share of the lobby is its own) and X-Forwarded-Proto https makes the cookie Secure;
    without it, those headers are anyone's and change nothing."""
    options = ("--forwarded-allow-ips", "127.0.0.1") if trusted else ()
    server = Server(tmp_path / "g.db", tmp_path / "server.log", *options)
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as c:
            over_https = signup_cookie(c, "Proxied", {"X-Forwarded-Proto": "https"})
            assert ("secure" in over_https.lower()) is trusted
            assert "secure" not in signup_cookie(httpx.Client(base_url=server.url), "Plain", {})
            c.cookies.clear()
            assert seeks_posted(c, "198.51.100.1", 5) == [201] * 5
            other = seeks_posted(c, "198.51.100.2", 1)
            assert other == ([201] if trusted else [409])
    finally:
        server.stop()
