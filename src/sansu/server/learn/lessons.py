"""Lessons on the server: the steps a page shows, the one judge of a learner's moves, and
each account's finished steps.

The lessons themselves are data in :mod:`sansu.learn`; this module answers for them
over HTTP. :func:`judge` replays a step with the learner's moves through
:func:`sansu.learn.check` and adds the position to draw, so a page never decides
on its own whether a move reached a goal. An account's progress is one
``lesson_steps`` row per finished step; marking a step twice keeps the first time.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from sansu.core.protocol import State
from sansu.learn import LessonError, Step, check, lesson, lesson_games
from sansu.server.base import ApiError
from sansu.server.learn.tables import LessonStepRow

steps_table = LessonStepRow.__table__


def lesson_of(game: str) -> Any:
    """The game's lesson, or 404 ``no_lesson``."""
    try:
        return lesson(game)
    except LessonError as error:
        raise ApiError(404, "no_lesson", str(error)) from None


def step_of(game: str, step_id: str) -> tuple[str, Step]:
    """The game's id and its step ``step_id``, or 404 ``no_step`` naming the steps there are."""
    found = lesson_of(game)
    step = found.step(step_id)
    if step is None:
        ids = ", ".join(s.id for s in found.steps)
        raise ApiError(404, "no_step", f"{found.game} has no step {step_id!r} (steps: {ids})")
    return found.game, step


def catalogue() -> list[dict[str, Any]]:
    """Every game's lesson in brief: title, introduction and step ids and titles."""
    out = []
    for game in lesson_games():
        found = lesson(game)
        out.append(
            {
                "game": found.game,
                "title": found.title,
                "intro": found.intro,
                "steps": [{"id": s.id, "title": s.title} for s in found.steps],
            }
        )
    return out


def position(state: State, moves: tuple[str, ...], viewer: int | None) -> dict[str, Any]:
    """What a board module draws: the view, whose move it is and the result."""
    result = state.result
    return {
        "moves": list(moves),
        "ply": len(moves),
        "to_move": state.to_move,
        "over": state.is_over,
        "result": None if result is None else result.to_dict(),
        "view": state.view(viewer),
    }


def judge(game: str, step_id: str, moves: list[str]) -> dict[str, Any]:
    """The verdict on the learner's ``moves`` in a step, with the position to draw; moves
    past the end of the step are refused (422 ``step_finished``)."""
    game_id, step = step_of(game, step_id)
    try:
        verdict = check(game_id, step, moves)
    except ValueError as error:
        raise ApiError(422, "step_finished", str(error)) from None
    answer = verdict.to_dict()
    assert verdict.state is not None
    answer["position"] = position(verdict.state, verdict.moves, step.viewer)
    answer["tasks"] = len(step.tasks)
    return answer


def done_steps(connection: Connection, user_id: int) -> dict[str, list[str]]:
    """The steps an account finished, by game, in each lesson's order."""
    rows = connection.execute(
        select(steps_table.c.game, steps_table.c.step).where(steps_table.c.user_id == user_id)
    ).all()
    done: dict[str, set[str]] = defaultdict(set)
    for game, step in rows:
        done[game].add(step)
    out = {}
    for game in lesson_games():
        if done.get(game):
            out[game] = [s.id for s in lesson(game).steps if s.id in done[game]]
    return out


def mark_done(connection: Connection, user_id: int, game: str, step: str, now: float) -> bool:
    """Records a finished step; ``False`` when it was already recorded (its time stays)."""
    key = (
        (steps_table.c.user_id == user_id)
        & (steps_table.c.game == game)
        & (steps_table.c.step == step)
    )
    if connection.execute(select(steps_table.c.step).where(key)).first() is not None:
        return False
    connection.execute(
        steps_table.insert().values(user_id=user_id, game=game, step=step, done_at=now)
    )
    return True
