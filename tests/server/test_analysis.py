"""The analysis board over HTTP: positions set up and searched deeper, refusals, limits."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import sansu
from sansu.server.analysis.board import PER_CLIENT, Analyses, StepRequest
from tests.server.conftest import Api, bearer, make_client

BUDGETS = (8, 32)


@pytest.fixture
def analysis_client(db_path: str) -> Iterator[TestClient]:
    with make_client(db_path, analysis_simulations=BUDGETS) as client:
        yield client


@pytest.fixture
def aapi(analysis_client: TestClient) -> Api:
    return Api(analysis_client)


def start(client: TestClient, expect: int = 201, token: str | None = None, **body: Any) -> Any:
    r = client.post("/api/analysis", json=body, headers=bearer(token))
    assert r.status_code == expect, r.text
    return r.json()


def until_done(client: TestClient, sid: str) -> list[dict[str, Any]]:
    """Every answer, asking for each deeper step in turn, until the session stops."""
    seen: list[dict[str, Any]] = []
    step = 0
    for _ in range(200):
        r = client.get(f"/api/analysis/{sid}", params={"after": step, "wait": 5})
        assert r.status_code == 200, r.text
        news = r.json()
        if news["step"] > step:
            seen.append(news)
            step = news["step"]
        if news["done"]:
            return seen
    raise AssertionError("the analysis did not stop")


def finished(api: Api, game: str = "uttt", seed: int = 4) -> str:
    gid, tokens = api.two_players(game)
    assert api.play_random(gid, tokens, random.Random(seed))["status"] == "finished"
    return gid


def test_a_position_set_up_by_moves_is_searched_deeper_until_the_limit(
    analysis_client: TestClient,
) -> None:
    body = start(analysis_client, game="uttt", moves=["R5C5 ", "r4c4"])
    assert body["moves"] == ["r5c5", "r4c4"] and body["base"] == 0 and body["game_id"] is None
    assert body["movers"] == [0, 1]  # the move list names who played each move
    assert body["view"]["to_move"] == 0 and body["view"]["ply"] == 2
    news = until_done(analysis_client, body["id"])
    sims = [n["simulations"] for n in news]  # the latest step each time: deeper and deeper
    assert sims == sorted(set(sims)) and set(sims) <= {8, 16, 32} and sims[-1] == 32
    assert news[-1]["reason"] == "limit" or news[-1]["reason"] == "proven"
    state = sansu.load_game("uttt").play_moves(["r5c5", "r4c4"])
    legal = {str(m) for m in state.legal_moves()}
    for n in news:
        a = n["analysis"]
        assert 0.0 <= a["chance"] <= 1.0 and a["to_move"] == 0
        assert a["best"] == a["pv"][0] == a["candidates"][0]["move"]
        assert {c["move"] for c in a["candidates"]} <= legal
        line = state
        for move in a["pv"]:  # the best line is playable from the position
            line = line.play(move)


def test_a_finished_games_position_at_a_ply_with_a_variation(aapi: Api) -> None:
    gid = finished(aapi)
    game = aapi.get(gid)
    texts = [m["move"] for m in game["moves"]]
    state = sansu.load_game("uttt").play_moves(texts[:3])
    variation = str(state.legal_moves()[-1])
    body = start(aapi.client, game_id=gid, ply=3, moves=[variation])
    assert body["moves"] == [*texts[:3], variation] and body["base"] == 3
    assert body["game_id"] == gid and body["ply"] == 3 and body["view"]["ply"] == 4
    whole = start(aapi.client, game_id=gid)  # default: the final position
    assert whole["moves"] == texts and whole["view"]["result"] is not None
    assert until_done(aapi.client, whole["id"])[-1]["reason"] == "proven"
    r = aapi.client.post("/api/analysis", json={"game_id": gid, "ply": len(texts) + 1})
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_position"


def test_a_game_in_play_is_refused_to_its_players_and_to_spectators_of_rated_games(
    aapi: Api,
) -> None:
    gid, tokens = aapi.two_players("uttt")
    refused = start(aapi.client, 403, token=tokens[0], game_id=gid)
    assert refused["error"]["code"] == "analysis_refused"
    assert "playing" in refused["error"]["message"]
    assert start(aapi.client, 201, game_id=gid)["game_id"] == gid  # a casual game's spectator
    signed = aapi.client.post("/api/account/signup", json={"name": "Ann", "password": "p" * 12})
    csrf = {"X-CSRF-Token": signed.json()["csrf_token"]}
    made = aapi.client.post("/api/games", json={"game": "uttt", "casual": False}, headers=csrf)
    rated = made.json()["id"]
    aapi.client.cookies.clear()  # from here on, a spectator
    refused = start(aapi.client, 403, game_id=rated)
    assert refused["error"]["code"] == "analysis_refused" and "rated" in refused["error"]["message"]
    hidden, _ = aapi.two_players("challenge")
    assert start(aapi.client, 403, game_id=hidden)["error"]["code"] == "analysis_refused"
    assert aapi.client.app.state.analyses.running() <= 2  # type: ignore[attr-defined]


def test_bad_positions_are_refused_and_start_nothing(analysis_client: TestClient) -> None:
    analyses = analysis_client.app.state.analyses  # type: ignore[attr-defined]
    illegal = start(analysis_client, 422, game="uttt", moves=["r5c5", "r5c5"])
    assert illegal["error"]["code"] == "illegal_move"
    assert illegal["error"]["message"].startswith("move 2, ")
    assert start(analysis_client, 422, game="uttt", options={"nope": 1})["error"]["code"] == (
        "bad_options"
    )
    assert start(analysis_client, 422, game="chess")["error"]["code"] == "unknown_game"
    assert start(analysis_client, 422, moves=["r5c5"])["error"]["code"] == "invalid_request"
    assert start(analysis_client, 404, game_id="nosuchgame")["error"]["code"] == "no_such_game"
    assert not analyses.sessions
    r = analysis_client.get("/api/analysis/nosuchanalysis")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_analysis"
    r = analysis_client.put("/api/analysis")
    assert r.status_code == 405 and "POST" in r.headers["allow"]


def test_analysis_has_aids_on_sumodoku_lists_every_placement_and_hints(
    analysis_client: TestClient,
) -> None:
    body = start(analysis_client, game="sumodoku", moves=["r1c1=1"])
    placements = [m for m in body["view"]["legal_moves"] if "=" in m]
    state = sansu.load_game("sumodoku").play_moves(["r1c1=1"])
    assert sorted(placements) == sorted(str(m) for m in state.legal_moves() if "=" in str(m))
    assert body["options"]["aids"] is True
    r = analysis_client.get(f"/api/analysis/{body['id']}/hint", params={"cell": "r1c2"})
    assert r.status_code == 200, r.text
    assert r.json()["kind"] == "colours" and 1 not in r.json()["cells"]["r1c2"]
    r = analysis_client.get(f"/api/analysis/{body['id']}/hint", params={"cell": "r1c1"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_cell"
    analysis_client.delete(f"/api/analysis/{body['id']}")


def test_a_client_runs_at_most_per_client_analyses_and_a_stopped_one_ends(
    analysis_client: TestClient,
) -> None:
    analyses = analysis_client.app.state.analyses  # type: ignore[attr-defined]
    analyses.runner = HeldRunner()
    ids = [
        start(analysis_client, game="uttt", moves=[f"r1c{k + 1}"])["id"] for k in range(PER_CLIENT)
    ]
    refused = start(analysis_client, 429, game="uttt")
    assert refused["error"]["code"] == "too_many_analyses"
    assert analyses.running() == PER_CLIENT
    assert analysis_client.delete(f"/api/analysis/{ids[0]}").status_code == 204
    news = analysis_client.get(f"/api/analysis/{ids[0]}", params={"wait": 0}).json()
    assert news["done"] and news["reason"] == "stopped"
    ids[0] = start(analysis_client, game="uttt")["id"]
    assert analyses.running() == PER_CLIENT
    for sid in ids:
        analysis_client.delete(f"/api/analysis/{sid}")
    assert analyses.running() == 0


class HeldRunner:
    """A computer pool whose searches never end (until cancelled)."""

    async def run(self, fn: Any, request: Any) -> Any:
        await asyncio.sleep(3600)


class CountingRunner:
    """A computer pool that answers at once, recording each budget asked for."""

    def __init__(self) -> None:
        self.budgets: list[int] = []

    async def run(self, fn: Any, request: StepRequest) -> dict[str, Any]:
        self.budgets.append(request.simulations)
        await asyncio.sleep(0)
        return {"simulations": request.simulations, "proven": False}


class Background:
    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        return asyncio.get_running_loop().create_task(coro)


def test_budgets_double_up_to_the_limit_and_news_waits_for_a_deeper_step() -> None:
    async def scenario() -> tuple[list[int], list[int], str | None]:
        runner = CountingRunner()
        analyses = Analyses(runner, Background(), budgets=(4, 40))  # type: ignore[arg-type]
        state = sansu.load_game("uttt").initial_state()
        session = analyses.start("c", StepRequest("uttt", {}, (), 1), state)
        steps = []
        after = 0
        while True:
            news = await analyses.news(session.id, after, 5.0)
            steps.append(news["step"])
            after = news["step"]
            if news["done"]:
                return runner.budgets, steps, news["reason"]

    budgets, steps, reason = asyncio.run(scenario())
    assert budgets == [4, 8, 16, 32, 40] and reason == "limit"
    assert steps == sorted(steps) and steps[-1] == 5


class GatedRunner:
    """A computer pool whose searches end one by one, when the test lets them."""

    def __init__(self) -> None:
        self.budgets: list[int] = []
        self.gate: asyncio.Queue[int] = asyncio.Queue()

    async def run(self, fn: Any, request: StepRequest) -> dict[str, Any]:
        self.budgets.append(request.simulations)
        await self.gate.get()
        return {"simulations": request.simulations, "proven": False}


def test_nobody_asking_stops_the_search_and_so_does_the_time_cap() -> None:
    async def scenario(idle: float, cap: float) -> tuple[list[int], str | None]:
        now = [0.0]
        runner = GatedRunner()
        analyses = Analyses(
            runner,  # type: ignore[arg-type]
            Background(),  # type: ignore[arg-type]
            budgets=(1, 1 << 20),
            idle=idle,
            time_cap=cap,
            clock=lambda: now[0],
        )
        state = sansu.load_game("uttt").initial_state()
        session = analyses.start("c", StepRequest("uttt", {}, (), 1), state)
        for step in range(3):  # three steps while the page asks...
            runner.gate.put_nowait(1)
            assert (await analyses.news(session.id, step, 5.0))["step"] == step + 1
        now[0] = 100.0  # ...then a long silence (or a long analysis)
        if cap < 100:
            analyses.get(session.id)  # still asked for: only the cap stops it
        runner.gate.put_nowait(1)  # the step under way ends; no other starts
        assert session.task is not None
        await session.task
        return runner.budgets, session.reason

    budgets, reason = asyncio.run(scenario(idle=15.0, cap=1000.0))
    assert reason == "idle" and budgets == [1, 2, 4, 8]
    budgets, reason = asyncio.run(scenario(idle=1000.0, cap=50.0))
    assert reason == "time" and budgets == [1, 2, 4, 8]


def test_a_position_set_up_by_moves_keeps_every_option_for_the_next(
    analysis_client: TestClient,
) -> None:
    body = start(analysis_client, game="challenge", options={"seed": 5})
    assert body["options"]["seed"] == 5  # so the next move is set up in the same puzzle
    again = start(analysis_client, game="challenge", options=body["options"])
    assert again["view"]["cells"] == body["view"]["cells"]
    for sid in (body["id"], again["id"]):
        analysis_client.delete(f"/api/analysis/{sid}")


@pytest.mark.parametrize("full", ["client", "server"])
def test_a_refused_analysis_costs_no_setting_up(
    analysis_client: TestClient, monkeypatch: pytest.MonkeyPatch, full: str
) -> None:
    """Over a limit the request is refused before its position is built (a Sudoku
    Challenge's puzzle costs tens of milliseconds to make)."""
    from sansu.server.analysis import routes

    analyses = analysis_client.app.state.analyses  # type: ignore[attr-defined]
    if full == "client":
        analyses.per_client = 0
    else:
        analyses.max_running = 0
    built: list[str] = []
    original = routes.with_aids

    def counted(game_id: str, options: dict[str, Any]) -> Any:
        built.append(game_id)
        return original(game_id, options)

    monkeypatch.setattr(routes, "with_aids", counted)
    refused = start(analysis_client, 429 if full == "client" else 503, game="challenge")
    assert refused["error"]["code"] == ("too_many_analyses" if full == "client" else "busy")
    assert built == [] and analyses.running() == 0
