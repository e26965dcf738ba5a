"""Fixtures for the server's tests: apps on temporary databases, a small API client, PostgreSQL.

PostgreSQL: the tests use ``$SANSU_TEST_POSTGRES_URL`` when it is set (the
test command starts a server with ``scripts/postgres-for-tests``);
otherwise they start one themselves with that script (installing Debian's
``postgresql`` when absent). They are skipped only when
``SANSU_SKIP_POSTGRES=1`` says so.
"""

from __future__ import annotations

import os
import random
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import sansu
from sansu.server import create_app
from sansu.server.base.ratelimit import RateLimits

ROOT = Path(__file__).resolve().parents[2]
HOST_WORDS = ("timeout", "sudoku", "challenge")
"""Moves the random players avoid while anything else is legal (a claim or a
challenge is a gamble, a timeout gives the turn away)."""

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
FEW_BLANKS = "..46789126.21953481983425678597.14234268..79171392485696153728428741963.3452861.."
"""A Sudoku Challenge puzzle with nine blanks and one solution: a whole game is short."""

GAME_OPTIONS: dict[str, dict[str, Any]] = {"challenge": {"puzzle": FEW_BLANKS}}
"""Options that keep each game's full playthrough short in tests."""


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Api:
    """A thin client of the HTTP API for tests."""

    def __init__(self, client: TestClient) -> None:
        self.client = client

    def create(self, game: str, expect: int = 201, **body: Any) -> dict[str, Any]:
        body.setdefault("options", GAME_OPTIONS.get(game, {}))
        r = self.client.post("/api/games", json={"game": game, **body})
        assert r.status_code == expect, r.text
        return r.json()

    def join(self, gid: str, token: str | None = None, **body: Any) -> dict[str, Any]:
        r = self.client.post(f"/api/games/{gid}/join", json=body, headers=bearer(token))
        assert r.status_code == 200, r.text
        return r.json()

    def get(self, gid: str, token: str | None = None) -> dict[str, Any]:
        r = self.client.get(f"/api/games/{gid}", headers=bearer(token))
        assert r.status_code == 200, r.text
        return r.json()

    def move(self, gid: str, token: str | None, move: str, state: int) -> Any:
        return self.client.post(
            f"/api/games/{gid}/moves", json={"move": move, "state": state}, headers=bearer(token)
        )

    def post(self, gid: str, what: str, token: str | None, **body: Any) -> Any:
        return self.client.post(
            f"/api/games/{gid}/{what}", json=body or None, headers=bearer(token)
        )

    def two_players(self, game: str, **body: Any) -> tuple[str, dict[int, str]]:
        """A new game with every seat taken; the tokens by seat."""
        created = self.create(game, **body)
        gid = created["id"]
        tokens = {created["seats"][0]: created["token"]}
        for seat in range(len(created["game"]["seats"])):
            if seat not in tokens and created["game"]["seats"][seat]["kind"] == "human":
                tokens[seat] = self.join(gid, seat=seat)["token"]
        return gid, tokens

    def play_random(
        self,
        gid: str,
        tokens: dict[int, str],
        rng: random.Random,
        *,
        limit: int = 3000,
        stop_after: int | None = None,
    ) -> dict[str, Any]:
        """Plays random legal moves for the seats of ``tokens`` until the game ends."""
        any_token = next(iter(tokens.values()))
        for played in range(limit):
            game = self.get(gid, any_token)
            if game["status"] != "active" or (stop_after is not None and played >= stop_after):
                return game
            seat = game["view"]["to_move"]
            if seat not in tokens:
                raise AssertionError(f"seat {seat} has no token here")
            move = pick(legal(game), rng)
            r = self.move(gid, tokens[seat], move, game["state"])
            assert r.status_code == 200, r.text
        raise AssertionError("the game did not end")


def legal(game: dict[str, Any]) -> list[str]:
    """The legal moves in a game as ``GET /games/{id}`` gives it. A Sumodoku game created
    without aids leaves its placements out of every view; the engine lists them."""
    view = game["view"]
    if game["game"] != "sumodoku" or view["options"].get("aids") or view["to_move"] is None:
        return list(view["legal_moves"])
    state = sansu.load_game("sumodoku", **view["options"])
    state = state.play_moves([m["move"] for m in game["moves"]])
    return [str(m) for m in state.legal_moves()]


def pick(moves: list[str], rng: random.Random) -> str:
    playable = [m for m in moves if m not in HOST_WORDS] or moves
    return rng.choice(playable)


NO_LIMITS = RateLimits(requests=None, creates=None, accounts=None, imports=None)


def make_client(db: str, **kwargs: Any) -> TestClient:
    kwargs.setdefault("computer_workers", 0)
    kwargs.setdefault("computer_time_ms", 20)
    kwargs.setdefault("rate_limits", NO_LIMITS)
    kwargs.setdefault("warm_up", False)
    return TestClient(create_app(db, **kwargs))


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "sansu.db")


@pytest.fixture
def client(db_path: str) -> Iterator[TestClient]:
    with make_client(db_path) as c:
        yield c


@pytest.fixture
def api(client: TestClient) -> Api:
    return Api(client)


# -- PostgreSQL -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The URL of a running PostgreSQL server (see the module's docstring)."""
    if os.environ.get("SANSU_SKIP_POSTGRES") == "1":
        pytest.skip("SANSU_SKIP_POSTGRES=1: PostgreSQL tests skipped on request")
    url = os.environ.get("SANSU_TEST_POSTGRES_URL")
    if url:
        return url
    done = subprocess.run(
        [str(ROOT / "scripts" / "postgres-for-tests"), "start"],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode != 0 or not done.stdout.strip():
        raise RuntimeError(
            "cannot start PostgreSQL for the tests (set SANSU_SKIP_POSTGRES=1 to skip them):\n"
            + done.stderr[-2000:]
        )
    return done.stdout.strip().splitlines()[-1]


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the test server, dropped afterwards."""
    yield from fresh_postgres(postgres_server)


@pytest.fixture
def second_postgres_url(postgres_server: str) -> Iterator[str]:
    """Another one, for a test that compares two databases."""
    yield from fresh_postgres(postgres_server)


def fresh_postgres(postgres_server: str) -> Iterator[str]:
    import sqlalchemy as sa

    name = f"sansu_test_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(sa.text(f'CREATE DATABASE "{name}"'))
    base = sa.make_url(postgres_server)
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each persistence test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "sansu.db")
    return request.getfixturevalue("postgres_url")
