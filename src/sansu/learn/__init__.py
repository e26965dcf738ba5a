"""Lessons: short steps that teach a game by playing it, written as data.

A game's lesson is ``lessons/<game>.json``: a title, an introduction and 6–12
steps. A step sets up a position (``options`` and ``moves`` from the start) and
gives the learner one or more tasks, each a goal the engine can check
(:mod:`sansu.learn.goals`), a hint for a legal move that misses it, and the
other side's scripted replies, so that every lesson plays the same way each
time. :func:`lesson` loads and checks one game's lesson; a step whose position,
solution or replies the engine refuses makes loading fail, so bad data never
reaches a learner. See ``docs/learn.md``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from sansu.core.registry import game_class, game_ids
from sansu.learn.goals import GOALS, Goal, describe_goal
from sansu.learn.judge import MAX_LEARNER_MOVES, Verdict, check
from sansu.learn.steps import Lesson, Step, Task, Wrong

__all__ = [
    "GOALS",
    "MAX_LEARNER_MOVES",
    "Goal",
    "Lesson",
    "LessonError",
    "Step",
    "Task",
    "Verdict",
    "Wrong",
    "check",
    "describe_goal",
    "lesson",
    "lesson_games",
]

DATA = Path(__file__).resolve().parent / "lessons"
MIN_STEPS, MAX_STEPS = 6, 12
"""A lesson is short: a handful of steps, from the first move to the deepest rule."""


class LessonError(ValueError):
    """Lesson data that breaks the format or the game's rules, with where and why."""


def lesson_games() -> list[str]:
    """The games that have a lesson, in the registry's order."""
    return [g for g in game_ids() if (DATA / f"{g}.json").is_file()]


def lesson(game: str) -> Lesson:
    """The lesson of ``game`` (an id or alias), loaded, checked against the format and
    played through the engine; an unknown game or a bad lesson raises ``LessonError``."""
    try:
        game_id = game_class(game).id
    except ValueError as error:
        raise LessonError(str(error)) from None
    return _load(game_id)


@cache
def _load(game_id: str) -> Lesson:
    path = DATA / f"{game_id}.json"
    if not path.is_file():
        raise LessonError(f"{game_id} has no lesson")
    return parse(game_id, json.loads(path.read_text(encoding="utf-8")))


def parse(game_id: str, data: Any) -> Lesson:
    """A lesson from its JSON data, every step checked: see :func:`lesson`."""
    if not isinstance(data, dict):
        raise LessonError(f"{game_id}: a lesson is a JSON object")
    raw_steps = _field(data, "steps", list, game_id)
    if not MIN_STEPS <= len(raw_steps) <= MAX_STEPS:
        raise LessonError(
            f"{game_id}: a lesson has {MIN_STEPS}-{MAX_STEPS} steps, not {len(raw_steps)}"
        )
    steps = tuple(_step(game_id, raw, n) for n, raw in enumerate(raw_steps, 1))
    ids = [s.id for s in steps]
    if len(set(ids)) != len(ids):
        raise LessonError(f"{game_id}: step ids repeat: {ids}")
    for step in steps:
        try:
            _prove(game_id, step)
        except LessonError:
            raise
        except ValueError as error:
            raise LessonError(f"{game_id} step {step.id!r}: {error}") from None
    return Lesson(
        game_id, _field(data, "title", str, game_id), _field(data, "intro", str, game_id), steps
    )


def _field(data: dict[str, Any], name: str, kind: type, where: str, default: Any = None) -> Any:
    value = data.get(name, default)
    if not isinstance(value, kind):
        raise LessonError(f"{where}: {name!r} must be a {kind.__name__}")
    return value


def _moves(data: dict[str, Any], name: str, where: str) -> tuple[str, ...]:
    moves = _field(data, name, list, where, [])
    if not all(isinstance(m, str) for m in moves):
        raise LessonError(f"{where}: {name!r} must list moves as text")
    return tuple(moves)


def _goal(data: dict[str, Any], where: str) -> Goal:
    try:
        return Goal.parse(data, where)
    except ValueError as error:
        raise LessonError(str(error)) from None


def _step(game_id: str, raw: Any, number: int) -> Step:
    where = f"{game_id} step {number}"
    if not isinstance(raw, dict):
        raise LessonError(f"{where}: a step is a JSON object")
    known = {
        "id",
        "title",
        "text",
        "options",
        "moves",
        "tasks",
        "solution",
        "wrong",
        "viewer",
        "observer",
    }
    if unknown := set(raw) - known:
        raise LessonError(f"{where}: unknown fields {sorted(unknown)}")
    step_id = _field(raw, "id", str, where)
    if not step_id or len(step_id) > 64 or not step_id.replace("-", "").isalnum():
        raise LessonError(f"{where}: id {step_id!r} must be 1-64 letters, digits or '-'")
    where = f"{game_id} step {step_id!r}"
    tasks = []
    for raw_task in _field(raw, "tasks", list, where):
        if not isinstance(raw_task, dict):
            raise LessonError(f"{where}: a task is a JSON object")
        tasks.append(
            Task(
                prompt=_field(raw_task, "prompt", str, where),
                goal=_goal(_field(raw_task, "goal", dict, where), where),
                hint=_field(raw_task, "hint", str, where),
                reply=_moves(raw_task, "reply", where),
                done=_field(raw_task, "done", str, where, ""),
            )
        )
    if not tasks:
        raise LessonError(f"{where}: a step has at least one task")
    wrong = []
    for raw_wrong in _field(raw, "wrong", list, where, []):
        verdict = raw_wrong.get("verdict") if isinstance(raw_wrong, dict) else None
        if verdict not in ("illegal", "missed"):
            raise LessonError(f"{where}: a wrong move's verdict is 'illegal' or 'missed'")
        wrong.append(Wrong(_moves(raw_wrong, "moves", where), verdict))
    viewer = raw.get("viewer")
    if viewer is not None and not isinstance(viewer, int):
        raise LessonError(f"{where}: 'viewer' must be a seat number")
    return Step(
        id=step_id,
        title=_field(raw, "title", str, where),
        text=_field(raw, "text", str, where),
        options=_field(raw, "options", dict, where, {}),
        moves=_moves(raw, "moves", where),
        tasks=tuple(tasks),
        solution=_moves(raw, "solution", where),
        wrong=tuple(wrong),
        viewer=viewer,
        observer=_field(raw, "observer", bool, where, False),
    )


def _prove(game_id: str, step: Step) -> None:
    """Plays the step through the engine: its position and replies are legal, its
    solution finishes it, and each wrong move gets the verdict the data says."""
    where = f"{game_id} step {step.id!r}"
    verdict = check(game_id, step, [])
    if verdict.status != "play":
        raise LessonError(f"{where}: the position is not playable: {verdict.message}")
    verdict = check(game_id, step, list(step.solution))
    if verdict.status != "done":
        raise LessonError(
            f"{where}: the solution ends {verdict.status!r}, not 'done': {verdict.message}"
        )
    for wrong in step.wrong:
        verdict = check(game_id, step, list(wrong.moves))
        if verdict.status != wrong.verdict:
            raise LessonError(
                f"{where}: wrong moves {list(wrong.moves)} end {verdict.status!r},"
                f" not {wrong.verdict!r}"
            )
