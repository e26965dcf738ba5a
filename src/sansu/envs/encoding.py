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

from functools import lru_cache
from typing import Any

import numpy as np

from sansu.core.protocol import Game, Move, State
from sansu.core.sections import PLACES
from sansu.envs.encoding_base import (
    CHALLENGE_ACTIONS,
    CHALLENGE_TIMEOUT,
    INT8,
    MAX_PLAYERS,
    SUMODOKU_ACTIONS,
    SUMODOKU_ERASE,
    SUMODOKU_WORDS,
    Encoding,
    unpack_bits,
)
from sansu.envs.sudoku_encoding import ChallengeEncoding, SumodokuEncoding

__all__ = [
    "CHALLENGE_ACTIONS",
    "CHALLENGE_TIMEOUT",
    "INT8",
    "MAX_PLAYERS",
    "SUMODOKU_ACTIONS",
    "SUMODOKU_ERASE",
    "SUMODOKU_WORDS",
    "ChallengeEncoding",
    "Encoding",
    "SectionsEncoding",
    "SumodokuEncoding",
    "ThirtyFiveEncoding",
    "encoding_for",
    "returns",
    "returns_of",
]

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
        both = unpack_bits(marks0 | marks1 << 88, 176)
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
        return np.repeat(1 - unpack_bits(filled, self.cells), 9).astype(np.int8)

    def start_mask(self, state: State) -> np.ndarray:
        return self.mask(state)

    def patch_mask(self, kept: np.ndarray, before: State, after: State) -> None:
        """A move fills one square: its nine numbers go (and all of them at the end)."""
        if after.result is not None:
            kept[:] = 0
            return
        start = 9 * after.last_move.cell  # type: ignore[attr-defined]
        kept[start : start + 9] = 0

    def next_observation(
        self, previous: np.ndarray, before: State, after: State, *, in_place: bool = False
    ) -> np.ndarray:
        """A move changes its square and the squares whose colour or highlight it changed."""
        obs = previous if in_place else previous.copy()
        old: Any = before.bitboards()  # type: ignore[attr-defined]
        filled, red, hl0, hl1, values = after.bitboards()  # type: ignore[attr-defined]
        changed = (filled ^ old[0]) | (red ^ old[1]) | (hl0 ^ old[2]) | (hl1 ^ old[3])
        while changed:
            low = changed & -changed
            changed ^= low
            cell = low.bit_length() - 1
            if filled & low:
                obs[0, cell] = 1 if red & low else 2
                obs[1, cell] = values >> (8 * cell) & 0xFF
                obs[2, cell] = 0
            else:
                obs[2, cell] = 1 if hl0 & low else 2 if hl1 & low else 0
        return obs

    def observation(self, state: State) -> np.ndarray:
        filled, red, hl0, hl1, values = state.bitboards()  # type: ignore[attr-defined]
        cells = self.cells
        obs = np.empty(self.observation_shape, dtype=np.int8)
        # The four masks unpacked at once: filled, red, highlight 0, highlight 1.
        bits = unpack_bits(filled | red << cells | hl0 << 2 * cells | hl1 << 3 * cells, 4 * cells)
        obs[0] = bits[:cells] * (2 - bits[cells : 2 * cells])
        obs[1] = np.frombuffer(values.to_bytes(cells, "little"), dtype=np.uint8)
        obs[2] = bits[2 * cells : 3 * cells] + 2 * bits[3 * cells :]
        return obs


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
    return returns_of(state.game, state.result)


def returns_of(game: Game, result: Any) -> list[float]:
    """:func:`returns` of a ``result`` of ``game`` (``None``: zeros), however the game
    ended (by the rules, or a resignation or a clock the server recorded)."""
    n = game.num_players
    if result is None:
        return [0.0] * n
    if game.id == "challenge" and result.scores:
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
