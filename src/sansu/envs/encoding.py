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

from typing import Any

import numpy as np

from sansu.core.protocol import Game, Move, State

SUMODOKU_ERASE = 729
SUMODOKU_WORDS = ("sudoku", "challenge", "timeout")
SUMODOKU_ACTIONS = 813
CHALLENGE_TIMEOUT = 729
CHALLENGE_ACTIONS = 730
MAX_PLAYERS = 5


class Encoding:
    """Actions and observations of one game (with its options)."""

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

    def observation(self, state: State) -> np.ndarray:
        raise NotImplementedError


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

    def mask(self, state: State) -> np.ndarray:
        out = np.zeros(81, dtype=np.int8)
        for m in state.legal_moves():
            out[m.cell] = 1  # type: ignore[attr-defined]
        return out

    def observation(self, state: State) -> np.ndarray:
        from sansu.core.sections import cells_of_section

        obs = np.zeros(self.observation_shape, dtype=np.int8)
        planes = (obs[0], obs[1], obs[2]) if self.digits else (obs[0], None, obs[1])
        owner_plane, digit_plane, section_plane = planes
        st: Any = state
        for cell in range(81):
            who = st.player_at(cell) if self.digits else st.mark_at(cell)
            if who is not None:
                owner_plane[cell] = who + 1
                if digit_plane is not None:
                    digit_plane[cell] = st.digit_at(cell)
        for s in range(9):
            owner = st.section_owner(s)
            code = 0 if owner is None and not st.is_closed(s) else 3 if owner is None else owner + 1
            section_plane[list(cells_of_section(s))] = code
        return obs


class ThirtyFiveEncoding(Encoding):
    """35: a number on a square; planes of colour, number and highlight."""

    observation_high = 9

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.cols = game.options["cols"]
        cells = game.options["rows"] * self.cols
        self.num_actions = 9 * cells
        self.observation_shape = (3, cells)

    def text_of(self, action: int) -> str:
        cell, digit = divmod(int(action), 9)
        return f"r{cell // self.cols + 1}c{cell % self.cols + 1}={digit + 1}"

    def observation(self, state: State) -> np.ndarray:
        st: Any = state
        obs = np.zeros(self.observation_shape, dtype=np.int8)
        for cell in range(self.observation_shape[1]):
            colour = st.colour_at(cell)
            if colour is not None:
                obs[0, cell] = colour + 1
                obs[1, cell] = st.value_at(cell)
            highlight = st.highlight_at(cell)
            if highlight is not None:
                obs[2, cell] = highlight + 1
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

    def action_of(self, move: Move) -> int:
        word = str(move)
        if word in SUMODOKU_WORDS:
            return SUMODOKU_ERASE + 81 + SUMODOKU_WORDS.index(word)
        if word.startswith("erase"):
            return SUMODOKU_ERASE + move.cell  # type: ignore[attr-defined]
        return 9 * move.cell + move.colour - 1  # type: ignore[attr-defined]

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
        if str(move) == "timeout":
            return CHALLENGE_TIMEOUT
        return super().action_of(move)

    def text_of(self, action: int) -> str:
        if int(action) == CHALLENGE_TIMEOUT:
            return "timeout"
        return super().text_of(action)

    def observation(self, state: State) -> np.ndarray:
        st: Any = state
        obs = np.zeros(self.observation_shape, dtype=np.int16)
        grid = st.grid
        obs[:81] = grid
        for cell in range(81):
            if grid[cell]:
                who = st.owner(cell)
                obs[81 + cell] = 1 if who is None else who + 2
            obs[162 + cell] = sum(1 << d for d in st.wrong_digits(cell))
        obs[243 : 243 + len(st.scores)] = st.scores
        obs[248] = st.round
        obs[249] = st.round_count
        obs[250] = st.entries_left
        obs[251] = 0 if st.required_cell is None else st.required_cell + 1
        obs[252] = 0 if st.to_move is None else st.to_move + 1
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
