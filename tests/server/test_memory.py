"""Bounded memory: idle games leave memory and come back whole; clients are rate limited."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from sansu.server.base.ratelimit import RateLimits
from sansu.server.play import seating
from tests.server.conftest import Api, bearer, make_client


def test_an_evicted_game_resumes_with_its_moves_and_clocks(api: Api) -> None:
    service = api.client.app.state.service
    gid, tokens = api.two_players(
        "uttt", time_control={"initial_seconds": 300, "increment_seconds": 2}
    )
    state = 0
    for seat, move in ((0, "r5c5"), (1, "r4c4"), (0, "r2c2")):
        r = api.move(gid, tokens[seat], move, state)
        assert r.status_code == 200, r.text
        state = r.json()["state"]
    before = api.get(gid, tokens[1])
    assert service.rounds.evict(gid, active=True) and gid not in service.rounds.games
    after = api.get(gid, tokens[1])
    assert gid in service.rounds.games
    for key in ("state", "seq", "moves", "view", "seats", "status", "time_control"):
        assert after[key] == before[key], key
    clock_before, clock_after = before["clock"], after["clock"]
    assert clock_after["running"] == clock_before["running"] == 1
    assert clock_after["flag_deadline"] == clock_before["flag_deadline"]
    assert clock_after["remaining"][0] == clock_before["remaining"][0]
    r = api.move(gid, tokens[1], "r4c5", state)  # play goes on where it stood
    assert r.status_code == 200, r.text


def test_a_game_read_while_it_is_being_created_is_the_one_in_memory(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its row is in the store a moment before memory holds it: a reader that finds it
    then (a bot's event stream listing its games) must get the same game, not a copy
    loaded from the store that the second seat, taken next, would never reach."""
    service = api.client.app.state.service
    rounds, store = service.rounds, service.store
    monkeypatch.setattr(seating, "new_id", lambda: "racegame1")
    written = store.write
    readers: list[asyncio.Task[Any]] = []

    async def write_then_read(job: Any) -> Any:
        done = await written(job)
        if not readers:  # the row is stored; memory does not hold the game yet
            readers.append(asyncio.create_task(rounds.get("racegame1")))
            await asyncio.sleep(0.2)  # the reader's load runs meanwhile
        return done

    monkeypatch.setattr(store, "write", write_then_read)

    async def create_and_join() -> tuple[Any, Any]:
        live, _ = await service.create("uttt", take=[0])
        await service.join(live.id, seat=1, name="second")
        return live, await readers[0]

    live, read = api.client.portal.call(create_and_join)
    assert read is live and service.rounds.games["racegame1"] is live
    assert live.ready
    assert api.client.get("/api/games/racegame1").json()["seats"][1]["name"] == "second"


def test_an_evicted_game_still_loses_on_time(api: Api) -> None:
    service = api.client.app.state.service
    gid, _ = api.two_players("uttt", time_control={"initial_seconds": 1, "increment_seconds": 0})
    assert service.rounds.evict(gid, active=True)
    end = time.monotonic() + 10
    finished: list[dict[str, object]] = []
    while not finished and time.monotonic() < end:
        time.sleep(0.1)
        finished = api.client.get("/api/games?status=finished").json()["games"]
    assert [g["id"] for g in finished] == [gid]
    assert finished[0]["termination"] == "time"


def test_idle_games_leave_memory_unless_someone_is_connected(tmp_path: Path) -> None:
    with make_client(str(tmp_path / "g.db"), keep_idle=0, keep_finished=0) as client:
        api = Api(client)
        service = client.app.state.service
        ids = [api.create("uttt")["id"] for _ in range(30)]
        watched = ids[0]
        with client.websocket_connect(f"/api/games/{watched}/ws") as ws:
            ws.receive_json()
            assert service.rounds.evict_idle() == 29
            assert list(service.rounds.games) == [watched]
        assert service.rounds.evict_idle() == 1 and not service.rounds.games
        assert api.get(ids[5])["id"] == ids[5]  # any game loads again on demand
        health = client.get("/api/health").json()
        assert health["games_in_memory"] == 1


def test_a_computer_that_thinks_keeps_its_game_in_memory(api: Api) -> None:
    service = api.client.app.state.service
    gid = api.create("uttt", seats=[{"kind": "human"}, {"kind": "computer"}])["id"]
    live = service.rounds.games[gid]
    live.computer_version = live.version  # as while a search is under way
    assert not service.rounds.evict(gid, active=True)
    live.computer_version = -1
    assert service.rounds.evict(gid, active=True)


def test_creates_and_requests_are_limited_per_client(tmp_path: Path) -> None:
    limits = RateLimits(requests="12/minute", creates="2/minute")
    with make_client(str(tmp_path / "g.db"), rate_limits=limits) as client:
        api = Api(client)
        first = api.create("uttt")
        api.create("uttt")
        r = client.post("/api/games", json={"game": "uttt"})
        assert r.status_code == 429
        error = r.json()["error"]
        assert error["code"] == "rate_limited" and "creates" in error["message"]
        assert int(r.headers["retry-after"]) == error["detail"]["retry_after"] >= 1
        assert client.get("/api/games").json()["total"] == 2  # nothing was created
        url = f"/api/games/{first['id']}/ws"
        with client.websocket_connect(url, subprotocols=["sansu", f"token.{first['token']}"]) as ws:
            ws.receive_json()
            answers = []
            for i in range(12):
                ws.send_json({"type": "ping", "id": i})
                while (m := ws.receive_json())["type"] not in ("pong", "error"):
                    pass
                answers.append(m)
            assert answers[-1]["type"] == "error" and answers[-1]["code"] == "rate_limited"
            assert answers[0] == {"type": "pong", "id": 0}
        r = client.get(f"/api/games/{first['id']}", headers=bearer(first["token"]))
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert client.get("/").status_code == 200  # the web app's files are not counted
