"""Lessons over HTTP: the steps, the judge of a learner's moves, and an account's progress.

``GET /api/lessons`` and ``GET /api/lessons/{game}`` give the lessons (never the
solutions); ``POST /api/lessons/{game}/{step}/check`` judges the learner's moves in
a step and answers the position to draw. ``GET /api/account/lessons`` and
``PUT /api/account/lessons/{game}/{step}`` keep the steps a signed-in account
finished: a browser keeps the same set for an anonymous learner and puts each
step here once its learner signs in.
"""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from sansu.learn import MAX_LEARNER_MOVES
from sansu.server.accounts import SessionOnly
from sansu.server.base import GameName, part, refusals
from sansu.server.base import Store as StoreClass
from sansu.server.learn.lessons import catalogue, done_steps, judge, lesson_of, mark_done, step_of

Store = Annotated[StoreClass, part("store")]
StepId = Annotated[str, Path(min_length=1, max_length=64, description="a step's id")]

lessons_router = APIRouter(prefix="/api", tags=["learn"])


class CheckRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    moves: list[Annotated[str, Field(max_length=32)]] = Field(
        default_factory=list,
        max_length=MAX_LEARNER_MOVES,
        description="the learner's moves in the step so far, the one to judge last",
    )


@lessons_router.get("/lessons", responses=refusals())
async def list_lessons() -> dict[str, Any]:
    """Every game's lesson: title, introduction, and its steps' ids and titles."""
    # The first call loads and proves every lesson through the engines: off the event loop.
    return {"lessons": await asyncio.to_thread(catalogue)}


@lessons_router.get("/lessons/{game}", responses=refusals(404))
async def get_lesson(game: GameName) -> dict[str, Any]:
    """A game's lesson: each step's text, position and tasks (not their solutions)."""
    found = await asyncio.to_thread(lesson_of, game)
    public: dict[str, Any] = found.public()
    return public


@lessons_router.post("/lessons/{game}/{step}/check", responses=refusals(404))
async def check_step(game: GameName, step: StepId, body: CheckRequest) -> dict[str, Any]:
    """Judges the learner's moves: ``play`` (your move), ``done``, ``illegal`` (the
    engine's reason) or ``missed`` (the step's hint), with the position to draw and
    the other side's scripted replies."""
    return await asyncio.to_thread(judge, game, step, [m.strip() for m in body.moves])


@lessons_router.get("/account/lessons", responses=refusals(401))
async def my_lessons(caller: SessionOnly, store: Store) -> dict[str, Any]:
    """The steps the signed-in account finished, by game."""
    _token, user = await caller.session(write=False)
    return {"lessons": await store.read(lambda c: done_steps(c, user.id))}


@lessons_router.put("/account/lessons/{game}/{step}", responses=refusals(401, 403, 404))
async def finish_step(
    game: GameName, step: StepId, caller: SessionOnly, store: Store
) -> dict[str, Any]:
    """Records a finished step on the signed-in account (needs the session's CSRF
    header); recording it again changes nothing."""
    game_id, found = await asyncio.to_thread(step_of, game, step)
    _token, user = await caller.session()
    now = time.time()
    new = await store.write(lambda c: mark_done(c, user.id, game_id, found.id, now))
    return {"game": game_id, "step": found.id, "new": new}
