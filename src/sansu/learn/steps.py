"""What a lesson is made of: steps, each a position and tasks, each task a goal.

See :mod:`sansu.learn` for how lessons are loaded and checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sansu.learn.goals import Goal, describe_goal


@dataclass(frozen=True)
class Task:
    """One thing the learner does: reach ``goal`` (with one or more of their own moves in
    one turn), then the other side plays ``reply``."""

    prompt: str
    goal: Goal
    hint: str
    """Said when a legal move misses the goal."""
    reply: tuple[str, ...] = ()
    done: str = ""
    """Said when the goal is reached (before the reply)."""


@dataclass(frozen=True)
class Wrong:
    """A move the data says is wrong, for the tests and the docs: ``moves`` are the
    learner's moves (the last one the wrong one) and ``verdict`` is ``illegal`` (the
    engine refuses it) or ``missed`` (legal, but it misses the goal)."""

    moves: tuple[str, ...]
    verdict: str


@dataclass(frozen=True)
class Step:
    id: str
    title: str
    text: str
    """What the step teaches, in plain words (paragraphs separated by blank lines)."""
    options: dict[str, Any]
    moves: tuple[str, ...]
    """From the initial position to the step's position."""
    tasks: tuple[Task, ...]
    solution: tuple[str, ...]
    """The learner's moves that finish the step (tests play them)."""
    wrong: tuple[Wrong, ...] = ()
    viewer: int | None = None
    """The seat whose view the board shows (``None``: a spectator's, the default)."""
    observer: bool = False
    """The learner watches rather than plays (a spectator's report in Sumodoku)."""

    def public(self) -> dict[str, Any]:
        """What a page shows of the step: not the solution (the learner finds it)."""
        return {
            "id": self.id,
            "title": self.title,
            "text": self.text,
            "options": dict(self.options),
            "moves": list(self.moves),
            "viewer": self.viewer,
            "observer": self.observer,
            "tasks": [
                {"prompt": t.prompt, "goal": describe_goal(t.goal), "replies": len(t.reply)}
                for t in self.tasks
            ],
        }


@dataclass(frozen=True)
class Lesson:
    game: str
    title: str
    intro: str
    steps: tuple[Step, ...]

    def step(self, step_id: str) -> Step | None:
        return next((s for s in self.steps if s.id == step_id), None)

    def public(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": self.title,
            "intro": self.intro,
            "steps": [s.public() for s in self.steps],
        }
