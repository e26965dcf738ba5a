"""35 in pure JAX, with Pgx's ``Env`` API, on a board of any size (``rows``, ``cols``).

The rules of :mod:`sansu.games.thirtyfive`: Red (player 0) moves first; a
move writes 1–9 on an empty square, in the square's highlight colour if it
has one, else the mover's. The squares that trigger are the filled squares
whose neighbour sum has just become 35, and the new square if its sum
already is 35; if they are all of one colour, their neighbours take it
(filled ones flip, empty ones are highlighted), if of both, nothing
happens. The full board ends the game; more squares wins.
``tests/envs/test_jax_envs.py`` plays random games through this and the
engine side by side.

The board size is static: one environment (and one compilation) per size.
Actions are sansu's: ``9 * cell + (number - 1)``, ``cell`` row-major. The
observation (``rows × cols × 13`` bool) is from the observer's point of
view: their squares, the opponent's, the empty squares highlighted in
their colour and in the opponent's, then the number as nine one-hot planes.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from sansu.envs.jax.core import Array, Env, State, pytree, start

TARGET = 35
NONE = -1
PLANES = 13


def adjacency(rows: int, cols: int) -> np.ndarray:
    """``[cell, other]``: 1 where the squares touch (diagonals included)."""
    r, c = np.divmod(np.arange(rows * cols), cols)
    near = (abs(r[:, None] - r[None, :]) <= 1) & (abs(c[:, None] - c[None, :]) <= 1)
    return (near & ~np.eye(rows * cols, dtype=bool)).astype(np.int32)


@pytree
class ThirtyFiveState(State):
    """A position, row-major: the numbers (0 empty), their colours and the
    empty squares' highlights (−1 none, else the player), and every square's
    neighbour sum."""

    _number: Array
    _colour: Array
    _highlight: Array
    _sums: Array

    @property
    def env_id(self) -> str:
        return "thirtyfive"


class ThirtyFive(Env):
    """35 on a ``rows`` × ``cols`` board: ``init``, ``step``, ``observe`` as in Pgx."""

    id = "thirtyfive"
    version = "v0"
    num_players = 2

    def __init__(self, rows: int = 8, cols: int = 8) -> None:
        import sansu

        sansu.load_game("thirtyfive", rows=rows, cols=cols)  # the engine's checks of the size
        self.rows, self.cols, self.size = rows, cols, rows * cols
        self.num_actions = 9 * self.size
        self._adjacency = jnp.asarray(adjacency(rows, cols))

    def _init(self, key: Array) -> ThirtyFiveState:
        n = self.size
        return ThirtyFiveState(
            **start(self.num_actions, (self.rows, self.cols, PLANES)),
            _number=jnp.zeros(n, jnp.int8),
            _colour=jnp.full(n, NONE, jnp.int8),
            _highlight=jnp.full(n, NONE, jnp.int8),
            _sums=jnp.zeros(n, jnp.int32),
        )

    def _step(self, state: ThirtyFiveState, action: Array, key: Array | None) -> ThirtyFiveState:
        player = state.current_player.astype(jnp.int8)
        cell, value = action // 9, (action % 9 + 1).astype(jnp.int8)
        here = jnp.arange(self.size) == cell  # one-hot, not a scatter: cheaper under vmap
        lit = jnp.where(here, state._highlight, NONE).max()
        ink = jnp.where(lit != NONE, lit, player).astype(jnp.int8)
        number = jnp.where(here, value, state._number)
        colour = jnp.where(here, ink, state._colour)
        highlight = jnp.where(here, NONE, state._highlight)
        sums = state._sums + value.astype(jnp.int32) * (self._adjacency @ here.astype(jnp.int32))
        filled = number > 0
        reached = sums == TARGET
        fires = filled & reached & ((state._sums != TARGET) | here)
        red, blue = (fires & (colour == 0)).any(), (fires & (colour == 1)).any()
        takes = jnp.where(red, 0, 1).astype(jnp.int8)
        touched = (self._adjacency @ fires.astype(jnp.int32) > 0) & (red ^ blue)
        colour = jnp.where(touched & filled, takes, colour)
        highlight = jnp.where(touched & ~filled, takes, highlight)
        over = filled.all()
        score = (colour == 0).sum() - (colour == 1).sum()
        result = jnp.sign(score).astype(jnp.float32) * jnp.array([1.0, -1.0])
        legal = jnp.repeat(~filled, 9) & ~over
        return state.replace(
            current_player=1 - state.current_player,
            rewards=jnp.where(over, result, 0.0),
            terminated=over,
            legal_action_mask=legal,
            _number=number,
            _colour=colour,
            _highlight=highlight,
            _sums=sums,
        )

    def _observe(self, state: ThirtyFiveState, player_id: Array) -> Array:
        seats = jnp.stack([player_id, 1 - player_id]).astype(jnp.int8)
        numbers = jnp.arange(1, 10, dtype=jnp.int8)
        planes = [
            state._colour[:, None] == seats,
            state._highlight[:, None] == seats,
            state._number[:, None] == numbers,
        ]
        return jnp.concatenate(planes, axis=-1).reshape(self.rows, self.cols, PLANES)

    def planes(self, state: ThirtyFiveState) -> Array:
        """sansu's observation (int8, 3 × squares): colour (0 empty, 1 red, 2 blue), number,
        highlight of an empty square (0 none, 1 red, 2 blue), as ``VectorEnv`` gives it."""
        return jnp.stack([state._colour + 1, state._number, state._highlight + 1], axis=-2)
