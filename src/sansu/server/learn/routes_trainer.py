"""The HTTP routes of the Sudoku technique trainer (:mod:`sansu.server.learn.trainer`).

``GET /api/trainer`` lists the techniques in ladder order with their level and a
plain description; ``POST /api/trainer/{technique}`` makes an exercise (a seed of
the caller's, or a new one), and ``POST /api/trainer/{technique}/check`` judges a
cell and digit in it and explains the step. Nothing is stored.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field

from sansu.server.base import refusals
from sansu.server.learn import trainer as service
from sansu.sudoku import trainer
from sansu.sudoku.rater import LEVELS

trainer_router = APIRouter(prefix="/api/trainer", tags=["learn"])

TechniqueId = Annotated[
    str, Path(min_length=1, max_length=40, description="a technique's id, e.g. x-wing")
]
Seed = Annotated[int, Field(ge=0, le=trainer.MAX_SEED)]


class ExerciseRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: Seed | None = Field(None, description="the same seed gives the same exercise")


class AnswerRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: Seed = Field(description="the exercise's seed")
    cell: Annotated[int, Field(ge=0, le=80)] | Annotated[str, Field(max_length=8)] = Field(
        description="0-80 row-major, or a name such as r5c5"
    )
    digit: int = Field(ge=1, le=9, description="placed, or removed from the cell's candidates")


@trainer_router.get("")
async def techniques() -> dict[str, Any]:
    """The techniques offered, easiest first, each with its level."""
    return {
        "levels": list(LEVELS),
        "techniques": [t.to_dict() for t in trainer.techniques()],
    }


@trainer_router.post("/{technique}", responses=refusals(404, 503))
async def make(technique: TechniqueId, body: ExerciseRequest | None = None) -> dict[str, Any]:
    """A grid whose next logical step is ``technique``: givens, placed digits, candidates."""
    found = service.find(technique)
    seed = body.seed if body is not None and body.seed is not None else service.new_seed()
    drill = await service.exercise(found, seed)
    return drill.to_dict()


@trainer_router.post("/{technique}/check", responses=refusals(404, 503))
async def judge(technique: TechniqueId, body: AnswerRequest) -> dict[str, Any]:
    """Whether ``digit`` on ``cell`` is the step, with the step explained."""
    found = service.find(technique)
    verdict = await service.check(found, body.seed, body.cell, body.digit)
    return verdict.to_dict()
