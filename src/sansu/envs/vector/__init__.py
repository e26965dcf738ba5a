"""``VectorEnv``: many games of one kind stepped together in compiled code.

Ultimate Tic-Tac-Toe, Sansumoku and 35 (any board size). The games are a
struct of arrays with a leading batch axis, and one compiled loop (numba)
applies a whole batch of actions: no Python loop over games. A finished game
is scored and started again in the same step (``terminated`` flags it), so
every row always holds a game in progress.

>>> venv = VectorEnv("uttt", num_envs=4, seed=0)
>>> out = venv.reset()
>>> out.legal_action_mask.shape, int(out.legal_action_mask[0].sum())
((4, 81), 81)
>>> out = venv.step(venv.random_actions())
>>> out.current_player.tolist()
[1, 1, 1, 1]
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from sansu.ai.kernels.rng import seed_state
from sansu.core.registry import load_game


class Batch(NamedTuple):
    """What :meth:`VectorEnv.reset` and :meth:`VectorEnv.step` return.

    The arrays are the environment's own and are overwritten by the next
    step: copy what you keep.
    """

    observation: np.ndarray
    """int8, ``num_envs × planes × cells`` (the planes are listed per game in docs/research.md)."""
    legal_action_mask: np.ndarray
    """bool, ``num_envs × num_actions``: the legal actions of the player to move."""
    current_player: np.ndarray
    """int8, ``num_envs``: who moves next (0 in a game that has just been started again)."""
    rewards: np.ndarray
    """float32, ``num_envs × 2``: +1/−1 to the winner/loser of a game finished by this step."""
    terminated: np.ndarray
    """bool, ``num_envs``: the game finished with this step and was started again."""


def _kernel(game_id: str) -> ModuleType:
    if game_id == "uttt":
        from sansu.envs.vector import uttt as module
    elif game_id == "sansumoku":
        from sansu.envs.vector import sansumoku as module
    else:
        from sansu.envs.vector import thirtyfive as module
    return module


class VectorEnv:
    """``num_envs`` games of ``game_id`` (``uttt``, ``sansumoku`` or ``thirtyfive``).

    ``seed`` seeds :meth:`random_actions`; the games themselves have no
    randomness. Actions are those of every sansu environment:
    ``9 * (row - 1) + (col - 1)`` in Ultimate Tic-Tac-Toe and Sansumoku,
    ``9 * cell + (number - 1)`` in 35.
    """

    GAMES = ("uttt", "sansumoku", "thirtyfive")

    def __init__(self, game_id: str, num_envs: int, seed: int = 0, **options: Any) -> None:
        game = load_game(game_id, **options)
        if game.id not in self.GAMES:
            raise ValueError(
                f"VectorEnv plays {', '.join(self.GAMES)}; not {game_id!r}"
                " (use pettingzoo_env or the OpenSpiel games for it)"
            )
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        self.game = game
        self.game_id = game.id
        self.num_envs = num_envs
        self._kernel = _kernel(game.id)
        if game.id == "thirtyfive":
            rows, cols = game.options["rows"], game.options["cols"]
            self._arrays = self._kernel.new_state(num_envs, rows, cols)
            cells = rows * cols
            self.num_actions = 9 * cells
        else:
            self._arrays = self._kernel.new_state(num_envs)
            cells = 81
            self.num_actions = self._kernel.NUM_ACTIONS
        self.observation_shape = (self._kernel.PLANES, cells)
        self.num_players = 2
        self._state = tuple(self._arrays.values())
        self._rng = np.array([seed_state(seed)], dtype=np.uint64)
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._shape = (num_envs,)
        self._out = Batch(
            np.zeros((num_envs, *self.observation_shape), dtype=np.int8),
            np.zeros((num_envs, self.num_actions), dtype=np.bool_),
            np.zeros(num_envs, dtype=np.int8),
            np.zeros((num_envs, 2), dtype=np.float32),
            np.zeros(num_envs, dtype=np.bool_),
        )
        out = self._out
        self._outputs = (
            out.current_player,
            out.observation,
            out.legal_action_mask,
            out.rewards,
            out.terminated,
        )
        self.reset()

    def reset(self) -> Batch:
        """Start every game again."""
        self._kernel.reset(*self._state, *self._outputs)
        return self._out

    def step(self, actions: Any) -> Batch:
        """Play one action in every game (``actions``: ``num_envs`` integers).

        An action that is out of range or illegal raises ``ValueError``
        naming the game and the action, and no game changes.
        """
        acts = actions
        if not (
            acts.__class__ is np.ndarray and acts.dtype == np.int64 and acts.shape == self._shape
        ):
            acts = np.asarray(actions)
            if acts.shape != self._shape or acts.dtype.kind not in "iu":
                raise ValueError(
                    f"actions must be {self.num_envs} integers,"
                    f" got shape {acts.shape} of {acts.dtype}"
                )
            acts = acts.astype(np.int64)
        bad = self._kernel.step(acts, *self._state, *self._outputs)
        if bad >= 0:
            raise ValueError(f"game {bad}: action {int(acts[bad])} is not legal there")
        return self._out

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action of every game (compiled; seeded by ``seed``).

        The array is reused by the next call.
        """
        self._kernel.random_actions(self._rng, *self._state, self._actions)
        return self._actions

    def __repr__(self) -> str:
        return f"VectorEnv({self.game_id!r}, num_envs={self.num_envs})"
