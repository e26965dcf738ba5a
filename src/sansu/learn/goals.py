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

:func:`sansu.learn.judge.check` asks :meth:`Goal.reached` after each of the
learner's moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sansu.core.protocol import State

GOALS = ("any", "moves", "section", "win", "convert", "highlight", "cancel", "score")


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

    def reached(
        self, before: dict[str, Any], after: dict[str, Any], state: State, learner: int, move: str
    ) -> bool:
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
                name
                for name in after["converted"]
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
