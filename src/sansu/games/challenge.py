"""Sudoku Challenge among friends and relatives: 2–5 players fill one Sudoku for points.

Rules as implemented (see ``docs/rules/challenge.md``): every round each
player in turn makes the round's count of entries (``sequence``: regular
1,2,3,1,2,3…, shortened 1,2,3,3…, express 3,3…). A correct entry is placed
and scores its digit; completing a row, column or box scores +10 once per
turn. A wrong entry is recorded, not placed, and the player's next entry must
be in the same cell. The final round (the first whose entries due would fill
the grid) may be played in increasing order of score; players left out by
the full grid score +10. Highest score wins.

The solution is hidden state: :meth:`ChallengeState.to_dict` and
:meth:`ChallengeState.view` never carry it, nor anything that gives it away
(legal moves are every digit on every empty cell; the ``seed`` option, which
regenerates the puzzle and thus its solution, is withheld). Only
:meth:`ChallengeState.hidden_json` reveals it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Final

from sansu.core.cells import cell_name, parse_digit, parse_placement
from sansu.core.options import Option
from sansu.core.protocol import Game, IllegalMove, Move, Result, State
from sansu.sudoku.grid import BOXES, COLUMNS, ROWS, SIZE, Grid, box_name, box_of, format_grid

SEQUENCES: Final = ("regular", "shortened", "express")
DIFFICULTIES: Final = ("easy", "medium", "hard", "expert", "extreme")
HANDICAPS: Final = (0, 4, 6, 8, 10)
"""Starting points of players 0–4 when the handicap option is on."""
COMPLETION_BONUS: Final = 10
"""For completing at least one row, column or box in a turn (once per turn)."""
GRID_FULL_BONUS: Final = 10
"""For each player who cannot play in the final round because the grid is full."""
TEAMS: Final = ((0, 2), (1, 3))
"""With ``teams``: seats A1, B1, A2, B2, so team-mates never play one after the other."""
TEAM_NAMES: Final = ("A", "B")


def alternate_teams(order: tuple[int, ...], last: int | None) -> tuple[int, ...]:
    """The final round's ``order`` rearranged so that the two teams alternate.

    Team-mates may never play one after the other, in the final round nor
    across the turn into it: the round begins with the team of ``order[0]``
    unless that team made the ``last`` turn before it; within each team its
    members keep their places in ``order`` (so ties keep the initial order).

    >>> alternate_teams((1, 0, 2, 3), last=3)  # B1 first by score, but B2 just played
    (0, 1, 2, 3)
    >>> alternate_teams((2, 0, 3, 1), last=3)
    (2, 3, 0, 1)
    """
    team_of = {p: t for t, members in enumerate(TEAMS) for p in members}
    first = team_of[order[0]]
    if last is not None and team_of[last] == first:
        first = 1 - first
    ours = [p for p in order if team_of[p] == first]
    theirs = [p for p in order if team_of[p] != first]
    return tuple(p for pair in zip(ours, theirs, strict=True) for p in pair)


def round_count(sequence: str, round_number: int) -> int:
    """How many entries each player makes in round ``round_number`` (1-based).

    >>> [round_count("regular", r) for r in range(1, 8)]
    [1, 2, 3, 1, 2, 3, 1]
    >>> [round_count("shortened", r) for r in range(1, 6)], round_count("express", 1)
    ([1, 2, 3, 3, 3], 3)
    """
    if sequence == "express":
        return 3
    if sequence == "shortened":
        return min(round_number, 3)
    return (round_number - 1) % 3 + 1


# -- moves --------------------------------------------------------------------

CELL_NAMES: Final = tuple(cell_name(c) for c in range(SIZE))
_ENTRY_TEXTS: Final = tuple(f"{name}={d}" for name in CELL_NAMES for d in range(1, 10))


@dataclass(frozen=True, slots=True)
class Entry:
    """A digit written in a cell: ``r5c5=7``."""

    cell: int
    digit: int

    def __str__(self) -> str:
        return _ENTRY_TEXTS[9 * self.cell + self.digit - 1]


class Timeout:
    """The host's ``timeout``: the turn's time is up, the turn ends."""

    __slots__ = ()

    def __str__(self) -> str:
        return "timeout"

    def __repr__(self) -> str:
        return "TIMEOUT"

    def __reduce__(self) -> str:
        return "TIMEOUT"


TIMEOUT: Final = Timeout()
ENTRIES: Final = tuple(Entry(cell, digit) for cell in range(SIZE) for digit in range(1, 10))
"""Every entry, ``ENTRIES[9 * cell + digit - 1]``, shared by all states."""
_CELL_ENTRIES: Final = tuple(ENTRIES[9 * c : 9 * c + 9] for c in range(SIZE))

ChallengeMove = Entry | Timeout


def parse_entry(text: str) -> ChallengeMove:
    """``"r5c5=7"`` → ``Entry(40, 7)``; ``"timeout"`` → :data:`TIMEOUT`."""
    if isinstance(text, str) and text.strip().lower() == "timeout":
        return TIMEOUT
    cell, value = parse_placement(text)
    if value is None:
        name = cell_name(cell)
        raise IllegalMove(f"an entry needs a digit, e.g. {name}=7", name)
    return ENTRIES[9 * cell + parse_digit(value, cell_name(cell)) - 1]


# -- the score sheet ------------------------------------------------------------


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
            "entry": _ENTRY_TEXTS[9 * self.cell + self.digit - 1],
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


# -- puzzles ------------------------------------------------------------------


@lru_cache(maxsize=64)
def _checked_puzzle(text: str) -> tuple[Grid, Grid]:
    """The givens and the unique solution of ``text``; ``ValueError`` says why not."""
    from sansu.sudoku.grid import parse_grid
    from sansu.sudoku.solver import count_solutions, solve

    givens = parse_grid(text)
    if all(givens):
        raise ValueError("the puzzle has no empty cell to play")
    found = count_solutions(givens, limit=2)
    if found == 0:
        raise ValueError("the puzzle has no solution")
    if found > 1:
        raise ValueError("the puzzle has more than one solution (it needs exactly one)")
    solution = solve(givens)
    assert solution is not None
    return givens, tuple(solution)


@lru_cache(maxsize=64)
def _generated_puzzle(seed: int, difficulty: str) -> tuple[Grid, Grid]:
    from sansu.sudoku.generator import generate

    made = generate(seed, difficulty=difficulty)
    return tuple(made.puzzle), tuple(made.solution)


def _check_puzzle(text: str) -> str:
    if not text:
        return ""
    givens, _solution = _checked_puzzle(text.strip())
    return format_grid(givens)


# -- the game -------------------------------------------------------------------


class SudokuChallenge(Game):
    """Sudoku Challenge with its options; holds the puzzle and its solution."""

    id = "challenge"
    title = "Sudoku Challenge"
    aliases = ("sudoku_challenge",)
    option_specs = (
        Option("players", int, 2, "number of players", low=2, high=5),
        Option("puzzle", str, "",
               "the givens, 81 characters ('.' or '0' blank) with exactly one solution;"
               " empty: generate one from seed and difficulty", check=_check_puzzle),
        Option("difficulty", str, "easy", "difficulty of a generated puzzle", choices=DIFFICULTIES),
        Option("seed", int, 0, "seed of a generated puzzle", low=0),
        Option("sequence", str, "regular",
               "entries per turn by round: regular 1,2,3,1,2,3…; shortened 1,2,3,3…; express 3,3…",
               choices=SEQUENCES),
        Option("handicap", bool, True, "players 2–5 start with +4, +6, +8, +10"),
        Option("final_order", str, "increasing",
               "order of the final round: increasing score, or status_quo",
               choices=("increasing", "status_quo")),
        Option("errors", str, "original",
               "original: a corrected entry scores no points; simplified: an error costs"
               " the round's count", choices=("original", "simplified")),
        Option("teams", bool, False,
               "two teams of two (4 players): players 0 and 2 against 1 and 3"),
        Option("turn_seconds", int, 0, "time limit per turn in seconds (0: none)",
               low=0, high=86400),
        Option("aids", bool, False,
               "hints on request (the next logical step, from the rater) and cell highlighting;"
               " changes no rule"),
    )  # fmt: skip

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if self.options["teams"] and self.options["players"] != 4:
            raise ValueError(
                "option 'teams': teams need exactly 4 players (two teams of two),"
                f" not {self.options['players']}"
            )
        self._puzzle: tuple[Grid, Grid] | None = None
        self._givens_text = ""

    @property
    def num_players(self) -> int:
        return int(self.options["players"])

    @property
    def teams(self) -> tuple[tuple[int, int], ...] | None:
        """The two teams (players 0, 2 and 1, 3) when the ``teams`` option is on."""
        return TEAMS if self.options["teams"] else None

    @property
    def givens(self) -> Grid:
        return self._load()[0]

    @property
    def givens_text(self) -> str:
        """The givens as 81 characters, ``.`` for a blank."""
        if not self._givens_text:
            self._givens_text = format_grid(self.givens)
        return self._givens_text

    def _load(self) -> tuple[Grid, Grid]:
        if self._puzzle is None:
            text = self.options["puzzle"]
            if text:
                self._puzzle = _checked_puzzle(text)
            else:
                self._puzzle = _generated_puzzle(self.options["seed"], self.options["difficulty"])
        return self._puzzle

    def public_options(self) -> dict[str, Any]:
        """The options as anyone may see them: the givens in ``puzzle``, the ``seed`` withheld.

        A seed regenerates the puzzle and so its solution; the givens alone
        reproduce the same game (``load_game("challenge", **public_options)``).
        """
        return {**self.options, "puzzle": self.givens_text, "seed": None}

    def initial_state(self) -> ChallengeState:
        givens, solution = self._load()
        players = self.num_players
        scores = HANDICAPS[:players] if self.options["handicap"] else (0,) * players
        state = ChallengeState.__new__(ChallengeState)
        state.game = self
        state._solution = solution
        state._grid = givens
        state._owner = (-1,) * SIZE
        state._wrong = (0,) * SIZE
        state._empty = givens.count(0)
        state.scores = tuple(scores)
        state.sheet = ()
        state.errors = ()
        state.required_cell = None
        state.last_move = None
        state.ply = 0
        state.result = None
        state.round = 0
        state._start_round()
        return state

    def parse_move(self, text: str) -> ChallengeMove:
        return parse_entry(text)


class ChallengeState(State):
    """A position: the grid so far, the round and turn, the score sheet.

    States are immutable; :meth:`play` builds a new one. ``_solution`` is
    private and never serialised except by :meth:`hidden_json`.
    """

    __slots__ = (
        "_empty",
        "_grid",
        "_made",
        "_owner",
        "_pos",
        "_solution",
        "_wrong",
        "errors",
        "final_round",
        "game",
        "last_move",
        "order",
        "ply",
        "required_cell",
        "result",
        "round",
        "round_count",
        "scores",
        "sheet",
        "to_move",
    )

    game: SudokuChallenge
    _solution: Grid
    _grid: Grid
    _owner: tuple[int, ...]
    _wrong: tuple[int, ...]
    """Per cell, a bit mask of digits already entered there in error."""
    _empty: int
    _made: int
    _pos: int
    round: int
    round_count: int
    """Entries each player makes this round."""
    order: tuple[int, ...]
    """The order of play this round."""
    final_round: bool
    scores: tuple[int, ...]
    sheet: tuple[TurnRow, ...]
    errors: tuple[ErrorRecord, ...]
    required_cell: int | None
    """After an error: the cell the player's next entry must be in."""

    def _copy(self) -> ChallengeState:
        new = ChallengeState.__new__(ChallengeState)
        for name in ChallengeState.__slots__:
            setattr(new, name, getattr(self, name))
        return new

    # -- what the position is ------------------------------------------------

    @property
    def grid(self) -> Grid:
        """The givens and the correct entries so far (0: empty)."""
        return self._grid

    @property
    def givens(self) -> Grid:
        return self.game.givens

    @property
    def empty_cells(self) -> int:
        return self._empty

    def owner(self, cell: int) -> int | None:
        """Who entered the digit in ``cell`` (``None``: a given or empty)."""
        who = self._owner[cell]
        return None if who < 0 else who

    @property
    def entries_left(self) -> int:
        """Entries the player to move still makes this turn (fewer when the grid fills up)."""
        if self.result is not None:
            return 0
        return min(self.round_count - self._made, self._empty)

    @property
    def entries_made(self) -> int:
        """Correct entries made so far this turn."""
        return self._made

    @property
    def turn_seconds(self) -> int:
        """The time limit of a turn in seconds (0: none); the host enforces it."""
        return int(self.game.options["turn_seconds"])

    @property
    def team_scores(self) -> tuple[int, int] | None:
        if not self.game.options["teams"]:
            return None
        s = self.scores
        return (s[0] + s[2], s[1] + s[3])

    def wrong_digits(self, cell: int) -> list[int]:
        """Digits already entered in error at ``cell`` (public: everyone saw them)."""
        mask = self._wrong[cell]
        return [d for d in range(1, 10) if mask >> d & 1]

    def current_row(self) -> TurnRow | None:
        """The score-sheet line of the turn being played."""
        if self.result is not None:
            return None
        return self.sheet[len(self.sheet) - len(self.order) + self._pos]

    def legal_moves(self) -> list[Move]:
        """Every digit on every empty cell (only the required cell after an error),
        except digits already found wrong there; plus ``timeout`` with a time limit.

        Correct and wrong entries alike: which are correct is the hidden solution.
        """
        if self.result is not None:
            return []
        wrong = self._wrong
        if self.required_cell is not None:
            cells: Sequence[int] = (self.required_cell,)
        else:
            grid = self._grid
            cells = [c for c in range(SIZE) if not grid[c]]
        moves: list[Move] = []
        for c in cells:
            mask = wrong[c]
            if mask:
                moves += [e for e in _CELL_ENTRIES[c] if not mask >> e.digit & 1]
            else:
                moves += _CELL_ENTRIES[c]
        if self.turn_seconds:
            moves.append(TIMEOUT)
        return moves

    # -- playing -----------------------------------------------------------------

    def play(self, move: Move | str) -> ChallengeState:
        if move.__class__ is not Entry and move is not TIMEOUT:
            move = self._coerce(move)
        if self.result is not None:
            raise IllegalMove("the game is over", str(move))
        if move is TIMEOUT:
            if not self.turn_seconds:
                raise IllegalMove(
                    "there is no time limit in this game (turn_seconds is 0)", "timeout"
                )
            new = self._copy()
            new.last_move = TIMEOUT
            new.ply = self.ply + 1
            new._end_turn(timeout=True)
            return new
        assert isinstance(move, Entry)
        cell, digit = move.cell, move.digit
        if (
            self._grid[cell]
            or (self.required_cell is not None and cell != self.required_cell)
            or (self._wrong[cell] >> digit & 1)
        ):
            raise self._why_illegal(move)
        if digit != self._solution[cell]:
            return self._error(move)
        return self._place(move)

    def _coerce(self, move: Move | str) -> ChallengeMove:
        if isinstance(move, str):
            return parse_entry(move)
        raise IllegalMove(f"not a move of this game: {move!r}")

    def _why_illegal(self, move: Entry) -> IllegalMove:
        text = str(move)
        cell = move.cell
        if self._grid[cell]:
            who = self._owner[cell]
            if who < 0:
                return IllegalMove(f"{cell_name(cell)} is a given ({self._grid[cell]})", text)
            return IllegalMove(
                f"{cell_name(cell)} is already filled (a {self._grid[cell]} by player {who})", text
            )
        if self.required_cell is not None and cell != self.required_cell:
            where = cell_name(self.required_cell)
            return IllegalMove(
                f"after the error at {where} your next entry must be at {where}", text
            )
        return IllegalMove(f"a {move.digit} at {cell_name(cell)} was already found wrong", text)

    def _error(self, move: Entry) -> ChallengeState:
        """A wrong entry: recorded, not placed; the next entry must be in that cell."""
        player = self.to_move
        assert player is not None
        new = self._copy()
        cost = self.round_count if self.game.options["errors"] == "simplified" else 0
        index = len(self.sheet) - len(self.order) + self._pos
        row = self.sheet[index]
        new.sheet = _replace_row(
            self.sheet, index, replace(row, errors=(*row.errors, move), penalty=row.penalty + cost)
        )
        if cost:
            new.scores = _add(self.scores, player, -cost)
        new.errors = (*self.errors, ErrorRecord(player, move.cell, move.digit, self.round))
        wrong = list(self._wrong)
        wrong[move.cell] |= 1 << move.digit
        new._wrong = tuple(wrong)
        new.required_cell = move.cell
        new.last_move = move
        new.ply = self.ply + 1
        return new

    def _place(self, move: Entry) -> ChallengeState:
        """A correct entry: placed, scored, and maybe the end of the turn or of the game."""
        player = self.to_move
        assert player is not None
        cell, digit = move.cell, move.digit
        new = self._copy()
        grid = list(self._grid)
        grid[cell] = digit
        new._grid = tuple(grid)
        owner = list(self._owner)
        owner[cell] = player
        new._owner = tuple(owner)
        corrected = cell == self.required_cell
        scoring = not (corrected and self.game.options["errors"] == "original")
        completes = _completed_units(new._grid, cell)
        points = digit if scoring else 0
        index = len(self.sheet) - len(self.order) + self._pos
        row = self.sheet[index]
        bonus = COMPLETION_BONUS if scoring and completes and not row.bonus else 0
        row = replace(
            row,
            entries=(*row.entries, Placed(cell, digit, points, corrected, completes)),
            digits=row.digits + points,
            bonus=row.bonus + bonus,
        )
        new.sheet = _replace_row(self.sheet, index, row)
        if points + bonus:
            new.scores = _add(self.scores, player, points + bonus)
        new._empty = self._empty - 1
        new._made = self._made + 1
        new.required_cell = None
        new.last_move = move
        new.ply = self.ply + 1
        if new._empty == 0:
            new._finish()
        elif new._made == self.round_count:
            new._end_turn(timeout=False)
        return new

    # Only the three methods below change a state in place, and only a fresh
    # copy inside play() (or the initial state being built).

    def _end_turn(self, *, timeout: bool) -> None:
        index = len(self.sheet) - len(self.order) + self._pos
        row = self.sheet[index]
        self.sheet = _replace_row(self.sheet, index, replace(row, status=PLAYED, timeout=timeout))
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
        self.sheet = _replace_row(self.sheet, index, replace(self.sheet[index], status=PLAYING))
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

    # -- JSON --------------------------------------------------------------------

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


def _replace_row(sheet: tuple[TurnRow, ...], index: int, row: TurnRow) -> tuple[TurnRow, ...]:
    return (*sheet[:index], row, *sheet[index + 1 :])


def _add(scores: tuple[int, ...], player: int, points: int) -> tuple[int, ...]:
    out = list(scores)
    out[player] += points
    return tuple(out)


def _completed_units(grid: Grid, cell: int) -> tuple[str, ...]:
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


GAME = SudokuChallenge
