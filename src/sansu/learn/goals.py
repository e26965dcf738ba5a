"""What a lesson's task asks, and the one judge of whether the learner did it.

A goal is a small vocabulary the engine can check on the position after the
learner's move (the view everyone sees, and the result):

- ``any``: any legal move (the first steps: find where you may play);
- ``moves``: one of the listed moves (``"moves": ["r5c5"]``);
- ``section``: win a section (``"section": 4``, or any; ``"by_constraint": true``
  asks for a win by constraint), in Ultimate Tic-Tac-Toe and Sansumoku;
- ``win``: win the game;
- ``convert``: in 35, take over at least ``at_least`` numbers (default 1);
- ``highlight``: in 35, highlight at least ``at_least`` empty squares in your colour;
- ``cancel``: in 35, make both colours reach 35 at once, so nothing changes;
- ``score``: reach a score of ``at_least`` (Sudoku Challenge, 35).

:func:`check` replays a step with the learner's moves and answers a
:class:`Verdict`; the server's lesson routes ask it, so the page and the tests
share one judge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sansu
from sansu.core.protocol import IllegalMove, State

if TYPE_CHECKING:
    from sansu.learn import Step

GOALS = ("any", "moves", "section", "win", "convert", "highlight", "cancel", "score")
MAX_LEARNER_MOVES = 200
"""More learner moves than any step needs: a longer list is refused unread."""


@dataclass(frozen=True)
class Goal:
    kind: str
    moves: tuple[str, ...] = ()
    section: int | None = None
    by_constraint: bool = False
    at_least: int = 1

    @classmethod
    def parse(cls, data: dict[str, Any], where: str) -> Goal:
        """A goal from its JSON data; a goal outside the vocabulary raises ``ValueError``."""
        kind = data.get("kind")
        if kind not in GOALS:
            raise ValueError(f"{where}: goal kind {kind!r} is not one of {', '.join(GOALS)}")
        if unknown := set(data) - {"kind", "moves", "section", "by_constraint", "at_least"}:
            raise ValueError(f"{where}: unknown goal fields {sorted(unknown)}")
        moves = data.get("moves", [])
        if kind == "moves" and not (moves and all(isinstance(m, str) for m in moves)):
            raise ValueError(f"{where}: a 'moves' goal lists its moves")
        section = data.get("section")
        if section is not None and section not in range(9):
            raise ValueError(f"{where}: a section is 0-8, not {section!r}")
        at_least = data.get("at_least", 1)
        if not isinstance(at_least, int) or at_least < 1:
            raise ValueError(f"{where}: 'at_least' is a whole number from 1")
        return cls(kind, tuple(moves), section, bool(data.get("by_constraint")), at_least)

    def reached(self, before: dict[str, Any], after: dict[str, Any], state: State,
                learner: int, move: str) -> bool:
        """Whether the learner's ``move`` (from view ``before`` to view ``after``) reaches it."""
        if self.kind == "any":
            return True
        if self.kind == "moves":
            return move in self.moves
        if self.kind == "section":
            return any(
                after["sections"][i]["owner"] == learner
                and before["sections"][i]["owner"] is None
                and (after["sections"][i]["by_constraint"] or not self.by_constraint)
                for i in ([self.section] if self.section is not None else range(9))
            )
        if self.kind == "win":
            result = state.result
            return result is not None and learner in result.winners
        if self.kind in ("convert", "highlight"):
            filled = self.kind == "convert"
            taken = [
                name for name in after["converted"]
                if _cell(after, name) is not None
                and (_cell(after, name)["value"] is not None) == filled
                and _cell(after, name)["player"] == learner
            ]
            return len(taken) >= self.at_least
        if self.kind == "cancel":
            return bool(after.get("cancelled")) and bool(after.get("triggered"))
        return after["scores"][learner] >= self.at_least  # score


def _cell(view: dict[str, Any], name: str) -> dict[str, Any] | None:
    row, col = name[1:].split("c")
    cols = view.get("cols", 9)
    cell: dict[str, Any] | None = view["cells"][(int(row) - 1) * cols + int(col) - 1]
    return cell


def describe_goal(goal: Goal) -> dict[str, Any]:
    """What a page may show of a goal: its kind and target, never the moves it accepts."""
    shown: dict[str, Any] = {"kind": goal.kind}
    if goal.kind == "section" and goal.section is not None:
        shown["section"] = goal.section
    if goal.by_constraint:
        shown["by_constraint"] = True
    if goal.kind in ("convert", "highlight", "score"):
        shown["at_least"] = goal.at_least
    return shown


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
    game = sansu.load_game(game_id, **step.options)
    state = game.initial_state()
    moves: list[str] = []
    for number, text in enumerate(step.moves, 1):
        state = _scripted(state, text, f"position move {number}")
        moves.append(str(state.last_move))
    tasks, task = step.tasks, 0
    learner = state.to_move
    verdict = Verdict("play", tasks[0].prompt, tuple(moves), 0, 0, state=state)
    for number, text in enumerate(learner_moves):
        if task == len(tasks):
            raise ValueError("the step is finished: no more moves")
        if state.to_move is None:
            raise ValueError("the game is over: no more moves")
        try:
            after = state.play(text)
        except (IllegalMove, ValueError) as error:
            return Verdict("illegal", str(error), tuple(moves), task, number, move=text, state=state)
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
                message = current.done or "Well done!"
                return Verdict("done", message, tuple(moves), task, number + 1, tuple(replies),
                               move, state)
            message = " ".join(filter(None, [current.done, tasks[task].prompt]))
            verdict = Verdict("play", message, tuple(moves), task, number + 1, tuple(replies),
                              move, state)
            continue
        erred = len(after_view.get("errors") or ()) > len(before_view.get("errors") or ())
        if after.to_move == state.to_move and not after.is_over and not erred:
            state = after
            verdict = Verdict("play", current.prompt, tuple(moves), task, number + 1, (), move,
                              state)
            continue
        return Verdict("missed", current.hint, tuple(moves), task, number, move=move, state=after)
    return verdict


def _scripted(state: State, text: str, what: str) -> State:
    try:
        return state.play(text)
    except (IllegalMove, ValueError) as error:
        raise ValueError(f"{what} {text!r} is illegal: {error}") from None
