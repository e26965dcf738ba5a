"""The encodings of the two games on a Sudoku grid: Sumodoku and Sudoku Challenge.

Their moves are looked up in a table of every action's move; Sumodoku's
mask comes from the engine's bit masks of legal placements, Sudoku
Challenge's is kept and patched after each move (see :class:`Encoding`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from sansu.core.protocol import Game, Move, State
from sansu.envs.encoding_base import (
    CHALLENGE_ACTIONS,
    CHALLENGE_TIMEOUT,
    INT8,
    SUMODOKU_ACTIONS,
    SUMODOKU_ERASE,
    SUMODOKU_WORDS,
    Encoding,
)
from sansu.games.challenge.rounds import COMPLETION_BONUS, GRID_FULL_BONUS, HANDICAPS
from sansu.sudoku.grid import UNITS


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

    def move_of(self, state: State, action: int) -> Move:
        return _move_in(self, action)

    def mask(self, state: State) -> np.ndarray:
        """The placements from the engine's bit masks (all 729 unpacked at once), then the rest."""
        st: Any = state
        out = np.zeros(SUMODOKU_ACTIONS, INT8)
        if st.result is not None:
            return out
        raw = b"".join([m.to_bytes(11, "little") for m in st.placement_masks()])
        bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little").reshape(9, 88)
        # Row c - 1 holds colour c by cell; actions go by cell, then colour.
        out[:SUMODOKU_ERASE].reshape(81, 9)[...] = bits[:, :81].T
        if st.phase == "claim":
            for cell in st.claim_cells():
                out[SUMODOKU_ERASE + cell] = 1
            out[SUMODOKU_ACTIONS - 1] = 1  # timeout
        else:
            out[SUMODOKU_ERASE + 81] = st.claim_open()  # sudoku
            out[SUMODOKU_ERASE + 82] = self.game.honour  # type: ignore[attr-defined]
        return out

    def next_observation(
        self, previous: np.ndarray, before: State, after: State, *, in_place: bool = False
    ) -> np.ndarray:
        """A placement in play changes its cell, a hand, a turn count and the mover; other
        moves (claims, erases, timeouts) are rare and rebuild the observation."""
        b: Any = before
        a: Any = after
        move = a.last_move
        if move.__class__ is not self._placement or b.phase != "play" or a.phase != "play":
            return self.observation(after)
        obs = previous if in_place else previous.copy()
        cell, colour = move.cell, move.colour
        obs[cell] = colour
        obs[81 + cell] = a.owner_of(cell) + 1
        obs[161 + colour] = a.hand(0)[colour]
        obs[170 + colour] = a.hand(1)[colour]
        obs[180] = a.turns_taken(0)
        obs[181] = a.turns_taken(1)
        obs[185] = 0 if a.to_move is None else a.to_move + 1
        return obs

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


ERROR_COST_HIGHEST = 3
"""The largest round count of every ``sequence``: what an error costs at most
(``errors=simplified``)."""


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

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Each field's own range; the scores' from the rules, so that they hold for every option
        set (``errors=simplified`` takes scores below zero).

        A player's score starts at their handicap. It can fall by the largest
        round count (3) for each error, and each digit but the right one can be
        found wrong once on each blank: with a time limit, one player can make
        every error (a timeout lets another player fill the cell), so this
        lowest score is reached. It can rise by at most the digits of the
        blanks (405 less the givens'), one completion bonus for each unit with
        a blank, and the bonus for a full grid. Absent players' scores (always 0)
        keep the common range: an entry whose bounds are equal is refused by Gymnasium's checker.
        """
        options = self.game.options
        givens = self.game.givens  # type: ignore[attr-defined]
        blanks = givens.count(0)
        starts = HANDICAPS[: self.game.num_players] if options["handicap"] else ()
        starts = (*starts, *(0,) * (self.game.num_players - len(starts)))
        units = sum(any(not givens[c] for c in unit) for unit in UNITS)
        fall = ERROR_COST_HIGHEST * 8 * blanks if options["errors"] == "simplified" else 0
        rise = 9 * 45 - sum(givens) + COMPLETION_BONUS * units + GRID_FULL_BONUS
        low = np.zeros(self.observation_shape, np.int16)
        high = np.full(self.observation_shape, self.observation_high, np.int16)
        for p, start in enumerate(starts):
            low[243 + p] = start - fall
            high[243 + p] = start + rise
        return low, high

    def action_of(self, move: Move) -> int:
        digit = getattr(move, "digit", None)
        if digit is None:  # the one move without a digit: timeout
            return CHALLENGE_TIMEOUT
        return 9 * move.cell + digit - 1  # type: ignore[attr-defined]

    def text_of(self, action: int) -> str:
        if int(action) == CHALLENGE_TIMEOUT:
            return "timeout"
        return super().text_of(action)

    def move_of(self, state: State, action: int) -> Move:
        return _move_in(self, action)

    def start_mask(self, state: State) -> np.ndarray:
        """Every digit not found wrong on every empty cell, and ``timeout`` where listed;
        without the restriction to the required cell (:meth:`handed_mask` makes it)."""
        st: Any = state
        kept = np.zeros(CHALLENGE_ACTIONS, INT8)
        if st.result is not None:
            return kept
        grid = st.grid
        for cell in range(81):
            if not grid[cell]:
                wrong = st.wrong_mask(cell)
                for digit in range(1, 10):
                    kept[9 * cell + digit - 1] = not wrong >> digit & 1
        kept[CHALLENGE_TIMEOUT] = st.turn_seconds > 0
        return kept

    def patch_mask(self, kept: np.ndarray, before: State, after: State) -> None:
        """A correct entry fills its cell (its nine entries go); a wrong one is found wrong."""
        move: Any = after.last_move
        cell = getattr(move, "cell", None)
        if after.result is not None:
            kept[:] = 0
        elif cell is not None:
            if after.grid[cell]:  # type: ignore[attr-defined]
                kept[9 * cell : 9 * cell + 9] = 0
            else:
                kept[9 * cell + move.digit - 1] = 0

    def handed_mask(self, kept: np.ndarray, state: State) -> np.ndarray:
        required = state.required_cell  # type: ignore[attr-defined]
        if required is None:
            return kept.copy()
        out = np.zeros(CHALLENGE_ACTIONS, INT8)
        start = 9 * required
        out[start : start + 9] = kept[start : start + 9]
        out[CHALLENGE_TIMEOUT] = kept[CHALLENGE_TIMEOUT]
        return out

    def observation(self, state: State) -> np.ndarray:
        obs = np.zeros(self.observation_shape, dtype=np.int16)
        _challenge_cells(obs, state, range(81))
        _challenge_counts(obs, state)
        return obs

    def next_observation(
        self, previous: np.ndarray, before: State, after: State, *, in_place: bool = False
    ) -> np.ndarray:
        """An entry changes its own cell (filled, or a digit found wrong) and the counts."""
        b: Any = before
        a: Any = after
        obs = previous if in_place else previous.copy()
        cell = getattr(a.last_move, "cell", None)
        if cell is not None:
            _challenge_cells(obs, a, (cell,))
        _challenge_counts(obs, a, a.scores != b.scores)
        return obs


def _challenge_cells(obs: np.ndarray, state: Any, cells: Iterable[int]) -> None:
    """The three per-cell planes of a Sudoku Challenge observation, for ``cells``."""
    grid = state.grid
    for cell in cells:
        digit = obs[cell] = grid[cell]
        who = state.owner(cell)
        obs[81 + cell] = 0 if not digit else 1 if who is None else who + 2
        obs[162 + cell] = state.wrong_mask(cell)


def _challenge_counts(obs: np.ndarray, state: Any, scores: bool = True) -> None:
    """The scores (unless ``scores`` is false: they are unchanged), round and turn fields
    of a Sudoku Challenge observation."""
    if scores:
        obs[243 : 243 + len(state.scores)] = state.scores
    obs[248] = state.round
    obs[249] = state.round_count
    obs[250] = state.entries_left
    obs[251] = 0 if state.required_cell is None else state.required_cell + 1
    obs[252] = 0 if state.to_move is None else state.to_move + 1


def _move_in(encoding: Encoding, action: int) -> Move:
    """The move of ``action`` from a table of every action's move, parsed once per encoding."""
    moves = encoding.__dict__.get("_moves")
    if moves is None:
        moves = encoding.__dict__["_moves"] = tuple(
            encoding.game.parse_move(encoding.text_of(a)) for a in range(encoding.num_actions)
        )
    if not 0 <= action < encoding.num_actions:
        raise ValueError(f"action {action} is not one of 0 to {encoding.num_actions - 1}")
    return moves[action]
