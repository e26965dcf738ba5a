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
    step: copy what you keep (or step with ``copy=True``).
    """

    observation: np.ndarray
    """int8, ``num_envs × planes × cells`` (the planes are listed per game in docs/research.md)."""
    legal_action_mask: np.ndarray
    """int8, ``num_envs × num_actions``: 1 for each legal action of the player to move (the
    masks of every sansu environment are int8, as PettingZoo's and Gymnasium's are)."""
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
        self._seed = seed
        self._rng = np.array([seed_state(seed)], dtype=np.uint64)
        self._actions = np.zeros(num_envs, dtype=np.int64)
        self._shape = (num_envs,)
        self._out = Batch(
            np.zeros((num_envs, *self.observation_shape), dtype=np.int8),
            np.zeros((num_envs, self.num_actions), dtype=np.int8),
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

    def step(self, actions: Any, *, copy: bool = False) -> Batch:
        """Play one action in every game (``actions``: ``num_envs`` integers).

        An action that is out of range or illegal raises ``ValueError``
        naming the game and the action, and no game changes. The batch
        answered is the env's own arrays, overwritten by the next step;
        ``copy=True`` answers fresh arrays instead (for a buffer that keeps them).
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
        return Batch(*(a.copy() for a in self._out)) if copy else self._out

    # -- positions in and out: a search expands from any state --------------------------

    def _rows(self, rows: Any) -> Any:
        """``rows`` as an index of games: all (None), or integers in range (repeats allowed)."""
        if rows is None:
            return slice(None)
        idx = np.asarray(rows)
        if idx.ndim == 1 and idx.size == 0:
            idx = idx.astype(np.int64)
        if idx.ndim != 1 or idx.dtype.kind not in "iu":
            raise ValueError(f"rows must be a list of game indices, not {rows!r}")
        if idx.size and (idx.min() < 0 or idx.max() >= self.num_envs):
            raise ValueError(f"rows must lie in 0..{self.num_envs - 1}, got {idx.tolist()}")
        return idx.astype(np.int64)

    def _fields(self) -> dict[str, np.ndarray]:
        out = self._out
        shared = getattr(self._kernel, "SHARED", ())  # tables of the board, not of a game
        return {
            **{name: a for name, a in self._arrays.items() if name not in shared},
            "current_player": out.current_player,
            "observation": out.observation,
            "legal_action_mask": out.legal_action_mask,
        }

    def get_state(self, rows: Any = None) -> dict[str, np.ndarray]:
        """A copy of the positions of every game, or of the games ``rows`` names (in
        that order, repeats allowed): arrays with a leading axis of one row per game,
        for :meth:`set_state` or a search's tree. Later steps never change it."""
        idx = self._rows(rows)
        if isinstance(idx, slice):
            return {name: a.copy() for name, a in self._fields().items()}
        return {name: np.take(a, idx, axis=0) for name, a in self._fields().items()}

    def set_state(self, state: dict[str, np.ndarray], rows: Any = None) -> Batch:
        """Puts positions from :meth:`get_state` (of this env or any of the same game and
        options) into every game, or into the games ``rows`` names. Answers the batch as
        :meth:`step` would (``rewards`` zero, ``terminated`` false); a state of the wrong
        shape or kind raises ``ValueError`` and changes nothing."""
        idx = self._rows(rows)
        fields = self._fields()
        count = self.num_envs if isinstance(idx, slice) else len(idx)
        if not isinstance(state, dict) or set(state) != set(fields):
            names = sorted(state) if isinstance(state, dict) else type(state).__name__
            raise ValueError(f"a state holds {sorted(fields)}, not {names}")
        checked = {}
        for name, target in fields.items():
            value = np.asarray(state[name])
            want = (count, *target.shape[1:])
            if value.shape != want or not np.can_cast(value.dtype, target.dtype, "same_kind"):
                raise ValueError(
                    f"state[{name!r}] must be {target.dtype} of shape {want},"
                    f" not {value.dtype} of shape {value.shape}"
                )
            checked[name] = value
        for name, target in fields.items():
            target[idx] = checked[name]
        self._out.rewards[idx] = 0.0
        self._out.terminated[idx] = False
        return self._out

    def clone(self, rows: Any = None, seed: int | None = None) -> VectorEnv:
        """A new ``VectorEnv`` of the same game and options holding copies of every game,
        or of the games ``rows`` names (repeats allowed: one position expanded many
        ways). Its random actions are seeded by ``seed`` (default: this env's seed)."""
        state = self.get_state(rows)
        count = len(state["current_player"])
        if count < 1:
            raise ValueError("a clone needs at least one game")
        twin = VectorEnv(
            self.game_id, count, seed=self._seed if seed is None else seed, **self.game.options
        )
        twin.set_state(state)
        return twin

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action of every game (compiled; seeded by ``seed``).

        The array is reused by the next call.
        """
        self._kernel.random_actions(self._rng, *self._state, self._actions)
        return self._actions

    def __repr__(self) -> str:
        return f"VectorEnv({self.game_id!r}, num_envs={self.num_envs})"
