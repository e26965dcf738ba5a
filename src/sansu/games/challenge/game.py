"""The game Sudoku Challenge with its options: the puzzle and its hidden solution.

The puzzle is loaded (checked or generated) on first use and shared by
every state of the game.
"""

from __future__ import annotations

from typing import Any

from sansu.core.options import Option
from sansu.core.protocol import Game
from sansu.games.challenge.moves import ChallengeMove, parse_entry
from sansu.games.challenge.puzzles import check_puzzle, checked_puzzle, generated_puzzle
from sansu.games.challenge.rounds import DIFFICULTIES, HANDICAPS, SEQUENCES, TEAMS
from sansu.games.challenge.state import ChallengeState
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
