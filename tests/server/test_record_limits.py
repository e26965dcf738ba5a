"""Imported records are bounded: the body, the moves, every string and the metadata; an
over-cap record is refused and stores nothing; imports are counted per client per day."""

from __future__ import annotations

import gc
import json
import random
import time
import tracemalloc
from typing import Any

import pytest
from fastapi.testclient import TestClient

import sansu
from sansu.server.base.ratelimit import RateLimits
from tests.server.conftest import Api, make_client

LONGEST = 1000
"""The moves cap (the longest real games, Challenge with 5 players, have about 330)."""


def played(game: str, options: dict[str, Any], seed: int) -> list[str]:
    """The moves of a random game to its end."""
    rng = random.Random(seed)
    state = sansu.load_game(game, **options).initial_state()
    moves = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    return moves


def total(c: TestClient) -> int:
    return int(c.get("/api/games").json()["total"])


def post(c: TestClient, body: Any) -> Any:
    return c.post(
        "/api/records",
        content=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
    )


def test_the_longest_real_games_import_with_full_metadata(api: Api) -> None:
    c = api.client
    options = {"players": 5}
    moves = played("challenge", options, seed=7)
    players = [{"seat": i, "kind": "human", "name": f"player-{i}" * 6} for i in range(5)]
    metadata = {"players": players, "event": "e" * 256, "tags": ["t" * 40] * 20}
    r = post(c, {"game": "challenge", "options": options, "moves": moves, "metadata": metadata})
    assert r.status_code == 201, r.text
    assert r.json()["ply"] == len(moves) > 200


UTTT = {"game": "uttt", "moves": ["r5c5"]}


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("too many moves", {"game": "uttt", "moves": ["r5c5"] * (LONGEST + 1)}),
        ("a long move", {"game": "uttt", "moves": ["r5c5" * 9]}),
        ("a long event", {**UTTT, "metadata": {"event": "e" * 257}}),
        ("a long player name", {**UTTT, "metadata": {"players": [{"name": "n" * 257}]}}),
        ("a long key", {**UTTT, "metadata": {"k" * 257: 1}}),
        ("many tags", {**UTTT, "metadata": {"tags": ["tag"] * 3000}}),
        ("deep metadata", {**UTTT, "metadata": {"a": [[[[[[[[[[["deep"]]]]]]]]]]]}}),
        ("a long game id", {"game": "u" * 300, "moves": []}),
        ("a long option", {"game": "challenge", "options": {"puzzle": "1" * 300}, "moves": []}),
    ],
)
def test_an_over_cap_record_is_refused_and_stores_nothing(api: Api, name: str, body: Any) -> None:
    c = api.client
    before = total(c)
    r = post(c, body)
    assert r.status_code == 422, (name, r.text)
    error = r.json()["error"]
    assert error["code"] == "record_too_large", (name, error)
    assert total(c) == before


def test_a_record_body_over_its_cap_is_refused_before_it_is_read(api: Api) -> None:
    c = api.client
    before = total(c)
    r = post(c, {**UTTT, "metadata": {"notes": ["x" * 200] * 400}})  # about 80 KiB
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
    assert "65536" in r.json()["error"]["message"]
    assert total(c) == before


def test_imports_are_counted_per_client_per_day(db_path: str) -> None:
    limits = RateLimits(requests=None, creates=None, accounts=None, imports="3/day")
    with make_client(db_path, rate_limits=limits) as c:
        for _ in range(3):
            assert post(c, UTTT).status_code == 201
        r = post(c, UTTT)
        assert r.status_code == 429, r.text
        error = r.json()["error"]
        assert error["code"] == "too_many_imports"
        assert 3600 < error["detail"]["retry_after"] <= 86400
        assert r.headers["retry-after"] == str(error["detail"]["retry_after"])
        assert total(c) == 3
        assert c.post("/api/games", json={"game": "uttt"}).status_code == 201  # not an import


def test_imported_games_give_their_memory_back_when_they_leave_it(api: Api) -> None:
    """Python's own count of allocated memory (tracemalloc) comes back to where it was
    once imported games leave memory: nothing of them stays behind."""
    c = api.client
    rounds = c.app.state.service.rounds
    record = {
        "game": "challenge",
        "options": {"players": 5},
        "moves": played("challenge", {"players": 5}, 3),
    }
    record["metadata"] = {"event": "e" * 256, "tags": ["t" * 200] * 25}

    def imported(n: int) -> None:
        for _ in range(n):
            assert post(c, record).status_code == 201

    def leave() -> None:
        rounds.evict_idle(now=time.monotonic() + 10 * rounds.keep_finished)
        gc.collect()

    imported(3)  # warm: caches, compiled statements, first allocations
    leave()
    tracemalloc.start()
    try:
        imported(1)
        leave()
        baseline = tracemalloc.get_traced_memory()[0]
        imported(40)
        during = tracemalloc.get_traced_memory()[0]
        leave()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert not rounds.games
    assert during - baseline > 40 * 20_000  # the games were in memory
    assert after - baseline < 256 * 1024, (baseline, during, after)
