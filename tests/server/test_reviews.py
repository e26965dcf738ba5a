"""Post-game reviews over HTTP: computed once in the workers, stored, the same as review_game."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

import sansu
from sansu.ai.review import review_game
from sansu.server.analysis import reviews as reviews_module
from sansu.server.analysis.reviews import SEED, PartRequest, reviews
from sansu.server.base.ratelimit import RateLimits
from sansu.server.base.store import make_engine
from tests.server.conftest import Api, make_client

SIMULATIONS = 16


@pytest.fixture
def review_client(db_path: str) -> Any:
    with make_client(db_path, review_simulations=SIMULATIONS) as client:
        yield client


def finished_game(api: Api, game: str = "uttt", seed: int = 3) -> str:
    gid, tokens = api.two_players(game)
    end = api.play_random(gid, tokens, random.Random(seed))
    assert end["status"] == "finished"
    return gid


def wait_done(client: TestClient, gid: str) -> dict[str, Any]:
    for _ in range(600):
        r = client.get(f"/api/games/{gid}/review")
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["status"] in ("running", "done"), body
        if body["status"] == "done":
            return body["review"]
        assert 0 <= body["percent"] <= 100 and body["done"] <= body["total"]
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def expected(client: TestClient, gid: str) -> dict[str, Any]:
    record = sansu.GameRecord.from_dict(client.get(f"/api/games/{gid}/record").json())
    game = record.load()
    return review_game(game, record.moves, simulations=SIMULATIONS, seed=SEED).to_dict()


def stored_rows(db: str) -> list[tuple[Any, ...]]:
    engine = make_engine(db)
    with engine.connect() as c:
        rows = [tuple(r) for r in c.execute(sa.select(reviews))]
    engine.dispose()
    return rows


def test_a_finished_game_is_reviewed_once_and_stored(
    review_client: TestClient, db_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    parts: list[tuple[int, int]] = []
    real = reviews_module.analyse_part

    def counted(request: reviews_module.PartRequest) -> list[Any]:
        parts.append((request.start, request.stop))
        return real(request)

    monkeypatch.setattr(reviews_module, "analyse_part", counted)
    api = Api(review_client)
    gid = finished_game(api)
    assert review_client.get(f"/api/games/{gid}/review").status_code == 404
    first = review_client.post(f"/api/games/{gid}/review")
    second = review_client.post(f"/api/games/{gid}/review")
    assert first.status_code in (200, 202) and second.status_code in (200, 202)
    review = wait_done(review_client, gid)
    assert review == expected(review_client, gid)
    plies = len(review["moves"]) + 1
    covered = sorted(p for start, stop in parts for p in range(start, stop))
    assert covered == list(range(plies))  # every position searched exactly once
    again = review_client.post(f"/api/games/{gid}/review")
    assert again.status_code == 200 and again.json() == {"status": "done", "review": review}
    assert len(parts) == len(set(parts))
    rows = stored_rows(db_path)
    assert len(rows) == 1 and rows[0][0] == gid and rows[0][3] == SIMULATIONS
    assert json.loads(rows[0][-1]) == review


def test_the_review_survives_a_restart(db_path: str) -> None:
    with make_client(db_path, review_simulations=SIMULATIONS) as client:
        gid = finished_game(Api(client), "sumodoku", seed=5)
        assert client.post(f"/api/games/{gid}/review").status_code == 202
        review = wait_done(client, gid)
    with make_client(db_path, review_simulations=SIMULATIONS) as client:
        answer = client.post(f"/api/games/{gid}/review")
        assert answer.status_code == 200 and answer.json()["review"] == review
        assert client.get(f"/api/games/{gid}/review").json()["review"] == review
    assert review["game"] == "sumodoku" and review["simulations"] == SIMULATIONS


def test_a_game_in_play_is_never_reviewed(review_client: TestClient, db_path: str) -> None:
    api = Api(review_client)
    gid, tokens = api.two_players("uttt")
    api.play_random(gid, tokens, random.Random(1), stop_after=5)
    answer = review_client.post(f"/api/games/{gid}/review")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_in_play"
    assert review_client.get(f"/api/games/{gid}/review").status_code == 404
    assert stored_rows(db_path) == []


def test_an_imported_record_is_reviewed(review_client: TestClient) -> None:
    game = sansu.load_game("uttt")
    state = game.initial_state()
    rng = random.Random(11)
    moves = []
    for _ in range(12):  # an unfinished record: an archived position, not a game in play
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    record = sansu.GameRecord("uttt", {}, moves, {}).to_dict()
    imported = review_client.post("/api/records", json=record)
    assert imported.status_code == 201, imported.text
    gid = imported.json()["id"]
    assert review_client.post(f"/api/games/{gid}/review").status_code == 202
    review = wait_done(review_client, gid)
    assert review == expected(review_client, gid)
    assert review["moves"] == moves


@pytest.mark.parametrize("gid", ["nosuchgame", "x" * 24])
def test_an_unknown_game_is_404(review_client: TestClient, gid: str) -> None:
    for method in (review_client.post, review_client.get):
        answer = method(f"/api/games/{gid}/review")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_such_game"


def test_bad_ids_are_refused_cleanly(review_client: TestClient, db_path: str) -> None:
    for bad in ("x" * 25, "%00", "a%20b" * 10):
        answer = review_client.post(f"/api/games/{bad}/review")
        assert answer.status_code in (404, 422), answer.text
        assert "error" in answer.json()
    refused = review_client.put("/api/games/abc/review")
    assert refused.status_code == 405 and refused.headers["allow"] == "GET, HEAD, POST"
    assert stored_rows(db_path) == []


def test_asking_for_reviews_counts_against_the_creation_limit(tmp_path: Path) -> None:
    limits = RateLimits(requests=None, creates="3/minute")
    with make_client(
        str(tmp_path / "s.db"), rate_limits=limits, review_simulations=SIMULATIONS
    ) as client:
        gid, tokens = Api(client).two_players("uttt")  # one creation and one join
        Api(client).play_random(gid, tokens, random.Random(2))
        assert client.post(f"/api/games/{gid}/review").status_code in (200, 202)
        refused = client.post(f"/api/games/{gid}/review")
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        wait_done(client, gid)


def test_bad_review_budgets_are_refused() -> None:
    for bad in (0, -1, True, 1.5):
        with pytest.raises(ValueError):
            reviews_module.Reviews(None, None, None, None, simulations=bad)  # type: ignore[arg-type]


class RecordingRunner:
    """The computer workers, in the test's threads, recording every job asked of them."""

    def __init__(self) -> None:
        self.jobs: list[Any] = []

    async def run(self, fn: Any, request: Any, **_: Any) -> Any:
        self.jobs.append(request)
        return await asyncio.to_thread(fn, request)


class HeldRunner:
    """Computer workers whose searches never end (until cancelled)."""

    async def run(self, fn: Any, request: Any, **_: Any) -> Any:
        await asyncio.sleep(3600)


def test_each_position_is_its_own_job_so_a_move_waits_for_one_position_at_most(
    review_client: TestClient,
) -> None:
    runner = RecordingRunner()
    review_client.app.state.reviews.runner = runner  # type: ignore[attr-defined]
    gid = finished_game(Api(review_client))
    assert review_client.post(f"/api/games/{gid}/review").status_code == 202
    assert wait_done(review_client, gid) == expected(review_client, gid)
    parts = [job for job in runner.jobs if isinstance(job, PartRequest)]
    total = len(review_client.get(f"/api/games/{gid}/record").json()["moves"]) + 1
    assert [(p.start, p.stop) for p in parts] == [(k, k + 1) for k in range(total)]


def test_reviews_are_bounded_per_client_and_per_server_and_refusals_start_nothing(
    review_client: TestClient,
) -> None:
    reviews = review_client.app.state.reviews  # type: ignore[attr-defined]
    reviews.runner = HeldRunner()
    reviews.per_client, reviews.max_running = 2, 3
    api = Api(review_client)
    games = [finished_game(api, seed=k) for k in range(4)]
    for gid in games[:2]:
        assert review_client.post(f"/api/games/{gid}/review").status_code == 202
    assert review_client.post(f"/api/games/{games[0]}/review").status_code == 202  # the same run
    refused = review_client.post(f"/api/games/{games[2]}/review")
    assert refused.status_code == 429, refused.text
    error = refused.json()["error"]
    assert error["code"] == "too_many_reviews" and error["detail"]["limit"] == 2
    assert review_client.get(f"/api/games/{games[2]}/review").status_code == 404
    reviews.per_client = 10  # as if other clients asked: the server's bound
    assert review_client.post(f"/api/games/{games[2]}/review").status_code == 202
    busy = review_client.post(f"/api/games/{games[3]}/review")
    assert busy.status_code == 503 and busy.json()["error"]["code"] == "busy"
    assert review_client.get(f"/api/games/{games[3]}/review").status_code == 404
    assert sorted(reviews.running) == sorted(games[:3])
