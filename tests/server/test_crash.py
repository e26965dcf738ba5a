"""Crash test: ``sansu serve`` killed with SIGKILL mid-game resumes every game at its last
acknowledged move, clocks included, and the computer picks up where it was thinking."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import FEW_BLANKS, legal, pick

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


STARTUP_SECONDS = 300.0
"""How long a server may take to answer its health check: on a busy machine, compiling
the computer's code at the first start alone can take a minute or two."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``sansu serve`` in a subprocess on a free port."""

    def __init__(self, db: Path, log: Path, *options: str) -> None:
        self.db = db
        self.log = log
        self.options = options
        """More ``sansu serve`` options (a later option overrides the defaults)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "sansu",
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    str(self.db),
                    "--computer-workers",
                    "1",
                    "--computer-time-ms",
                    "50",
                    "--log-level",
                    "warning",
                    *self.options,
                ],
                stdout=out,
                stderr=out,
            )
        end = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < end:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("the server did not start")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(c: httpx.Client, game: str, **body: Any) -> tuple[str, dict[int, str]]:
    r = c.post("/api/games", json={"game": game, **body})
    assert r.status_code == 201, r.text
    created = r.json()
    tokens = {created["seats"][0]: created["token"]}
    for seat in created["game"]["seats"]:
        if seat["kind"] == "human" and seat["seat"] not in tokens:
            joined = c.post(f"/api/games/{created['id']}/join", json={"seat": seat["seat"]}).json()
            tokens[seat["seat"]] = joined["token"]
    return created["id"], tokens


def play_loop(
    url: str, gid: str, tokens: dict[int, str], acked: list[str], stop: threading.Event, seed: int
) -> None:
    """Plays random moves as fast as the server takes them, noting each acknowledged one."""
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=5) as c:
        while not stop.is_set():
            try:
                game = c.get(f"/api/games/{gid}").json()
                if game["status"] != "active":
                    return
                seat = game["view"]["to_move"]
                r = c.post(
                    f"/api/games/{gid}/moves",
                    headers=auth(tokens[seat]),
                    json={"move": pick(legal(game), rng), "state": game["state"]},
                )
                if r.status_code == 200:
                    acked.append(r.json()["move"]["move"])
            except (httpx.HTTPError, ValueError):
                return


def test_sigkill_mid_game_loses_no_acknowledged_move(tmp_path: Path) -> None:
    server = Server(tmp_path / "sansu.db", tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as c:
            timed, timed_tokens = new_game(
                c, "uttt", time_control={"initial_seconds": 900, "increment_seconds": 5}
            )
            for move, seat, state in (("r5c5", 0, 0), ("r4c4", 1, 1), ("r2c2", 0, 2)):
                r = c.post(
                    f"/api/games/{timed}/moves",
                    headers=auth(timed_tokens[seat]),
                    json={"move": move, "state": state},
                )
                assert r.status_code == 200, r.text
            chrono = None
            if "challenge" in c.get("/api/catalog").text:
                chrono, _ = new_game(
                    c, "challenge", options={"puzzle": FEW_BLANKS, "turn_seconds": 600}
                )
            vs, vs_tokens = new_game(
                c, "sansumoku", seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}]
            )
            long_games = {"thirtyfive": {"rows": 12, "cols": 12}, "sumodoku": {}, "uttt": {}}
            busy = [new_game(c, game, options=options) for game, options in long_games.items()]
            before = {g: c.get(f"/api/games/{g}").json() for g in (timed, chrono) if g}
            # play hard on three games, and leave the computer thinking, then kill
            acked: dict[str, list[str]] = {gid: [] for gid, _ in busy}
            stop = threading.Event()
            threads = [
                threading.Thread(
                    target=play_loop, args=(server.url, gid, tokens, acked[gid], stop, i)
                )
                for i, (gid, tokens) in enumerate(busy)
            ]
            for t in threads:
                t.start()
            end = time.monotonic() + 120
            while not all(len(a) > 5 for a in acked.values()):
                assert time.monotonic() < end and any(t.is_alive() for t in threads), acked
                time.sleep(0.02)
            r = c.post(
                f"/api/games/{vs}/moves",
                headers=auth(vs_tokens[0]),
                json={"move": "r5c5", "state": 0},
            )
            assert r.status_code == 200
        server.kill()
        stop.set()
        for t in threads:
            t.join(timeout=10)
        assert all(len(a) > 5 for a in acked.values()), acked

        server.start()
        with httpx.Client(base_url=server.url, timeout=10) as c:
            for gid, moves in acked.items():
                stored = [m["move"] for m in c.get(f"/api/games/{gid}").json()["moves"]]
                # every acknowledged move is there; at most one more was committed unanswered
                assert stored[: len(moves)] == moves and len(stored) - len(moves) <= 1
                print(
                    f"crash test: game {gid}: {len(moves)} moves acknowledged before SIGKILL,"
                    f" {len(stored)} stored after restart"
                )
            for gid, old in before.items():
                now = c.get(f"/api/games/{gid}").json()
                assert now["moves"] == old["moves"] and now["state"] == old["state"]
                if old["clock"].get("flag_deadline") is not None:
                    assert now["clock"]["flag_deadline"] == old["clock"]["flag_deadline"]
                    idle = 1 - old["clock"]["running"]
                    assert now["clock"]["remaining"][idle] == old["clock"]["remaining"][idle]
                if "limit" in old["clock"]:
                    left = now["clock"]["limit"]["seconds_left"]
                    assert now["clock"]["limit"] == {**old["clock"]["limit"], "seconds_left": left}
            # the computer, interrupted while thinking, moves after the restart
            end = time.monotonic() + 30
            while time.monotonic() < end:
                game = c.get(f"/api/games/{vs}").json()
                if game["ply"] >= 2:
                    break
                time.sleep(0.05)
            assert game["moves"][0]["move"] == "r5c5" and game["moves"][1]["seat"] == 1
            # the old tokens still hold their seats
            r = c.post(
                f"/api/games/{timed}/moves",
                headers=auth(timed_tokens[1]),
                json={"move": "r4c5", "state": 3},
            )
            assert r.status_code in (200, 422), r.text
            if r.status_code == 422:
                assert r.json()["error"]["code"] == "illegal_move"
    finally:
        server.stop()
