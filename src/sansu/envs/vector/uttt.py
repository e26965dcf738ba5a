"""Ultimate Tic-Tac-Toe over a batch: one compiled loop steps every game.

The batch is a struct of arrays with a leading batch axis: each player's
marks as one 9-bit field per section, the won and closed sections as 9-bit
masks, the section the mover is sent to. Actions are row-major cells
(``9 * (row - 1) + (col - 1)``), the encoding of every sansu environment.

Observation planes (int8, ``num_envs × 2 × 81``, row-major cells):
0. the mark on the cell: 0 empty, 1 player 0 (X), 2 player 1 (O);
1. the state of the cell's section: 0 open, 1 won by player 0, 2 won by
   player 1, 3 full and won by nobody.

The rules repeat :mod:`sansu.games.uttt` for speed; ``tests/envs`` plays
thousands of random games through both and requires the same legal masks
and results at every step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.ai.kernels.rng import below
from sansu.core.sections import CELL_OF_BIT, FULL, HAS_LINE, position_of, section_of

NUM_ACTIONS = 81
PLANES = 2
LINE = np.array(HAS_LINE, dtype=np.bool_)
POP = np.array([bin(m).count("1") for m in range(512)], dtype=np.int64)
SEC = np.array([section_of(c) for c in range(81)], dtype=np.int64)
POS = np.array([position_of(c) for c in range(81)], dtype=np.int64)
ROW = np.arange(81, dtype=np.int64) // 9
COL = np.arange(81, dtype=np.int64) % 9
CELLS = np.array(CELL_OF_BIT, dtype=np.int64).reshape(9, 9)
"""``CELLS[section, position]``: the row-major cell."""


def new_state(num_envs: int) -> dict[str, np.ndarray]:
    """The arrays of ``num_envs`` games (call :func:`reset` to start them)."""
    return {
        "marks": np.zeros((num_envs, 2, 9), dtype=np.int16),
        "won": np.zeros((num_envs, 2), dtype=np.int16),
        "closed": np.zeros(num_envs, dtype=np.int16),
        "target": np.full(num_envs, -1, dtype=np.int8),
    }


@njit(cache=True, error_model="numpy")
def reset_one(i, marks, won, closed, target, player, obs, mask):
    for s in range(9):
        marks[i, 0, s] = 0
        marks[i, 1, s] = 0
    won[i, 0] = 0
    won[i, 1] = 0
    closed[i] = 0
    target[i] = -1
    player[i] = 0
    for c in range(81):
        obs[i, 0, c] = 0
        obs[i, 1, c] = 0
        mask[i, c] = True


@njit(cache=True, error_model="numpy")
def reset(marks, won, closed, target, player, obs, mask, rewards, terminated):
    for i in range(marks.shape[0]):
        reset_one(i, marks, won, closed, target, player, obs, mask)
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        terminated[i] = False


@njit(cache=True, error_model="numpy")
def first_illegal(actions, mask):
    """The first game whose action is out of range or illegal, or -1."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= mask.shape[1] or not mask[i, a]:
            return i
    return -1


@njit(cache=True, error_model="numpy")
def step(actions, marks, won, closed, target, player, obs, mask, rewards, terminated):
    """Play ``actions[i]`` in game ``i``; finished games are scored and start again.

    Returns -1, or the first game whose action is illegal; then nothing changes.
    """
    bad = first_illegal(actions, mask)
    if bad >= 0:
        return bad
    for i in range(actions.shape[0]):
        a = actions[i]
        pl = player[i]
        s = SEC[a]
        p = POS[a]
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        terminated[i] = False
        m = marks[i, pl, s] | (1 << p)
        marks[i, pl, s] = m
        obs[i, 0, a] = pl + 1
        c = closed[i]
        before = c
        done = False
        winner = -1
        if LINE[m]:
            w = won[i, pl] | (1 << s)
            won[i, pl] = w
            c |= 1 << s
            for q in range(9):
                obs[i, 1, CELLS[s, q]] = pl + 1
            if LINE[w]:
                done = True
                winner = pl
        elif (m | marks[i, 1 - pl, s]) == FULL:
            c |= 1 << s
            for q in range(9):
                obs[i, 1, CELLS[s, q]] = 3
        closed[i] = c
        if not done and c == FULL:
            done = True
        if done:
            terminated[i] = True
            if winner >= 0:
                rewards[i, winner] = 1.0
                rewards[i, 1 - winner] = -1.0
            reset_one(i, marks, won, closed, target, player, obs, mask)
            continue
        # Clear the previous mask: one section, or the whole board after a free move.
        t = target[i]
        if t >= 0 and not before >> t & 1:
            for q in range(9):
                mask[i, CELLS[t, q]] = False
        else:
            for q in range(81):
                mask[i, q] = False
        player[i] = 1 - pl
        target[i] = p
        if not c >> p & 1:
            empty = FULL & ~(marks[i, 0, p] | marks[i, 1, p])
            for q in range(9):
                if empty >> q & 1:
                    mask[i, CELLS[p, q]] = True
        else:
            for s2 in range(9):
                if not c >> s2 & 1:
                    empty = FULL & ~(marks[i, 0, s2] | marks[i, 1, s2])
                    for q in range(9):
                        if empty >> q & 1:
                            mask[i, CELLS[s2, q]] = True

    return -1


@njit(cache=True, inline="always", error_model="numpy")
def nth_bit(field, k):
    """The position of the ``k``-th set bit (from 0, lowest first) of ``field``."""
    q = 0
    while True:
        if field >> q & 1:
            if k == 0:
                return q
            k -= 1
        q += 1


@njit(cache=True, error_model="numpy")
def random_actions(rng, marks, won, closed, target, out):
    """A uniformly random legal action of every game, into ``out``."""
    for i in range(out.shape[0]):
        t = target[i]
        c = closed[i]
        if t >= 0 and not c >> t & 1:
            empty = FULL & ~(marks[i, 0, t] | marks[i, 1, t])
            out[i] = CELLS[t, nth_bit(empty, below(rng, POP[empty]))]
            continue
        total = 0
        for s in range(9):
            if not c >> s & 1:
                total += POP[FULL & ~(marks[i, 0, s] | marks[i, 1, s])]
        k = below(rng, total)
        for s in range(9):
            if c >> s & 1:
                continue
            empty = FULL & ~(marks[i, 0, s] | marks[i, 1, s])
            n = POP[empty]
            if k < n:
                out[i] = CELLS[s, nth_bit(empty, k)]
                break
            k -= n
