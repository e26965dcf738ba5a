"""``sansu admin backup`` of a live server mid-game, on SQLite and PostgreSQL: the backup,
restored into a fresh database, holds every move acknowledged before it began; and
``restore`` refuses what it must (a database with tables, a newer schema, a wrong file)
without changing anything."""

from __future__ import annotations

import random
import re
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from tests.server.conftest import legal, pick
from tests.server.test_crash import Server, auth

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="subprocesses")

LONG_GAMES = {"thirtyfive": {"rows": 12, "cols": 12}, "uttt": {}, "sumodoku": {}}
"""Games with many moves each, so that moves keep arriving through the backup."""
Ack = tuple[str, int, str, float]
"""An acknowledged move: game, ply, text, when the answer came (``time.monotonic``)."""


def admin(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sansu", "admin", *args], capture_output=True, text=True
    )


def counts(output: str) -> dict[str, int]:
    found = re.search(r"(\d+) games, (\d+) moves, (\d+) accounts", output)
    assert found, output
    return dict(zip(("games", "moves", "accounts"), map(int, found.groups()), strict=True))


class Players:
    """Threads playing random moves in new games, one after another, until stopped."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.acked: list[Ack] = []
        self.lock = threading.Condition()
        self.stop = threading.Event()
        self.threads = [
            threading.Thread(target=self._play, args=(game, options, seed), daemon=True)
            for seed, (game, options) in enumerate(LONG_GAMES.items())
        ]

    def __enter__(self) -> Players:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=30)

    def wait_for(self, count: int, timeout: float = 120) -> None:
        """Waits until ``count`` moves have been acknowledged in all."""
        with self.lock:
            assert self.lock.wait_for(lambda: len(self.acked) >= count, timeout), self.acked

    def _play(self, game_id: str, options: dict[str, object], seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(base_url=self.url, timeout=10) as c:
            while not self.stop.is_set():
                r = c.post("/api/games", json={"game": game_id, "options": options})
                created = r.json()
                gid, tokens = created["id"], {created["seats"][0]: created["token"]}
                joined = c.post(f"/api/games/{gid}/join", json={}).json()
                tokens[joined["seat"]] = joined["token"]
                while not self.stop.is_set():
                    game = c.get(f"/api/games/{gid}").json()
                    if game["status"] != "active":
                        break
                    move = pick(legal(game), rng)
                    r = c.post(
                        f"/api/games/{gid}/moves",
                        headers=auth(tokens[game["view"]["to_move"]]),
                        json={"move": move, "state": game["state"]},
                    )
                    if r.status_code == 200:
                        with self.lock:
                            ply = len(game["moves"]) + 1
                            self.acked.append((gid, ply, move, time.monotonic()))
                            self.lock.notify_all()


def stored_moves(url: str) -> set[tuple[str, int, str]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            rows = c.execute(sa.text("SELECT game_id, ply, text FROM moves")).all()
    finally:
        engine.dispose()
    return {(r[0], r[1], r[2]) for r in rows}


def back_up_mid_game(tmp_path: Path, db: str, fresh: str, fresh_url: str) -> None:
    """A server on ``db`` with games going on; a backup made meanwhile, restored into
    ``fresh``, holds every move acknowledged before the backup began."""
    server = Server(db, tmp_path / "server.log", "--rate-limit-requests", "none",
                    "--rate-limit-creates", "none", "--computer-workers", "0")  # fmt: skip
    backup = tmp_path / "sansu.backup"
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=10) as c:
            r = c.post("/api/account/signup", json={"name": "Keeper", "password": "a long one!"})
            assert r.status_code == 201, r.text
        with Players(server.url) as players:
            players.wait_for(60)
            began = time.monotonic()
            made = admin("backup", str(backup), "--db", db)
            ended = time.monotonic()
            acknowledged = len(players.acked)
            players.wait_for(acknowledged + 10)  # the games went on through the backup
        assert made.returncode == 0, made.stderr
    finally:
        server.stop()
    before = {(g, ply, m) for g, ply, m, at in players.acked if at < began}
    assert len(before) >= 60
    restored = admin("restore", str(backup), "--db", fresh)
    assert restored.returncode == 0, restored.stderr
    assert counts(restored.stdout) == counts(made.stdout)
    assert counts(made.stdout)["accounts"] == 1
    in_backup = stored_moves(fresh_url)
    assert before <= in_backup, sorted(before - in_backup)[:5]
    assert len(in_backup) == counts(made.stdout)["moves"]
    again = admin("restore", str(backup), "--db", fresh)
    assert again.returncode == 1 and "not empty" in again.stderr
    forced = admin("restore", str(backup), "--db", fresh, "--force")
    assert forced.returncode == 0, forced.stderr
    assert stored_moves(fresh_url) == in_backup
    after = {(g, ply, m) for g, ply, m, at in players.acked if at > ended}
    print(
        f"backup mid-game: {made.stdout.strip()}; {len(before)} moves acknowledged before it,"
        f" {len(after)} after it ({1000 * (ended - began):.0f} ms);"
        f" restore: {restored.stdout.strip()}"
    )


def test_a_live_sqlite_server_backed_up_mid_game_keeps_every_acknowledged_move(
    tmp_path: Path,
) -> None:
    fresh = tmp_path / "fresh" / "restored.db"
    back_up_mid_game(tmp_path, str(tmp_path / "live.db"), str(fresh), f"sqlite:///{fresh}")


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="needs pg_dump")
def test_a_live_postgresql_server_backed_up_mid_game_keeps_every_acknowledged_move(
    tmp_path: Path, postgres_url: str, postgres_server: str
) -> None:
    fresh = sa.make_url(postgres_url).set(database=sa.make_url(postgres_url).database + "_r")
    admin_engine = sa.create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    with admin_engine.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{fresh.database}"'))
    try:
        url = fresh.render_as_string(hide_password=False)
        back_up_mid_game(tmp_path, postgres_url, url, url)
    finally:
        with admin_engine.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{fresh.database}" WITH (FORCE)'))
        admin_engine.dispose()


@pytest.fixture
def small_backup(tmp_path: Path) -> Path:
    """A backup of a database with one game in it."""
    from sansu.server.base.store import Store

    db = tmp_path / "small.db"
    store = Store(str(db))
    store.open()
    store.close()
    backup = tmp_path / "small.backup"
    made = admin("backup", str(backup), "--db", str(db))
    assert made.returncode == 0, made.stderr
    assert counts(made.stdout) == {"games": 0, "moves": 0, "accounts": 0}
    return backup


def test_restore_refuses_a_database_with_tables_unless_forced(
    tmp_path: Path, small_backup: Path
) -> None:
    target = tmp_path / "busy.db"
    with sqlite3.connect(target) as c:
        c.execute("CREATE TABLE notes (body TEXT)")
        c.execute("INSERT INTO notes VALUES ('keep me')")
    refused = admin("restore", str(small_backup), "--db", str(target))
    assert refused.returncode == 1
    assert "not empty" in refused.stderr and "--force" in refused.stderr
    with sqlite3.connect(target) as c:
        assert c.execute("SELECT body FROM notes").fetchall() == [("keep me",)]
    forced = admin("restore", str(small_backup), "--db", str(target), "--force")
    assert forced.returncode == 0, forced.stderr
    with sqlite3.connect(target) as c:
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "notes" not in tables and {"games", "moves", "users"} <= tables


def test_restore_refuses_a_backup_from_a_newer_schema(tmp_path: Path, small_backup: Path) -> None:
    with sqlite3.connect(small_backup) as c:
        c.execute("UPDATE alembic_version SET version_num = '9999'")
    target = tmp_path / "new.db"
    refused = admin("restore", str(small_backup), "--db", str(target))
    assert refused.returncode == 1 and "9999" in refused.stderr
    assert not target.exists()


def test_restore_refuses_a_file_that_is_no_backup_or_of_another_kind(
    tmp_path: Path, small_backup: Path
) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("hello")
    refused = admin("restore", str(junk), "--db", str(tmp_path / "a.db"))
    assert refused.returncode == 1 and "not a sansu backup" in refused.stderr
    missing = admin("restore", str(tmp_path / "nothing"), "--db", str(tmp_path / "a.db"))
    assert missing.returncode == 1 and "cannot read" in missing.stderr
    other = admin("restore", str(small_backup), "--db", "postgresql://nobody@127.0.0.1:1/x")
    assert other.returncode == 1 and "sqlite backup" in other.stderr
    assert not (tmp_path / "a.db").exists()


def test_a_backup_of_no_database_is_refused(tmp_path: Path) -> None:
    refused = admin("backup", str(tmp_path / "out"), "--db", str(tmp_path / "none.db"))
    assert refused.returncode == 1 and "no database" in refused.stderr
    assert not (tmp_path / "out").exists()
