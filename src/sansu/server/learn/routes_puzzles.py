"""The HTTP routes of puzzles: lists, the next puzzle, the daily one, attempts, a dashboard,
and a reviewed game's blunders as exercises.

``GET /api/puzzles`` lists the games with puzzles; ``GET /api/puzzles/{game}/next``
gives the unseen puzzle nearest the learner's rating (an account's own, else the
``rating`` and ``seen`` ids the browser sends); ``GET /api/puzzles/{game}/daily`` the
day's (UTC); ``GET /api/puzzles/id/{id}`` one puzzle. ``POST /api/puzzles/{id}/attempt``
judges the learner's moves with the engine and, on an account's first attempt,
rates it (:mod:`sansu.server.learn.puzzles`). ``GET /api/account/puzzles`` is the
account's dashboard. ``GET /api/games/{id}/mistakes?seat=N`` turns a reviewed
game's blunders by seat ``N`` into exercises: the position before each, with the
engine's preferred move as the answer; they are neither proved nor rated.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, Field

from sansu.server.accounts import SessionOnly, TokenOrSession
from sansu.server.analysis import Reviews, refuse_review
from sansu.server.base import REQUEST, ApiError, client_of, part, refusals
from sansu.server.learn.puzzles import PuzzleRatings, judge, rated, rating_json
from sansu.server.play import Service, Watched, watched
from sansu.server.ratings import Rating

MAX_SEEN = 500
"""Puzzle ids an anonymous learner may say they have seen (a browser keeps the latest): they
travel in the URL, which servers cap at a few KiB."""
MAX_MOVES = 40
"""Learner moves of an attempt (the longest puzzles have a handful)."""

PuzzleId = Annotated[
    str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$", description="a puzzle id")
]
GameWord = Annotated[str, Path(min_length=1, max_length=32, description="a game id, e.g. uttt")]
Puzzles = Annotated[PuzzleRatings, part("puzzles")]
"""The puzzles, their ratings and the accounts' attempts, as the composition root built them."""
GameReviews = Annotated[Reviews, part("reviews")]

router = APIRouter(prefix="/api", tags=["puzzles"])


class BrowserRating(BaseModel):
    """An anonymous learner's puzzle rating, as their browser keeps it."""

    model_config = REQUEST
    rating: float = Field(ge=100, le=4000)
    deviation: float = Field(ge=30, le=350)
    volatility: float = Field(gt=0, le=0.2)


class Attempt(BaseModel):
    model_config = REQUEST
    moves: list[Annotated[str, Field(min_length=1, max_length=32)]] = Field(
        min_length=1, max_length=MAX_MOVES, description="the learner's moves only, in order"
    )
    rating: BrowserRating | None = Field(
        None, description="an anonymous learner's rating (ignored for a signed-in account)"
    )


def today(clock: float | None = None) -> Any:
    return datetime.fromtimestamp(time.time() if clock is None else clock, UTC).date()


@router.get("/puzzles", responses=refusals())
async def list_puzzles(puzzles: Puzzles) -> dict[str, Any]:
    """The games with puzzles: how many each has, and the id of today's daily puzzle."""
    book = puzzles.book
    day = today(puzzles.clock())
    return {
        "day": day.isoformat(),
        "games": [
            {"game": game, "count": len(book.of(game)), "daily": book.daily(game, day).id}
            for game in book.games()
        ],
    }


@router.get("/puzzles/id/{puzzle_id}", responses=refusals(404))
async def get_puzzle(puzzle_id: PuzzleId, puzzles: Puzzles) -> dict[str, Any]:
    """One puzzle, by its id."""
    puzzle = puzzles.book.get(puzzle_id)
    rating = (await puzzles.puzzle_rating(puzzle)).rating
    return await asyncio.to_thread(puzzles.book.describe, puzzle, rating)


@router.get("/puzzles/{game}/daily", responses=refusals(404))
async def daily_puzzle(game: GameWord, puzzles: Puzzles) -> dict[str, Any]:
    """Today's puzzle of ``game`` (UTC days): the same for everyone."""
    day = today(puzzles.clock())
    puzzle = puzzles.book.daily(game, day)
    rating = (await puzzles.puzzle_rating(puzzle)).rating
    data = await asyncio.to_thread(puzzles.book.describe, puzzle, rating)
    return {**data, "daily": day.isoformat()}


@router.get("/puzzles/{game}/next", responses=refusals(401, 404))
async def next_puzzle(
    game: GameWord,
    puzzles: Puzzles,
    caller: TokenOrSession,
    rating: Annotated[float, Query(ge=100, le=4000, description="an anonymous rating")] = 1500.0,
    seen: Annotated[
        str, Query(max_length=MAX_SEEN * 33, description="comma-separated ids already tried")
    ] = "",
) -> dict[str, Any]:
    """The unseen puzzle nearest the learner's rating: a signed-in account's own rating and
    attempts (``rating`` and ``seen`` are then ignored), else those the browser sends."""
    book = puzzles.book
    puzzles_of_game = book.of(game)
    user = await caller.account(write=False)
    if user is not None:
        mine = await puzzles.player(user.id, puzzles_of_game[0].game)
        rating = mine["rating"]
        tried = await puzzles.attempted(user.id, puzzles_of_game[0].game)
    else:
        tried = {s.strip() for s in seen.split(",") if s.strip()}
        if len(tried) > MAX_SEEN:
            raise ApiError(422, "too_many_seen", f"at most {MAX_SEEN} seen ids")
    current = await puzzles.current(puzzles_of_game[0].game)
    puzzle = book.nearest(game, rating, tried, current)
    return await asyncio.to_thread(book.describe, puzzle, current.get(puzzle.id))


@router.post("/puzzles/{puzzle_id}/attempt", responses=refusals(401, 403, 404))
async def attempt(
    puzzle_id: PuzzleId,
    body: Attempt,
    request: Request,
    puzzles: Puzzles,
    caller: TokenOrSession,
) -> dict[str, Any]:
    """Judges the learner's moves (solved or failed, with the solution and the reason).
    A signed-in account's first attempt rates it and the puzzle; later ones change
    nothing. Anonymous: the new rating from the one sent, nothing stored."""
    puzzle = puzzles.book.get(puzzle_id)
    user = await caller.account(write=True)
    if user is None and await caller.account(write=False) is not None:
        await caller.session(write=True)  # a session without its CSRF token: refused
    await puzzles.admit(client_of(request.scope))
    verdict = await asyncio.to_thread(judge, puzzle, [m.strip() for m in body.moves])
    answer: dict[str, Any] = {
        "puzzle_id": puzzle.id,
        "game": puzzle.game,
        "solved": verdict.solved,
        "failed_at": verdict.failed_at,
        "reason": verdict.reason,
        "line": verdict.line,
        "solution": list(puzzle.solution),
    }
    if user is not None:
        return {**answer, **await puzzles.attempt(user.id, puzzle, verdict.solved)}
    sent = body.rating
    before = Rating() if sent is None else Rating(sent.rating, sent.deviation, sent.volatility)
    after, _ = rated(before, await puzzles.puzzle_rating(puzzle), verdict.solved)
    return {**answer, "rated": False, "stored": False, "rating": rating_json(before, after)}


@router.get("/account/puzzles", tags=["accounts"], responses=refusals(401))
async def dashboard(puzzles: Puzzles, caller: SessionOnly) -> dict[str, Any]:
    """The signed-in account's puzzle rating per game, counts, streaks and latest attempts."""
    _, user = await caller.session(write=False)
    return await puzzles.dashboard(user.id)


mistakes_router = APIRouter(prefix="/api", tags=["archive"], dependencies=[Depends(watched)])


@mistakes_router.get("/games/{game_id}/mistakes", responses=refusals(401, 403, 404, 409))
async def mistakes(
    live: Watched,
    service: Service,
    reviews: GameReviews,
    caller: TokenOrSession,
    seat: Annotated[int, Query(ge=0, le=7, description="whose blunders")],
) -> dict[str, Any]:
    """Seat ``seat``'s blunders in the game's stored review as exercises: the position
    before each (``moves`` from the start) and the engine's preferred move (``answer``).
    They come from a sampled search: neither proved nor rated."""
    await refuse_review(live, service, await caller.acting(write=False))
    if live.status == "active":
        message = "a game's mistakes are shown once it is over, never while it is played"
        raise ApiError(409, "game_in_play", message)
    if seat >= live.game.num_players:
        raise ApiError(422, "bad_seat", f"{live.game.title} has {live.game.num_players} seats")
    if live.hidden:
        message = f"{live.game.title} hides its solution: its positions cannot be set again"
        raise ApiError(422, "no_exercises", message)
    review = await reviews.stored(live.id)
    if review is None:
        raise ApiError(404, "no_review", "this game has no review yet: ask for one first")
    exercises = [
        {
            "id": f"{live.id}-{m['ply']}",
            "number": m["number"],
            "moves": review["moves"][: m["ply"]],
            "played": m["move"],
            "answer": m["best"],
            "drop": m["drop"],
        }
        for m in review["moves_reviewed"]
        if m["player"] == seat
        and m["judgement"] == "blunder"
        and m["best"] not in (None, m["move"])
    ]
    return {
        "game_id": live.id,
        "game": live.game.id,
        "options": review["options"],
        "seat": seat,
        "proved": False,
        "rated": False,
        "exercises": exercises,
    }
