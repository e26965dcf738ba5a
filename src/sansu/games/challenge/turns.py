"""How a Sudoku Challenge position moves on: a turn's end, the next round (its count,
whether it is the final one, its order of play), the next turn, and the full grid's end.

These are the only methods that change a state in place, and only a fresh
copy inside :meth:`~sansu.games.challenge.game.ChallengeState.play` (or the
initial state being built).
"""

from __future__ import annotations

from dataclasses import replace

from sansu.core.protocol import Result
from sansu.games.challenge.rounds import (
    GRID_FULL_BONUS,
    HANDICAPS,
    TEAM_NAMES,
    TEAMS,
    alternate_teams,
    round_count,
)
from sansu.games.challenge.sheet import GRID_FULL, PLAYED, PLAYING, TurnRow, replace_row


class TurnsAndRounds:
    """The order of play, mixed into :class:`~sansu.games.challenge.game.ChallengeState`."""

    __slots__ = ()

    def _end_turn(self, *, timeout: bool) -> None:
        index = len(self.sheet) - len(self.order) + self._pos
        row = self.sheet[index]
        self.sheet = replace_row(self.sheet, index, replace(row, status=PLAYED, timeout=timeout))
        self.required_cell = None
        self._made = 0
        self._pos += 1
        if self._pos == len(self.order):
            self._start_round()
        else:
            self._start_turn()

    def _start_round(self) -> None:
        """Next round: its count, whether it is the final round, its order of play."""
        options = self.game.options
        players = self.game.num_players
        self.round += 1
        self.round_count = count = round_count(options["sequence"], self.round)
        self.final_round = self._empty <= count * players
        last = self.sheet[-1].player if self.sheet else None
        if self.final_round and options["final_order"] == "increasing":
            scores = self.scores
            self.order = tuple(sorted(range(players), key=lambda p: scores[p]))
        else:
            self.order = tuple(range(players))
        if self.final_round and options["teams"]:
            self.order = alternate_teams(self.order, last)
        handicap = options["handicap"] and self.round == 1
        self.sheet = self.sheet + tuple(
            TurnRow(self.round, p, count, HANDICAPS[p] if handicap else 0) for p in self.order
        )
        self._pos = 0
        self._made = 0
        self._start_turn()

    def _start_turn(self) -> None:
        index = len(self.sheet) - len(self.order) + self._pos
        self.sheet = replace_row(self.sheet, index, replace(self.sheet[index], status=PLAYING))
        self.to_move = self.order[self._pos]

    def _finish(self) -> None:
        """The grid is full: close the sheet, +10 to those left out, and the result."""
        start = len(self.sheet) - len(self.order)
        rows = list(self.sheet)
        scores = list(self.scores)
        rows[start + self._pos] = replace(rows[start + self._pos], status=PLAYED)
        for index in range(start + self._pos + 1, len(rows)):
            rows[index] = replace(rows[index], status=GRID_FULL, grid_full=GRID_FULL_BONUS)
            scores[rows[index].player] += GRID_FULL_BONUS
        self.sheet = tuple(rows)
        self.scores = tuple(scores)
        self.required_cell = None
        self._made = 0
        self.to_move = None
        team_scores = self.team_scores
        if team_scores is None:
            reason = "grid complete, " + "–".join(str(s) for s in scores)
            self.result = Result.by_scores(scores, reason)
        else:
            reason = "grid complete, " + ", ".join(
                f"team {name} {s}" for name, s in zip(TEAM_NAMES, team_scores, strict=True)
            )
            self.result = Result.by_scores(team_scores, reason, teams=TEAMS)
