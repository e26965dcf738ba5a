"""What a Sudoku Challenge position shows: its cells and score sheet as JSON, never the
solution (only :meth:`ChallengeView.hidden_json` reveals it).

A mixin of :class:`~sansu.games.challenge.game.ChallengeState`, kept apart so
that the rules and what is shown of them each stay one short file.
"""

from __future__ import annotations

from typing import Any

from sansu.core.cells import cell_name
from sansu.games.challenge.rounds import TEAMS
from sansu.sudoku.grid import SIZE, format_grid


class ChallengeView:
    """The JSON of a position (mixed into the state, whose fields it reads)."""

    __slots__ = ()
    same_view_for_all = True
    """Only the solution is hidden, and from everyone."""

    def cells_json(self) -> list[dict[str, Any] | None]:
        grid, owner = self._grid, self._owner
        return [
            {"player": None if owner[c] < 0 else owner[c], "value": grid[c]} if grid[c] else None
            for c in range(SIZE)
        ]

    def extra_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "scores": list(self.scores),
            "round": self.round,
            "round_count": self.round_count,
            "entries_left": self.entries_left,
            "order": list(self.order),
            "final_round": self.final_round,
            "errors": [e.to_json() for e in self.errors],
            "required_cell": None if self.required_cell is None else cell_name(self.required_cell),
            "turn_seconds": self.turn_seconds,
            "empty_cells": self._empty,
            "givens": self.game.givens_text,
            "score_sheet": [row.to_json() for row in self.sheet],
        }
        team_scores = self.team_scores
        if team_scores is not None:
            data["teams"] = [list(t) for t in TEAMS]
            data["team_scores"] = list(team_scores)
        return data

    def to_dict(self) -> dict[str, Any]:
        """Everything anyone may see; never the solution, and no seed to regenerate it."""
        data = super().to_dict()
        data["options"] = self.game.public_options()
        return data

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may see: the same for everyone, since only the solution is hidden."""
        return self.to_dict()

    def hidden_json(self) -> dict[str, Any]:
        """The hidden information, for ``sansu show --json --reveal``."""
        return {"solution": format_grid(self._solution)}
