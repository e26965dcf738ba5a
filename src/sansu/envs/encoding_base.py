"""The base of every game's encoding (:mod:`sansu.envs.encoding`): action numbers, masks
and observations, and the action counts of the games with words among their moves."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from sansu.core.protocol import Game, Move, State

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
    """Every observation entry lies in ``0 .. observation_high`` unless :meth:`observation_bounds`
    says otherwise."""
    observation_dtype: Any = np.int8

    def __init__(self, game: Game) -> None:
        self.game = game

    def observation_bounds(self) -> tuple[Any, Any]:
        """The lowest and highest value of each observation entry (scalars or arrays), for the
        environments' observation spaces."""
        return 0, self.observation_high

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
        return self.moves_mask(state)

    def moves_mask(self, state: State) -> np.ndarray:
        """:meth:`mask` made from the engine's list of legal moves, one move at a time.

        The reference the faster masks of the games are tested against.
        """
        out = np.zeros(self.num_actions, dtype=np.int8)
        moves = state.legal_moves()
        if moves:
            out[[self.action_of(m) for m in moves]] = 1
        return out

    # A kept mask, patched after each move, for games where a move changes
    # little of it: an environment keeps ``start_mask(state)`` (``None``: it
    # builds :meth:`mask` afresh each time instead), passes it to
    # ``patch_mask`` after every move and hands out ``handed_mask``.

    def start_mask(self, state: State) -> np.ndarray | None:
        """What an environment keeps to patch after each move (``None``: nothing)."""
        return None

    def patch_mask(self, kept: np.ndarray, before: State, after: State) -> None:
        """Change ``kept`` (from :meth:`start_mask`) for one move from ``before`` to ``after``."""
        return None  # nothing is kept by default

    def handed_mask(self, kept: np.ndarray, state: State) -> np.ndarray:
        """``mask(state)``, a new array, from the ``kept`` one of ``state``."""
        return kept.copy()

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


def unpack_bits(mask: int, count: int) -> np.ndarray:
    """The low ``count`` bits of ``mask`` as a uint8 array, lowest first."""
    raw = np.frombuffer(mask.to_bytes((count + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=count, bitorder="little")
