"""Sudoku Challenge's score sheet: a line per player's turn, what each entry scored, the errors.

The sheet is the game's public record: the states keep it as immutable
tuples, and ``to_json`` gives the lines the web app and ``sansu show`` print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sansu.games.challenge.moves import CELL_NAMES, ENTRY_TEXTS, Entry
from sansu.sudoku.grid import BOXES, COLUMNS, ROWS, Grid, box_name, box_of


@dataclass(frozen=True, slots=True)
class Placed:
    """One placed entry of a turn and what it scored."""

    cell: int
    digit: int
    points: int
    corrected: bool
    """The entry corrects an error in the same cell (``errors=original``: no points)."""
    completes: tuple[str, ...]
    """The rows, columns and boxes it completed, e.g. ``("row 3", "top-left box")``."""

    def to_json(self) -> dict[str, Any]:
        return {
            "entry": ENTRY_TEXTS[9 * self.cell + self.digit - 1],
            "points": self.points,
            "corrected": self.corrected,
            "completes": list(self.completes),
        }


WAITING, PLAYING, PLAYED, GRID_FULL = "waiting", "playing", "played", "grid full"


@dataclass(frozen=True, slots=True)
class TurnRow:
    """One line of the score sheet: one player's turn in one round.

    A round's lines are written when the round starts (in its order of
    play), so the sheet always adds up: a player's score is the sum of the
    ``total`` of their lines.
    """

    round: int
    player: int
    count: int
    handicap: int = 0
    entries: tuple[Placed, ...] = ()
    errors: tuple[Entry, ...] = ()
    digits: int = 0
    bonus: int = 0
    penalty: int = 0
    """Points taken off for errors (``errors=simplified``), a non-negative number."""
    grid_full: int = 0
    timeout: bool = False
    status: str = WAITING
    """``waiting``, ``playing``, ``played`` or ``grid full`` (could not play)."""

    @property
    def total(self) -> int:
        return self.handicap + self.digits + self.bonus + self.grid_full - self.penalty

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "player": self.player,
            "count": self.count,
            "status": self.status,
            "entries": [p.to_json() for p in self.entries],
            "errors": [str(e) for e in self.errors],
            "digits": self.digits,
            "bonus": self.bonus,
            "handicap": self.handicap,
            "penalty": self.penalty,
            "grid_full": self.grid_full,
            "timeout": self.timeout,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class ErrorRecord:
    """A wrong entry: who, where, what, when."""

    player: int
    cell: int
    digit: int
    round: int

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "cell": CELL_NAMES[self.cell],
            "digit": self.digit,
            "round": self.round,
        }


def replace_row(sheet: tuple[TurnRow, ...], index: int, row: TurnRow) -> tuple[TurnRow, ...]:
    """``sheet`` with line ``index`` replaced by ``row``."""
    return (*sheet[:index], row, *sheet[index + 1 :])


def add_points(scores: tuple[int, ...], player: int, points: int) -> tuple[int, ...]:
    """``scores`` with ``points`` added to ``player``'s."""
    out = list(scores)
    out[player] += points
    return tuple(out)


def completed_units(grid: Grid, cell: int) -> tuple[str, ...]:
    """The units through ``cell`` that ``grid`` has full."""
    row, col, box = cell // 9, cell % 9, box_of(cell)
    done = []
    if all(grid[c] for c in ROWS[row]):
        done.append(f"row {row + 1}")
    if all(grid[c] for c in COLUMNS[col]):
        done.append(f"column {col + 1}")
    if all(grid[c] for c in BOXES[box]):
        done.append(box_name(box))
    return tuple(done)
