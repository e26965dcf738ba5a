"""One encoding of actions and observations for every sansu environment.

PettingZoo, Gymnasium, OpenSpiel and the batched simulator all number the
actions the same way, so a policy trained in one plays in the others:

* Ultimate Tic-Tac-Toe and Sansumoku: ``9 * (row - 1) + (col - 1)``, 81 actions;
* 35: ``9 * cell + (number - 1)``, ``cell = cols * (row - 1) + (col - 1)``;
* Sumodoku: ``9 * cell + (colour - 1)`` for a placement (0–728), then
  ``729 + cell`` for ``erase`` (729–809), 810 ``sudoku``, 811 ``challenge``,
  812 ``timeout``;
* Sudoku Challenge: ``9 * cell + (digit - 1)`` for an entry (0–728), 729
  ``timeout``.

Observations are integer arrays built from what every player may see
(never Sudoku Challenge's solution); their layouts are in docs/research.md.
The engines stay the rules: an encoding only translates.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import numpy as np

from sansu.core.protocol import Game, Move, State
from sansu.core.sections import PLACES

SUMODOKU_ERASE = 729
SUMODOKU_WORDS = ("sudoku", "challenge", "timeout")
SUMODOKU_ACTIONS = 813
CHALLENGE_TIMEOUT = 729
CHALLENGE_ACTIONS = 730
MAX_PLAYERS = 5
INT8 = np.dtype(np.int8)
"""For hot calls: NumPy parses a positional dtype object faster than a ``dtype=`` keyword."""


class Encoding(ABC):
    """Actions and observations of one game (with its options); each game's own subclass
    says what a player observes."""

    num_actions: int
    observation_shape: tuple[int, ...]
    observation_high: int
    """Every observation entry lies in ``0 .. observation_high``."""
    observation_dtype: Any = np.int8

    def __init__(self, game: Game) -> None:
        self.game = game

    def action_of(self, move: Move) -> int:
        """The action number of an engine move."""
        return 9 * move.cell + move.digit - 1  # type: ignore[attr-defined]

    def move_of(self, state: State, action: int) -> Move:
        """The engine move of an action number (legal or not: :meth:`State.play` judges)."""
        return self.game.parse_move(self.text_of(action))

    def text_of(self, action: int) -> str:
        """The canonical text of an action's move."""
        cell, digit = divmod(int(action), 9)
        return f"r{cell // 9 + 1}c{cell % 9 + 1}={digit + 1}"

    def legal_actions(self, state: State) -> list[int]:
        """The legal actions of the player to move, ascending."""
        action_of = self.action_of
        return sorted(action_of(m) for m in state.legal_moves())

    def mask(self, state: State) -> np.ndarray:
        """``int8[num_actions]``: 1 for each legal action of the player to move."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        moves = state.legal_moves()
        if moves:
            out[[self.action_of(m) for m in moves]] = 1
        return out

    @abstractmethod
    def observation(self, state: State) -> np.ndarray:
        """What the player to move observes, ``observation_shape`` entries."""

    def next_observation(
        self, previous: np.ndarray, before: State, after: State, *, in_place: bool = False
    ) -> np.ndarray:
        """``observation(after)``, given ``previous = observation(before)`` and one move between.

        A new array, ``previous`` left as it is; or, ``in_place``, possibly
        ``previous`` itself, changed (for an owner that hands out only
        copies). Games whose moves change little of the observation override
        this to patch ``previous`` (or a copy) instead of building it again.
        """
        return self.observation(after)


def _bits(mask: int, count: int) -> np.ndarray:
    """The low ``count`` bits of ``mask`` as a uint8 array, lowest first."""
    raw = np.frombuffer(mask.to_bytes((count + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=count, bitorder="little")


BIT_OF_CELL = np.array(
    [9 * (3 * (c // 27) + c % 9 // 3) + 3 * (c // 9 % 3) + c % 3 for c in range(81)]
)
"""Row-major cell → its bit in a section-major board mask (:mod:`sansu.core.sections`)."""
SECTION_OF_CELL = BIT_OF_CELL // 9


class SectionsEncoding(Encoding):
    """Ultimate Tic-Tac-Toe and Sansumoku: actions are the 81 cells, row-major."""

    num_actions = 81
    observation_high = 9

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.digits = game.id == "sansumoku"
        self.observation_shape = (3 if self.digits else 2, 81)

    def action_of(self, move: Move) -> int:
        return move.cell  # type: ignore[attr-defined]

    def text_of(self, action: int) -> str:
        cell = int(action)
        return f"r{cell // 9 + 1}c{cell % 9 + 1}"

    def move_of(self, state: State, action: int) -> Move:
        if not 0 <= action < 81:
            raise ValueError(f"action {action} is not one of 0 to 80")
        return PLACES[action]

    def legal_actions(self, state: State) -> list[int]:
        return sorted(m.cell for m in state.legal_moves())  # type: ignore[attr-defined]

    def mask(self, state: State) -> np.ndarray:
        # The engine's flags, compiled like its moves: cheaper than any NumPy indexing.
        return np.frombuffer(state.legal_cells(), INT8)  # type: ignore[attr-defined]

    def observation(self, state: State) -> np.ndarray:
        boards = state.bitboards()  # type: ignore[attr-defined]
        marks0, marks1, won0, won1, closed = boards[:5]
        obs = np.empty(self.observation_shape, dtype=np.int8)
        both = _bits(marks0 | marks1 << 88, 176)
        obs[0] = (both[:81] + 2 * both[88:169])[BIT_OF_CELL]
        obs[-1] = _section_plane(won0, won1, closed)
        if self.digits:
            raw = np.frombuffer(boards[5].to_bytes(41, "little"), dtype=np.uint8)
            nibbles = np.empty(82, dtype=np.uint8)
            nibbles[0::2] = raw & 15
            nibbles[1::2] = raw >> 4
            obs[1] = nibbles[BIT_OF_CELL]
        return obs

    def next_observation(
        self, previous: np.ndarray, before: State, after: State, *, in_place: bool = False
    ) -> np.ndarray:
        """A placement changes its cell and, when it closes sections, the section plane."""
        move: Any = after.last_move
        mover = before.to_move
        if move is None or mover is None:
            return self.observation(after)
        obs = previous if in_place else previous.copy()
        cell = move.cell
        obs[0, cell] = mover + 1
        if self.digits:
            obs[1, cell] = after.digit_at(cell)  # type: ignore[attr-defined]
        # A section changes state only by closing (a won section is closed too).
        if after.closed_sections != before.closed_sections:  # type: ignore[attr-defined]
            boards = after.bitboards()  # type: ignore[attr-defined]
            obs[-1] = _section_plane(boards[2], boards[3], boards[4])
        return obs


@lru_cache(maxsize=4096)
def _section_plane(won0: int, won1: int, closed: int) -> np.ndarray:
    """Each cell's section state (0 open, 1/2 won by player 0/1, 3 full), row-major."""
    codes = [
        1 if won0 >> s & 1 else 2 if won1 >> s & 1 else 3 if closed >> s & 1 else 0
        for s in range(9)
    ]
    plane = np.array(codes, dtype=np.int8)[SECTION_OF_CELL]
    plane.flags.writeable = False
    return plane


class ThirtyFiveEncoding(Encoding):
    """35: a number on a square; planes of colour, number and highlight."""

    observation_high = 9

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.cols = game.options["cols"]
        self.cells = cells = game.options["rows"] * self.cols
        self.num_actions = 9 * cells
        self.observation_shape = (3, cells)

    def text_of(self, action: int) -> str:
        cell, digit = divmod(int(action), 9)
        return f"r{cell // self.cols + 1}c{cell % self.cols + 1}={digit + 1}"

    def move_of(self, state: State, action: int) -> Move:
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is not one of 0 to {self.num_actions - 1}")
        cell, digit = divmod(int(action), 9)
        return self.game.geometry.move(cell, digit + 1)  # type: ignore[attr-defined]

    def mask(self, state: State) -> np.ndarray:
        if state.result is not None:
            return np.zeros(self.num_actions, dtype=np.int8)
        # Every number goes on every empty square.
        filled = state.bitboards()[0]  # type: ignore[attr-defined]
        return np.repeat(1 - _bits(filled, self.cells), 9).astype(np.int8)

    def observation(self, state: State) -> np.ndarray:
        filled, red, hl0, hl1, values = state.bitboards()  # type: ignore[attr-defined]
        cells = self.cells
        obs = np.empty(self.observation_shape, dtype=np.int8)
        # The four masks unpacked at once: filled, red, highlight 0, highlight 1.
        bits = _bits(filled | red << cells | hl0 << 2 * cells | hl1 << 3 * cells, 4 * cells)
        obs[0] = bits[:cells] * (2 - bits[cells : 2 * cells])
        obs[1] = np.frombuffer(values.to_bytes(cells, "little"), dtype=np.uint8)
        obs[2] = bits[2 * cells : 3 * cells] + 2 * bits[3 * cells :]
        return obs


class SumodokuEncoding(Encoding):
    """Sumodoku: placements, erases and the one-word moves.

    Observation (int8, 186): colours on the 81 cells (0 empty), who placed
    each piece (0 nobody, 1 player 0, 2 player 1), each player's hand by
    colour (9 + 9), each player's turns taken (2), the phase (0 play,
    1 claim), the claimant + 1 (0 none), the spare's colour (0 none) and the
    player to move + 1 (0: the game is over).
    """

    num_actions = SUMODOKU_ACTIONS
    observation_shape = (186,)
    observation_high = 81

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        from sansu.games.sumodoku import Erase, Placement  # once: an import a call costs a µs

        self._placement, self._erase = Placement, Erase

    def action_of(self, move: Move) -> int:
        kind = move.__class__
        if kind is self._placement:
            return 9 * move.cell + move.colour - 1  # type: ignore[attr-defined]
        if kind is self._erase:
            return SUMODOKU_ERASE + move.cell  # type: ignore[attr-defined]
        return SUMODOKU_ERASE + 81 + SUMODOKU_WORDS.index(str(move))

    def text_of(self, action: int) -> str:
        action = int(action)
        if action < SUMODOKU_ERASE:
            return super().text_of(action)
        if action < SUMODOKU_ERASE + 81:
            cell = action - SUMODOKU_ERASE
            return f"erase r{cell // 9 + 1}c{cell % 9 + 1}"
        return SUMODOKU_WORDS[action - SUMODOKU_ERASE - 81]

    def observation(self, state: State) -> np.ndarray:
        st: Any = state
        obs = np.zeros(self.observation_shape, dtype=np.int8)
        obs[:81] = st.grid
        obs[81:162] = [0 if (o := st.owner_of(c)) is None else o + 1 for c in range(81)]
        obs[162:171] = st.hand(0)[1:]
        obs[171:180] = st.hand(1)[1:]
        obs[180] = st.turns_taken(0)
        obs[181] = st.turns_taken(1)
        obs[182] = st.phase == "claim"
        obs[183] = 0 if st.claimant is None else st.claimant + 1
        obs[184] = st.spare or 0
        obs[185] = 0 if st.to_move is None else st.to_move + 1
        return obs


class ChallengeEncoding(Encoding):
    """Sudoku Challenge: entries and ``timeout``; the solution is never observed.

    Observation (int16, 253): the digits on the 81 cells (0 empty), who
    entered each (0 empty, 1 a given, 2 + p player p), the digits already
    found wrong on each cell (a bit mask, bit d for digit d), the five
    players' scores (0 for absent players), then the round, the round's
    count of entries, the entries left this turn, the required cell + 1
    (0: none) and the player to move + 1 (0: the game is over).
    """

    num_actions = CHALLENGE_ACTIONS
    observation_shape = (253,)
    observation_high = 1023
    observation_dtype = np.int16

    def action_of(self, move: Move) -> int:
        digit = getattr(move, "digit", None)
        if digit is None:  # the one move without a digit: timeout
            return CHALLENGE_TIMEOUT
        return 9 * move.cell + digit - 1  # type: ignore[attr-defined]

    def text_of(self, action: int) -> str:
        if int(action) == CHALLENGE_TIMEOUT:
            return "timeout"
        return super().text_of(action)

    def observation(self, state: State) -> np.ndarray:
        obs = np.zeros(self.observation_shape, dtype=np.int16)
        _challenge_cells(obs, state, range(81))
        _challenge_counts(obs, state)
        return obs

    def next_observation(
        self, previous: np.ndarray, before: State, after: State, *, in_place: bool = False
    ) -> np.ndarray:
        """A move changes the cells it enters (and the grid where it fills), and the counts."""
        b: Any = before
        a: Any = after
        obs = previous if in_place else previous.copy()
        cells = set()
        if a.grid != b.grid:
            cells.update(c for c, (x, y) in enumerate(zip(a.grid, b.grid, strict=True)) if x != y)
        cell = getattr(a.last_move, "cell", None)
        if cell is not None:
            cells.add(cell)
        _challenge_cells(obs, a, cells)
        _challenge_counts(obs, a)
        return obs


def _challenge_cells(obs: np.ndarray, state: Any, cells: Iterable[int]) -> None:
    """The three per-cell planes of a Sudoku Challenge observation, for ``cells``."""
    grid = state.grid
    for cell in cells:
        digit = obs[cell] = grid[cell]
        who = state.owner(cell)
        obs[81 + cell] = 0 if not digit else 1 if who is None else who + 2
        obs[162 + cell] = sum(1 << d for d in state.wrong_digits(cell))


def _challenge_counts(obs: np.ndarray, state: Any) -> None:
    """The scores, round and turn fields of a Sudoku Challenge observation."""
    obs[243 : 243 + len(state.scores)] = state.scores
    obs[248] = state.round
    obs[249] = state.round_count
    obs[250] = state.entries_left
    obs[251] = 0 if state.required_cell is None else state.required_cell + 1
    obs[252] = 0 if state.to_move is None else state.to_move + 1


def encoding_for(game: Game) -> Encoding:
    """The encoding of ``game`` (with its options)."""
    if game.id in ("uttt", "sansumoku"):
        return SectionsEncoding(game)
    if game.id == "thirtyfive":
        return ThirtyFiveEncoding(game)
    if game.id == "sumodoku":
        return SumodokuEncoding(game)
    return ChallengeEncoding(game)


def returns(state: State) -> list[float]:
    """Each player's reward for a finished game (zeros while it goes on).

    +1 to every winner and −1 to every other player, 0 to all in a draw.
    Sudoku Challenge ranks: a player gets (players scoring less − players
    scoring more) / (players − 1), the same +1/−1/0 with two players; with
    teams, the team's rank among the two teams (+1/−1/0).
    """
    game = state.game
    n = game.num_players
    result = state.result
    if result is None:
        return [0.0] * n
    if game.id == "challenge":
        scores = list(result.scores or ())
        teams = getattr(game, "teams", None)
        if teams:
            team_of = {p: t for t, members in enumerate(teams) for p in members}
            return [_rank(scores, team_of[p]) for p in range(n)]
        return [_rank(scores, p) for p in range(n)]
    if result.draw:
        return [0.0] * n
    return [1.0 if p in result.winners else -1.0 for p in range(n)]


def _rank(scores: list[int], me: int) -> float:
    mine = scores[me]
    return (sum(s < mine for s in scores) - sum(s > mine for s in scores)) / (len(scores) - 1)
