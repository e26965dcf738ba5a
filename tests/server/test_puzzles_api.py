"""Rated puzzles over HTTP: choosing, judging with the engine, Glicko-2 on first attempts only,
anonymous learners, the daily puzzle, the dashboard, and a review's blunders as exercises.

The puzzles are the hand-built ones of ``tests/puzzle_data`` (served through
``$SANSU_PUZZLE_DATA``); the first test proves each of them with the engine.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select

import sansu
from sansu.puzzles import Puzzle
from sansu.server.accounts import users
from sansu.server.learn import DATA_ENV, PuzzleBook, PuzzleRatings
from sansu.server.learn.puzzles import judge, wins_at_once
from sansu.server.learn.tables import PuzzleAttemptRow, PuzzlePlayerRow, PuzzleRatingRow
from tests.server.accounts_fixtures import FAST_HASHER
from tests.server.conftest import make_client

DATA = Path(__file__).resolve().parents[1] / "puzzle_data"
GAMES = ("uttt", "sansumoku", "thirtyfive", "sumodoku")
CSRF = "X-CSRF-Token"


def fixture_puzzles() -> list[Puzzle]:
    return [
        Puzzle.from_dict(d)
        for game in GAMES
        for d in json.loads((DATA / f"{game}.json").read_text(encoding="utf-8"))
    ]


def position(puzzle: Puzzle) -> Any:
    return sansu.load_game(puzzle.game, **puzzle.options).play_moves(puzzle.moves)


def winners(state: Any) -> list[str]:
    return [str(m) for m in state.legal_moves() if wins_at_once(state, state.play(m))]


@pytest.mark.parametrize("puzzle", fixture_puzzles(), ids=lambda p: p.id)
def test_each_hand_built_puzzle_has_exactly_one_winning_line(puzzle: Puzzle) -> None:
    """Every legal first move is tried: only the solution's wins (at once, or, for a
    longer puzzle, against every reply)."""
    state = position(puzzle)
    assert state.result is None
    if len(puzzle.solution) == 1:
        assert winners(state) == [puzzle.solution[0]]
        return
    assert winners(state) == []

    def forces(move: Any) -> bool:
        after = state.play(move)
        return after.result is None and all(
            after.play(r).result is None and winners(after.play(r)) for r in after.legal_moves()
        )

    assert [str(m) for m in state.legal_moves() if forces(m)] == [puzzle.solution[0]]
    reply = state.play(puzzle.solution[0]).play(puzzle.solution[1])
    assert winners(reply) == [puzzle.solution[2]]


@pytest.fixture
def web(db_path: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv(DATA_ENV, str(DATA))
    monkeypatch.setattr(users, "HASHER", FAST_HASHER)
    monkeypatch.setattr(users, "_DUMMY_HASH", FAST_HASHER.hash("dummy password"))
    with make_client(db_path) as c:
        yield c


def sign_up(c: TestClient, name: str) -> str:
    r = c.post("/api/account/signup", json={"name": name, "password": "correct horse"})
    assert r.status_code in (200, 201), r.text
    return r.json()["csrf_token"]


def rows(c: TestClient) -> dict[str, int]:
    engine = c.app.state.store.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return {
            t.__tablename__: conn.execute(select(func.count()).select_from(t.__table__)).scalar()
            for t in (PuzzleRatingRow, PuzzlePlayerRow, PuzzleAttemptRow)
        }


def wrong_move(puzzle_id: str) -> str:
    puzzle = PuzzleBook(DATA).get(puzzle_id)
    state = position(puzzle)
    return next(str(m) for m in state.legal_moves() if str(m) != puzzle.solution[0])


def attempt(c: TestClient, pid: str, moves: list[str], csrf: str | None = None, **body: Any) -> Any:
    headers = {CSRF: csrf} if csrf else {}
    return c.post(f"/api/puzzles/{pid}/attempt", json={"moves": moves, **body}, headers=headers)


def test_the_list_counts_each_games_puzzles(web: TestClient) -> None:
    answer = web.get("/api/puzzles").json()
    counts = {g["game"]: g["count"] for g in answer["games"]}
    assert counts == {"uttt": 4, "sansumoku": 3, "sumodoku": 3, "thirtyfive": 3}
    assert all(g["daily"].startswith(g["game"]) for g in answer["games"])
    one = web.get("/api/puzzles/id/sumodoku-0002").json()
    assert one["moves"] and one["solution"] and one["seat"] in (0, 1)
    assert one["options"] == {"seed": 7}


def test_anonymous_attempts_are_judged_and_rated_in_the_answer_only(web: TestClient) -> None:
    before = rows(web)
    won = attempt(web, "uttt-0002", ["r0c0".replace("r0c0", solution("uttt-0002"))]).json()
    assert won["solved"] and won["rated"] is False and won["stored"] is False
    assert won["rating"]["before"] == 1500 and won["rating"]["after"] > 1500
    sent = {"rating": 1600.0, "deviation": 80.0, "volatility": 0.06}
    lost = attempt(web, "uttt-0002", [wrong_move("uttt-0002")], rating=sent).json()
    assert not lost["solved"] and lost["failed_at"] == 0
    assert lost["rating"]["before"] == 1600 and lost["rating"]["after"] < 1600
    assert lost["reason"] == f"the solution plays {solution('uttt-0002')} here"
    assert lost["solution"] == [solution("uttt-0002")]
    assert rows(web) == before == {"puzzle_ratings": 0, "puzzle_players": 0, "puzzle_attempts": 0}


def solution(pid: str) -> str:
    return PuzzleBook(DATA).get(pid).solution[0]


def test_first_attempt_rates_both_and_later_ones_change_nothing(web: TestClient) -> None:
    csrf = sign_up(web, "Alice")
    won = attempt(web, "sansumoku-0002", [solution("sansumoku-0002")], csrf).json()
    assert won["solved"] and won["rated"]
    assert won["rating"]["after"] > won["rating"]["before"] == 1500
    assert won["puzzle_rating"]["after"] < won["puzzle_rating"]["before"] == 1500
    assert won["streak"] == 1
    board = web.get("/api/account/puzzles").json()
    again = attempt(web, "sansumoku-0002", [wrong_move("sansumoku-0002")], csrf).json()
    assert not again["solved"] and again["rated"] is False and again["first_solved"] is True
    assert web.get("/api/account/puzzles").json() == board
    puzzle_now = web.get("/api/puzzles/id/sansumoku-0002").json()["rating"]
    assert puzzle_now == round(won["puzzle_rating"]["after"])

    lost = attempt(web, "sansumoku-0003", [wrong_move("sansumoku-0003")], csrf).json()
    assert lost["rated"] and not lost["solved"] and lost["streak"] == 0
    assert lost["rating"]["after"] < lost["rating"]["before"] == won["rating"]["after"]
    assert lost["puzzle_rating"]["after"] > lost["puzzle_rating"]["before"] == 1750
    mine = web.get("/api/account/puzzles").json()
    assert mine["games"]["sansumoku"]["attempts"] == 2
    assert mine["games"]["sansumoku"]["solved"] == 1
    assert mine["games"]["sansumoku"]["best_streak"] == 1
    assert [r["puzzle_id"] for r in mine["recent"]] == ["sansumoku-0003", "sansumoku-0002"]
    assert rows(web) == {"puzzle_ratings": 2, "puzzle_players": 1, "puzzle_attempts": 2}


def test_a_longer_puzzle_plays_the_reply_and_accepts_the_line(web: TestClient) -> None:
    full = PuzzleBook(DATA).get("uttt-0004").solution
    answer = attempt(web, "uttt-0004", [full[0], full[2]]).json()
    assert answer["solved"] and answer["line"] == list(full)
    short = attempt(web, "uttt-0004", [full[0]])
    assert short.status_code == 422 and short.json()["error"]["code"] == "incomplete"
    failed = attempt(web, "uttt-0004", [wrong_move("uttt-0004")]).json()
    assert not failed["solved"] and failed["failed_at"] == 0
    extra = attempt(web, "uttt-0004", [wrong_move("uttt-0004"), full[2]])
    assert extra.status_code == 422 and extra.json()["error"]["code"] == "too_many_moves"


def test_an_illegal_move_is_refused_with_the_engines_reason(web: TestClient) -> None:
    csrf = sign_up(web, "Alice")
    puzzle = PuzzleBook(DATA).get("thirtyfive-0001")
    taken = next(m for m in puzzle.moves if "=" in m).split("=")[0] + "=1"
    for moves in ([taken], ["  "], ["r99c99=1"]):
        r = attempt(web, puzzle.id, moves, csrf)
        assert r.status_code == 422 and r.json()["error"]["code"] == "illegal_move", r.text
        assert r.json()["error"]["detail"]["number"] == 1
    assert rows(web) == {"puzzle_ratings": 0, "puzzle_players": 0, "puzzle_attempts": 0}


def test_another_immediate_win_counts_as_solved() -> None:
    """A learner's move that differs from the solution but wins at once is a win."""
    rng = random.Random(4)
    game = sansu.load_game("uttt")
    while True:
        state, moves = game.initial_state(), []
        while state.result is None and len(winners(state)) < 2:
            move = rng.choice(state.legal_moves())
            moves.append(str(move))
            state = state.play(move)
        if state.result is None:
            break
    first, other = winners(state)[:2]
    puzzle = Puzzle("uttt-9999", "uttt", {}, tuple(moves), (first,), 1500.0)
    verdict = judge(puzzle, [other])
    assert verdict.solved and "wins at once" in verdict.reason


def test_another_account_cannot_act_for_you(web: TestClient, db_path: str) -> None:
    csrf = sign_up(web, "Alice")
    attempt(web, "thirtyfive-0001", [solution("thirtyfive-0001")], csrf)
    alice = web.get("/api/account/puzzles").json()
    without = attempt(web, "thirtyfive-0002", [solution("thirtyfive-0002")])
    assert without.status_code == 403 and without.json()["error"]["code"] == "csrf_failed"
    with TestClient(web.app) as other:
        bob_csrf = sign_up(other, "Bob")
        stolen = attempt(other, "thirtyfive-0002", [solution("thirtyfive-0002")], csrf)
        assert stolen.status_code == 403
        attempt(other, "thirtyfive-0002", [wrong_move("thirtyfive-0002")], bob_csrf)
        assert other.get("/api/account/puzzles").json()["games"]["thirtyfive"]["attempts"] == 1
    assert web.get("/api/account/puzzles").json() == alice
    web.cookies.clear()
    assert web.get("/api/account/puzzles").status_code == 401


def test_bad_input_is_refused_and_changes_nothing(web: TestClient) -> None:
    csrf = sign_up(web, "Alice")
    cases = [
        ("/api/puzzles/nope-0001/attempt", {"moves": ["r1c1"]}, 404, "no_puzzle"),
        ("/api/puzzles/bad id!/attempt", {"moves": ["r1c1"]}, 422, "invalid_request"),
        ("/api/puzzles/uttt-0001/attempt", {"moves": []}, 422, "invalid_request"),
        ("/api/puzzles/uttt-0001/attempt", {"moves": ["r1c1"] * 41}, 422, "invalid_request"),
        ("/api/puzzles/uttt-0001/attempt", {"moves": "r1c1"}, 422, "invalid_request"),
        ("/api/puzzles/uttt-0001/attempt", {"moves": ["r1c1"], "user": 1}, 422, "invalid_request"),
        ("/api/puzzles/uttt-0001/attempt", {"moves": [1]}, 422, "invalid_request"),
        (
            "/api/puzzles/uttt-0001/attempt",
            {"moves": ["r1c1"], "rating": {"rating": 9000, "deviation": 50, "volatility": 0.06}},
            422,
            "invalid_request",
        ),
    ]
    for path, body, status, code in cases:
        r = web.post(path, json=body, headers={CSRF: csrf})
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, body, r.text)
    for path, status, code in [
        ("/api/puzzles/id/uttt-9999", 404, "no_puzzle"),
        ("/api/puzzles/chess/next", 404, "no_puzzles"),
        ("/api/puzzles/challenge/daily", 404, "no_puzzles"),
        ("/api/puzzles/uttt/next?rating=-5", 422, "invalid_request"),
    ]:
        r = web.get(path)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), path
    assert rows(web) == {"puzzle_ratings": 0, "puzzle_players": 0, "puzzle_attempts": 0}


def test_attempts_are_rate_limited(web: TestClient) -> None:
    state = web.app.state  # type: ignore[attr-defined]
    state.puzzles = PuzzleRatings(state.store, PuzzleBook(DATA), attempts="2/minute")
    for _ in range(2):
        assert attempt(web, "uttt-0001", [solution("uttt-0001")]).status_code == 200
    refused = attempt(web, "uttt-0001", [solution("uttt-0001")])
    assert refused.status_code == 429 and refused.headers.get("retry-after") is None
    assert refused.json()["error"]["code"] == "rate_limited"


def test_the_daily_puzzle_is_stable_within_a_day_and_changes_across_days(
    web: TestClient,
) -> None:
    first = web.get("/api/puzzles/uttt/daily").json()
    assert web.get("/api/puzzles/uttt/daily").json()["id"] == first["id"]
    assert (
        first["id"]
        == {g["game"]: g["daily"] for g in web.get("/api/puzzles").json()["games"]}["uttt"]
    )
    book = PuzzleBook(DATA)
    start = date(2026, 1, 1)
    for game in GAMES:
        days = [book.daily(game, start + timedelta(days=k)).id for k in range(40)]
        assert all(a != b for a, b in itertools.pairwise(days)), game
        assert len(set(days)) == len(book.of(game))
        assert days == [
            PuzzleBook(DATA).daily(game, start + timedelta(days=k)).id for k in range(40)
        ]


def test_the_next_puzzle_is_the_unseen_one_nearest_the_rating(web: TestClient) -> None:
    assert web.get("/api/puzzles/uttt/next?rating=1200").json()["id"] == "uttt-0001"
    assert web.get("/api/puzzles/uttt/next?rating=1800").json()["id"] == "uttt-0003"
    assert web.get("/api/puzzles/uttt/next?rating=1800&seen=uttt-0003").json()["id"] == "uttt-0004"
    every = ",".join(f"sansumoku-000{k}" for k in (1, 2, 3))
    r = web.get(f"/api/puzzles/sansumoku/next?seen={every}")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_more_puzzles"
    csrf = sign_up(web, "Alice")
    assert web.get("/api/puzzles/uttt/next?rating=1200").json()["id"] == "uttt-0002"
    attempt(web, "uttt-0002", [solution("uttt-0002")], csrf)
    after = web.get("/api/puzzles/uttt/next").json()["id"]
    assert after != "uttt-0002"


def test_a_reviews_blunders_become_unrated_exercises(web: TestClient) -> None:
    from sansu.ai.review import REVIEW_VERSION
    from sansu.server.analysis.reviews import reviews

    created = web.post("/api/games", json={"game": "uttt", "options": {}}).json()
    gid, token = created["id"], created["token"]
    joined = web.post(f"/api/games/{gid}/join", json={"seat": 1}).json()["token"]
    moves = ["r5c5", "r4c4", "r2c2", "r4c5"]
    for k, move in enumerate(moves):
        game = web.get(f"/api/games/{gid}").json()
        who = token if k % 2 == 0 else joined
        r = web.post(
            f"/api/games/{gid}/moves",
            json={"move": move, "state": game["state"]},
            headers={"Authorization": f"Bearer {who}"},
        )
        assert r.status_code == 200, r.text
    r = web.get(f"/api/games/{gid}/mistakes?seat=0")
    assert r.status_code == 409  # still being played
    web.post(
        f"/api/games/{gid}/resign",
        json={"state": len(moves)},
        headers={"Authorization": f"Bearer {token}"},
    )
    r = web.get(f"/api/games/{gid}/mistakes?seat=0")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_review"

    def judged(
        ply: int, player: int, move: str, best: str, judgement: str | None
    ) -> dict[str, Any]:
        return {
            "ply": ply,
            "number": ply + 1,
            "player": player,
            "move": move,
            "best": best,
            "drop": 0.4 if judgement else 0.0,
            "judgement": judgement,
        }

    review = {
        "game": "uttt",
        "options": {},
        "moves": moves,
        "moves_reviewed": [
            judged(0, 0, "r5c5", "r5c5", None),
            judged(1, 1, "r4c4", "r6c6", "blunder"),
            judged(2, 0, "r2c2", "r1c1", "blunder"),
            judged(3, 1, "r4c5", "r6c5", "mistake"),
        ],
    }
    with web.app.state.store.engine.begin() as c:  # type: ignore[attr-defined]
        c.execute(
            insert(reviews).values(
                game_id=gid,
                game="uttt",
                version=REVIEW_VERSION,
                simulations=1,
                seed=0,
                created_at=0.0,
                review=json.dumps(review),
            )
        )
    zero = web.get(f"/api/games/{gid}/mistakes?seat=0").json()
    assert zero["proved"] is False and zero["rated"] is False
    assert [(e["moves"], e["played"], e["answer"]) for e in zero["exercises"]] == [
        (["r5c5", "r4c4"], "r2c2", "r1c1")
    ]
    one = web.get(f"/api/games/{gid}/mistakes?seat=1").json()
    assert [e["answer"] for e in one["exercises"]] == ["r6c6"]
    for bad in ("seat=2", "seat=-1", "seat=x", ""):
        assert web.get(f"/api/games/{gid}/mistakes?{bad}").status_code == 422, bad
