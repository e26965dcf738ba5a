"""Ultimate Tic-Tac-Toe in pure JAX, with Pgx's ``Env`` API.

The rules of :mod:`sansu.games.uttt`: X (player 0) moves first, anywhere; a
mark at position ``p`` of its section sends the opponent to section ``p``; a
won or full section is closed, and a player sent to a closed section may
mark any empty cell of an open one; three won sections in a line win, no
open section and no line draw. ``tests/envs/test_jax_envs.py`` plays
thousands of random games through this and the engine side by side.

Actions are sansu's: the 81 cells row-major (``9 * (row - 1) + (col - 1)``).
The observation (``9 × 9 × 6`` bool, rows × columns × planes, Pgx's layout)
is from the point of view of the player observing: their marks, the
opponent's, the sections each has won, the closed sections, and the cells
they may mark now (none when it is not their turn). ``env.planes(state)``
gives sansu's own integer planes (those of ``VectorEnv``) instead.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from sansu.envs.jax.core import Array, Env, State, pytree, start

NUM_ACTIONS = 81
OPEN, FULL = -1, 2
"""Section states beside a winner's number (0 or 1): open, and full without a line."""
_CELLS = np.arange(81)
SECTION = jnp.asarray(3 * (_CELLS // 27) + _CELLS % 9 // 3, jnp.int32)
"""Row-major cell → its section (0–8, row-major)."""
POSITION = jnp.asarray(3 * (_CELLS // 9 % 3) + _CELLS % 3, jnp.int32)
"""Row-major cell → its position in its section (0–8)."""
LINES = np.array(
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]]
)
CELL = np.argsort(9 * np.asarray(SECTION) + np.asarray(POSITION)).reshape(9, 9)
"""``CELL[section, position]``: the row-major cell."""
SECTION_LINES = jnp.asarray(CELL[:, LINES], jnp.int32)
"""``[section, line, 3]``: the cells of each line of each section."""
SECTION_CELLS = jnp.asarray(CELL, jnp.int32)


def section_of(action: Array) -> Array:
    """The section (0–8) of a row-major cell, by arithmetic (no table to gather from)."""
    return 3 * (action // 27) + action % 9 // 3


def by_cell(per_section: Array) -> Array:
    """``[..., 9]`` per section → ``[..., 81]`` per row-major cell (a broadcast)."""
    grid = per_section.reshape(*per_section.shape[:-1], 3, 1, 3, 1)
    return jnp.broadcast_to(grid, (*per_section.shape[:-1], 3, 3, 3, 3)).reshape(
        *per_section.shape[:-1], 81
    )


@pytree
class UTTTState(State):
    """A position: the board (``_board[cell]``, row-major: −1 empty, else the
    player's number), each section's state (``_sections``: −1 open, the
    winner's number, or 2 full), and the section the player to move is sent
    to (−1: a free move)."""

    _board: Array
    _sections: Array
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
            **start(NUM_ACTIONS, (9, 9, 6)),
            _board=jnp.full(NUM_ACTIONS, -1, jnp.int8),
            _sections=jnp.full(9, OPEN, jnp.int8),
            _target=jnp.int32(-1),
        )

    def _step(self, state: UTTTState, action: Array, key: Array | None) -> UTTTState:
        # One-hot selections and updates, and gathers by constant indices only: under
        # vmap on a CPU a gather or scatter at a traced index costs far more.
        player = state.current_player.astype(jnp.int8)
        board = jnp.where(jnp.arange(NUM_ACTIONS) == action, player, state._board)
        lines = (board[SECTION_LINES] == player).all(-1).any(-1)
        full = (board[SECTION_CELLS] >= 0).all(-1)
        status = jnp.where(lines, player, jnp.where(full, FULL, OPEN)).astype(jnp.int8)
        sections = jnp.where(jnp.arange(9) == section_of(action), status, state._sections)
        win = (sections[LINES] == player).all(-1).any()
        over = win | (sections != OPEN).all()
        position = 3 * (action // 9 % 3) + action % 3
        sent = (jnp.arange(9) == position) & (sections == OPEN)
        allowed = (sections == OPEN) & (sent | ~sent.any())
        legal = (board < 0) & by_cell(allowed) & ~over
        sign = jnp.where(jnp.arange(2) == player, 1.0, -1.0)
        return state.replace(
            current_player=1 - state.current_player,
            rewards=jnp.where(win, sign, 0.0).astype(jnp.float32),
            terminated=over,
            legal_action_mask=legal,
            _board=board,
            _sections=sections,
            _target=jnp.where(sent.any(), position, -1).astype(jnp.int32),
        )

    def _observe(self, state: UTTTState, player_id: Array) -> Array:
        seats = jnp.stack([player_id, 1 - player_id]).astype(jnp.int8)
        sections = by_cell(state._sections)[:, None]
        legal = state.legal_action_mask & (player_id == state.current_player) & ~state.terminated
        planes = [
            state._board[:, None] == seats,
            sections == seats,
            sections != OPEN,
            legal[:, None],
        ]
        return jnp.concatenate(planes, axis=-1).reshape(9, 9, 6)

    def planes(self, state: UTTTState) -> Array:
        """sansu's observation (int8, 2 × 81): the marks (0, 1 X, 2 O) and each
        cell's section (0 open, 1 or 2 won by that player + 1, 3 full), as
        ``VectorEnv`` and the PettingZoo environment give it."""
        return jnp.stack([state._board + 1, by_cell(state._sections) + 1], axis=-2)
