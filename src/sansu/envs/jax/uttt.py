"""Ultimate Tic-Tac-Toe in pure JAX, with Pgx's ``Env`` API.

The rules of :mod:`sansu.games.uttt`: X (player 0) moves first, anywhere; a
mark at position ``p`` of its section sends the opponent to section ``p``; a
won or full section is closed, and a player sent to a closed section may
mark any empty cell of an open one; three won sections in a line win, no
open section and no line draw. ``tests/envs/test_jax_uttt.py`` plays
thousands of random games through this and the engine side by side.

Actions are sansu's: the 81 cells row-major (``9 * (row - 1) + (col - 1)``).
The observation (``9 × 9 × 6`` bool, rows × columns × planes, Pgx's layout)
is from the point of view of the player observing: their marks, the
opponent's, the sections each has won, the closed sections, and the cells
they may mark now (none when it is not their turn). ``env.planes(state)`` gives
sansu's own integer planes (those of ``VectorEnv``) instead.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from sansu.envs.jax.core import Array, Env, State, pytree

NUM_ACTIONS = 81
_CELLS = np.arange(81)
SECTION = jnp.asarray(3 * (_CELLS // 27) + _CELLS % 9 // 3)
"""Row-major cell → its section (0–8, row-major)."""
POSITION = jnp.asarray(3 * (_CELLS // 9 % 3) + _CELLS % 3)
"""Row-major cell → its position in its section (0–8)."""
LINES = jnp.asarray(
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
)


def has_line(cells: Array) -> Array:
    """Whether nine flags (last axis) hold three in a row."""
    return cells[..., LINES].all(-1).any(-1)


@pytree
class UTTTState(State):
    """A position: each player's marks by ``[player, section, position]``, the
    sections each player has won, the closed sections, and the section the
    player to move is sent to (−1: a free move)."""

    _marks: Array
    _won: Array
    _closed: Array
    _target: Array

    @property
    def env_id(self) -> str:
        return "uttt"


class UltimateTicTacToe(Env):
    """Ultimate Tic-Tac-Toe: ``init``, ``step``, ``observe`` as in Pgx."""

    id = "uttt"
    version = "v0"
    num_players = 2
    num_actions = NUM_ACTIONS

    def _init(self, key: Array) -> UTTTState:
        return UTTTState(
            current_player=jnp.int32(0),
            observation=jnp.zeros((9, 9, 6), jnp.bool_),
            rewards=jnp.zeros(2, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            legal_action_mask=jnp.ones(NUM_ACTIONS, jnp.bool_),
            _step_count=jnp.int32(0),
            _marks=jnp.zeros((2, 9, 9), jnp.bool_),
            _won=jnp.zeros((2, 9), jnp.bool_),
            _closed=jnp.zeros(9, jnp.bool_),
            _target=jnp.int32(-1),
        )

    def _step(self, state: UTTTState, action: Array, key: Array | None) -> UTTTState:
        player = state.current_player
        section, position = SECTION[action], POSITION[action]
        marks = state._marks.at[player, section, position].set(True)
        line = has_line(marks[player, section])
        full = (marks[0, section] | marks[1, section]).all()
        won = state._won.at[player, section].set(line)
        closed = state._closed.at[section].set(line | full)
        win = line & has_line(won[player])
        over = win | closed.all()
        target = jnp.where(closed[position], -1, position).astype(jnp.int32)
        sign = jnp.where(jnp.arange(2) == player, 1.0, -1.0)
        return state.replace(
            current_player=1 - player,
            rewards=jnp.where(win, sign, 0.0).astype(jnp.float32),
            terminated=over,
            legal_action_mask=_legal(marks, closed, target) & ~over,
            _marks=marks,
            _won=won,
            _closed=closed,
            _target=target,
        )

    def _observe(self, state: UTTTState, player_id: Array) -> Array:
        marks = state._marks[:, SECTION, POSITION]
        won = state._won[:, SECTION]
        mine, theirs = player_id, 1 - player_id
        legal = state.legal_action_mask & (player_id == state.current_player) & ~state.terminated
        planes = jnp.stack(
            [
                marks[mine],
                marks[theirs],
                won[mine],
                won[theirs],
                state._closed[SECTION],
                legal,
            ],
            axis=-1,
        )
        return planes.reshape(9, 9, 6)

    def planes(self, state: UTTTState) -> Array:
        """sansu's observation (int8, 2 × 81): the marks (0, 1 X, 2 O) and each
        cell's section (0 open, 1 or 2 won by that player + 1, 3 full), as
        ``VectorEnv`` and the PettingZoo environment give it."""
        marks = state._marks[..., SECTION, POSITION].astype(jnp.int8)
        cells = marks[..., 0, :] + 2 * marks[..., 1, :]
        won = state._won
        code = jnp.where(won[..., 0, :], 1, jnp.where(won[..., 1, :], 2, 3 * state._closed))
        return jnp.stack([cells, code[..., SECTION].astype(jnp.int8)], axis=-2)


def _legal(marks: Array, closed: Array, target: Array) -> Array:
    """The legal cells, row-major: empty, in an open section, and where sent (if sent)."""
    empty = ~(marks[0] | marks[1])[SECTION, POSITION]
    sent = (target < 0) | (target == SECTION)
    return empty & ~closed[SECTION] & sent
