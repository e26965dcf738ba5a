"""The game Sudoku Challenge (its options, the puzzle and its hidden solution) and its
positions: the grid so far, the round and turn, the score sheet.

Playing an entry checks it against the hidden solution: a correct one is
placed and scored, a wrong one recorded (:mod:`.sheet`); then the turns and
rounds move on (:mod:`.turns`). The solution never leaves the state except
through :meth:`ChallengeState.hidden_json`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sansu.core.cells import cell_name
from sansu.core.options import Option
from sansu.core.protocol import Game, IllegalMove, Move, State
from sansu.games.challenge.moves import CELL_ENTRIES, TIMEOUT, ChallengeMove, Entry, parse_entry
from sansu.games.challenge.puzzles import check_puzzle, checked_puzzle, generated_puzzle
from sansu.games.challenge.rounds import COMPLETION_BONUS, DIFFICULTIES, HANDICAPS, SEQUENCES, TEAMS
from sansu.games.challenge.sheet import (
    ErrorRecord,
    Placed,
    TurnRow,
    add_points,
    completed_units,
    replace_row,
)
from sansu.games.challenge.turns import TurnsAndRounds
from sansu.games.challenge.view import ChallengeView
from sansu.sudoku.grid import SIZE, Grid, format_grid


class SudokuChallenge(Game):
    """Sudoku Challenge with its options; holds the puzzle and its solution."""

    id = "challenge"
    title = "Sudoku Challenge"
    aliases = ("sudoku_challenge",)
    option_specs = (
        Option("players", int, 2, "number of players", low=2, high=5),
        Option("puzzle", str, "",
               "the givens, 81 characters ('.' or '0' blank) with exactly one solution;"
               " empty: generate one from seed and difficulty", check=check_puzzle),
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
                self._puzzle = checked_puzzle(text)
            else:
                self._puzzle = generated_puzzle(self.options["seed"], self.options["difficulty"])
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


class ChallengeState(TurnsAndRounds, ChallengeView, State):
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

    def wrong_mask(self, cell: int) -> int:
        """:meth:`wrong_digits` as a bit mask (bit ``d`` for digit ``d``), for bulk readers."""
        return self._wrong[cell]

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
                moves += [e for e in CELL_ENTRIES[c] if not mask >> e.digit & 1]
            else:
                moves += CELL_ENTRIES[c]
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
        new.sheet = replace_row(
            self.sheet, index, replace(row, errors=(*row.errors, move), penalty=row.penalty + cost)
        )
        if cost:
            new.scores = add_points(self.scores, player, -cost)
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
        completes = completed_units(new._grid, cell)
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
        new.sheet = replace_row(self.sheet, index, row)
        if points + bonus:
            new.scores = add_points(self.scores, player, points + bonus)
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
