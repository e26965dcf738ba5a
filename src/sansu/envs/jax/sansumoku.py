"""Sansumoku in pure JAX, with Pgx's ``Env`` API.

The rules of :mod:`sansu.games.sansumoku`: Ultimate Tic-Tac-Toe's board and
routing, but a section's next digit is 1 + the digits already in it, and a
cell is legal only if that digit is not yet in its board row or column
(digits in won sections do not count). When the next player's sections have
no legal cell, the mover wins them all by constraint and the next player
gets a wildcard; that can repeat once more (then every open section goes).
``tests/envs/test_jax_envs.py`` plays thousands of random games through
this and the engine side by side.

Actions are sansu's: the 81 cells row-major; the digit is implied. The
observation (``9 × 9 × 15`` bool) is from the observer's point of view:
their digits, the opponent's, the digit as nine one-hot planes, the
sections each has won (by a line or by constraint), the closed sections,
and the cells they may fill now (none when it is not their turn).
"""

from __future__ import annotations

import jax.numpy as jnp

from sansu.envs.jax.core import Array, Env, State, pytree, start
from sansu.envs.jax.uttt import (
    FULL,
    LINES,
    NUM_ACTIONS,
    OPEN,
    SECTION_CELLS,
    SECTION_LINES,
    by_cell,
    section_of,
)

PLANES = 15
DIGITS = jnp.arange(1, 10, dtype=jnp.int8)


@pytree
class SansumokuState(State):
    """A position, row-major: who placed each digit (−1 nobody), the digits (0
    empty), each section's state (−1 open, the winner, or 2 full and won by
    nobody) and the section the player to move is sent to (−1 a wildcard)."""

    _board: Array
    _digit: Array
    _sections: Array
    _target: Array

    @property
    def env_id(self) -> str:
        return "sansumoku"


def candidates(board: Array, digit: Array, sections: Array) -> Array:
    """The cells each open section's next digit may fill, row-major (any section)."""
    filled = board >= 0
    count = filled[SECTION_CELLS].sum(-1)  # digits in each section
    after = by_cell(count + 1)  # the digit each cell would take
    counting = by_cell((sections == OPEN) | (sections == FULL)) & filled
    has = (digit[:, None] == DIGITS) & counting[:, None]  # [cell, digit]
    grid = has.reshape(9, 9, 9)  # [row, column, digit]
    seen = grid.any(1)[:, None, :] | grid.any(0)[None, :, :]  # in the cell's row or column
    blocked = (seen & (after.reshape(9, 9, 1) == DIGITS)).any(-1).reshape(NUM_ACTIONS)
    return ~filled & ~blocked & by_cell(sections == OPEN)


class Sansumoku(Env):
    """Sansumoku: ``init``, ``step``, ``observe`` as in Pgx."""

    id = "sansumoku"
    version = "v0"
    num_players = 2
    num_actions = NUM_ACTIONS

    def _init(self, key: Array) -> SansumokuState:
        return SansumokuState(
            **start(NUM_ACTIONS, (9, 9, PLANES)),
            _board=jnp.full(NUM_ACTIONS, -1, jnp.int8),
            _digit=jnp.zeros(NUM_ACTIONS, jnp.int8),
            _sections=jnp.full(9, OPEN, jnp.int8),
            _target=jnp.int32(-1),
        )

    def _step(self, state: SansumokuState, action: Array, key: Array | None) -> SansumokuState:
        player = state.current_player.astype(jnp.int8)
        here = jnp.arange(NUM_ACTIONS) == action
        home = jnp.arange(9) == section_of(action)
        count = (state._board >= 0)[SECTION_CELLS].sum(-1)
        written = (jnp.where(home, count, 0).sum() + 1).astype(jnp.int8)
        board = jnp.where(here, player, state._board)
        digit = jnp.where(here, written, state._digit)
        lines = (board[SECTION_LINES] == player).all(-1).any(-1)
        full = (board[SECTION_CELLS] >= 0).all(-1)
        status = jnp.where(lines, player, jnp.where(full, FULL, OPEN)).astype(jnp.int8)
        sections = jnp.where(home, status, state._sections)
        position = 3 * (action // 9 % 3) + action % 3
        target = jnp.arange(9) == position  # one-hot; all false: a wildcard
        win = (sections[LINES] == player).all(-1).any()
        legal = jnp.zeros(NUM_ACTIONS, jnp.bool_)
        # Wins by constraint: the section sent to, then (a wildcard) every open one.
        for _ in range(2):
            open_ = sections == OPEN
            sent = target & open_
            allowed = jnp.where(sent.any(), sent, open_)
            legal = candidates(board, digit, sections) & by_cell(allowed)
            stuck = ~win & ~legal.any()
            sections = jnp.where(stuck & allowed, player, sections).astype(jnp.int8)
            target = jnp.where(sent.any() & ~stuck, target, False)
            win = win | (stuck & (sections[LINES] == player).all(-1).any())
        over = win | (sections != OPEN).all()
        sign = jnp.where(jnp.arange(2) == player, 1.0, -1.0)
        return state.replace(
            current_player=1 - state.current_player,
            rewards=jnp.where(win, sign, 0.0).astype(jnp.float32),
            terminated=over,
            legal_action_mask=legal & ~over,
            _board=board,
            _digit=digit,
            _sections=sections,
            _target=jnp.where(target.any(), position, -1).astype(jnp.int32),
        )

    def _observe(self, state: SansumokuState, player_id: Array) -> Array:
        seats = jnp.stack([player_id, 1 - player_id]).astype(jnp.int8)
        sections = by_cell(state._sections)[:, None]
        legal = state.legal_action_mask & (player_id == state.current_player) & ~state.terminated
        planes = [
            state._board[:, None] == seats,
            state._digit[:, None] == DIGITS,
            sections == seats,
            sections != OPEN,
            legal[:, None],
        ]
        return jnp.concatenate(planes, axis=-1).reshape(9, 9, PLANES)

    def planes(self, state: SansumokuState) -> Array:
        """sansu's observation (int8, 3 × 81): who placed each digit (0 nobody, 1 or 2),
        the digit, and each cell's section (0 open, 1 or 2 won by that player + 1, 3 full),
        as ``VectorEnv`` gives it."""
        sections = by_cell(state._sections) + 1
        return jnp.stack([state._board + 1, state._digit, sections], axis=-2)
