"""The one judge of a learner's moves in a step.

:func:`check` replays a step's position, then the learner's moves with the other
side's scripted replies, and answers a :class:`Verdict`; the server's lesson
routes ask it, so the page and the tests share one judge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sansu.core.protocol import IllegalMove, State
from sansu.core.registry import load_game
from sansu.learn.steps import Step

MAX_LEARNER_MOVES = 200
"""More learner moves than any step needs: a longer list is refused unread."""


@dataclass(frozen=True)
class Verdict:
    """The answer to the learner's moves so far.

    ``status``: ``play`` (the learner is to move: at the start, after a task done
    and the replies played, or in the middle of a turn), ``done`` (the step is
    finished), ``illegal`` (the engine refused the last move: ``message`` is its
    reason, and ``moves`` stop before it) or ``missed`` (a legal move that misses
    the goal: ``message`` is the task's hint; ``moves`` include it).
    """

    status: str
    message: str
    moves: tuple[str, ...]
    """From the initial position to the position to show."""
    task: int
    """The task the learner is on (the number of tasks once done)."""
    accepted: int
    """How many of the learner's moves stand."""
    replies: tuple[str, ...] = ()
    """The other side's moves played after the learner's last accepted move."""
    move: str | None = None
    """The learner's last move, in canonical text, when it was judged."""
    state: State | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "message": self.message,
            "moves": list(self.moves),
            "task": self.task,
            "accepted": self.accepted,
            "replies": list(self.replies),
            "move": self.move,
        }


def check(game_id: str, step: Step, learner_moves: list[str]) -> Verdict:
    """Plays ``step``'s position, then the learner's moves with the scripted replies, and
    judges the last one. Bad step data raises ``ValueError``; learner moves after the
    step is finished raise ``ValueError`` too (nothing is left to judge)."""
    if len(learner_moves) > MAX_LEARNER_MOVES:
        raise ValueError(f"at most {MAX_LEARNER_MOVES} moves")
    game = load_game(game_id, **step.options)
    state = game.initial_state()
    moves: list[str] = []
    for number, text in enumerate(step.moves, 1):
        state = _scripted(state, text, f"position move {number}")
        moves.append(str(state.last_move))
    tasks, task = step.tasks, 0
    learner = state.to_move
    verdict = Verdict("play", tasks[0].prompt, tuple(moves), 0, 0, state=state)
    for number, text in enumerate(learner_moves):
        if state.to_move is None:
            raise ValueError("the game is over: no more moves")
        last = number + 1 == len(learner_moves)
        try:
            after = state.play(text)
        except (IllegalMove, ValueError) as error:
            if not last:
                raise ValueError(f"move {number + 1} ({text}) is illegal: {error}") from None
            return Verdict(
                "illegal", str(error), tuple(moves), task, number, move=text, state=state
            )
        move = str(after.last_move)
        before_view, after_view = state.view(None), after.view(None)
        current = tasks[task]
        moves.append(move)
        if current.goal.reached(before_view, after_view, after, learner or 0, move):
            state, replies = after, []
            for text_reply in current.reply:
                state = _scripted(state, text_reply, f"reply to task {task + 1}")
                replies.append(str(state.last_move))
                moves.append(replies[-1])
            task += 1
            learner = state.to_move
            if task == len(tasks):
                if not last:
                    raise ValueError("the step is finished: no more moves")
                message = current.done or "Well done!"
                return Verdict(
                    "done", message, tuple(moves), task, number + 1, tuple(replies), move, state
                )
            message = " ".join(filter(None, [current.done, tasks[task].prompt]))
            verdict = Verdict(
                "play", message, tuple(moves), task, number + 1, tuple(replies), move, state
            )
            continue
        erred = len(after_view.get("errors") or ()) > len(before_view.get("errors") or ())
        if after.to_move == state.to_move and not after.is_over and not erred:
            state = after
            verdict = Verdict(
                "play", current.prompt, tuple(moves), task, number + 1, (), move, state
            )
            continue
        if not last:
            raise ValueError(f"move {number + 1} ({move}) already missed the goal")
        return Verdict("missed", current.hint, tuple(moves), task, number, move=move, state=after)
    return verdict


def _scripted(state: State, text: str, what: str) -> State:
    try:
        return state.play(text)
    except (IllegalMove, ValueError) as error:
        raise ValueError(f"{what} {text!r} is illegal: {error}") from None
