"""Sansumoku over a batch: one compiled loop steps every game.

Per game: each player's marks as one 9-bit field per section, the digit of
every cell, and per digit the board rows and columns that hold it outside
won sections (so a section's legal cells are one table look-up), the won,
closed and by-constraint sections, the section sent to, and the legal cells
of the player to move, per section. Actions are row-major cells
(``9 * (row - 1) + (col - 1)``); the digit is implied.

Observation planes (int8, ``num_envs × 3 × 81``, row-major cells):
0. who placed the cell's digit: 0 nobody, 1 player 0 (Blue), 2 player 1;
1. the digit, 0 when empty;
2. the state of the cell's section: 0 open, 1 won by player 0, 2 won by
   player 1 (by three in a row or by constraint), 3 full and won by nobody.

The rules repeat :mod:`sansu.games.sansumoku` for speed; ``tests/envs``
plays thousands of random games through both and requires the same legal
masks and results at every step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.ai.kernels.rng import below
from sansu.core.sections import FULL
from sansu.envs.vector.uttt import CELLS, COL, LINE, POP, POS, ROW, SEC, first_illegal, nth_bit

NUM_ACTIONS = 81
PLANES = 3
ALLOWED = np.array(
    [
        sum(1 << p for p in range(9) if not (rows >> (p // 3) & 1 or cols >> (p % 3) & 1))
        for rows in range(8)
        for cols in range(8)
    ],
    dtype=np.int64,
)
"""``ALLOWED[rows * 8 + cols]``: positions of a section outside the blocked local rows/columns."""
ROW0 = np.array([3 * (s // 3) for s in range(9)], dtype=np.int64)
COL0 = np.array([3 * (s % 3) for s in range(9)], dtype=np.int64)


def new_state(num_envs: int) -> dict[str, np.ndarray]:
    """The arrays of ``num_envs`` games (call :func:`reset` to start them)."""
    return {
        "marks": np.zeros((num_envs, 2, 9), dtype=np.int16),
        "digits": np.zeros((num_envs, 81), dtype=np.int8),
        "rowbits": np.zeros((num_envs, 9), dtype=np.int16),
        "colbits": np.zeros((num_envs, 9), dtype=np.int16),
        "won": np.zeros((num_envs, 2), dtype=np.int16),
        "closed": np.zeros(num_envs, dtype=np.int16),
        "target": np.full(num_envs, -1, dtype=np.int8),
        "legal": np.zeros((num_envs, 9), dtype=np.int16),
    }


@njit(cache=True, error_model="numpy")
def reset_one(i, marks, digits, rowbits, colbits, won, closed, target, legal, player, obs, mask):
    for s in range(9):
        marks[i, 0, s] = 0
        marks[i, 1, s] = 0
        rowbits[i, s] = 0
        colbits[i, s] = 0
        legal[i, s] = FULL
    won[i, 0] = 0
    won[i, 1] = 0
    closed[i] = 0
    target[i] = -1
    player[i] = 0
    for c in range(81):
        digits[i, c] = 0
        obs[i, 0, c] = 0
        obs[i, 1, c] = 0
        obs[i, 2, c] = 0
        mask[i, c] = True


@njit(cache=True, error_model="numpy")
def reset(
    marks, digits, rowbits, colbits, won, closed, target, legal, player, obs, mask, rewards, done
):
    for i in range(marks.shape[0]):
        reset_one(i, marks, digits, rowbits, colbits, won, closed, target, legal, player, obs, mask)
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        done[i] = False


@njit(cache=True, inline="always", error_model="numpy")
def legal_in(i, s, marks, rowbits, colbits):
    """The 9-bit mask of legal positions in section ``s`` of game ``i``."""
    field = marks[i, 0, s] | marks[i, 1, s]
    n = POP[field]
    if n == 9:
        return 0
    rows = rowbits[i, n] >> ROW0[s] & 7
    cols = colbits[i, n] >> COL0[s] & 7
    return ALLOWED[rows * 8 + cols] & ~field & FULL


@njit(cache=True, error_model="numpy")
def forget(i, s, marks, digits, rowbits, colbits):
    """Drop the digits of section ``s`` (just won) from the row and column masks."""
    field = marks[i, 0, s] | marks[i, 1, s]
    for p in range(9):
        if field >> p & 1:
            cell = CELLS[s, p]
            d = digits[i, cell] - 1
            rowbits[i, d] &= ~(1 << ROW[cell])
            colbits[i, d] &= ~(1 << COL[cell])


@njit(cache=True, error_model="numpy")
def win_section(i, s, pl, won, obs):
    won[i, pl] |= 1 << s
    for q in range(9):
        obs[i, 2, CELLS[s, q]] = pl + 1


@njit(cache=True, error_model="numpy")
def step(
    actions, marks, digits, rowbits, colbits, won, closed, target, legal, player, obs, mask,
    rewards, terminated,
):  # fmt: skip
    """Play ``actions[i]`` in game ``i``; finished games are scored and start again.

    Returns -1, or the first game whose action is illegal; then nothing changes.
    """
    bad = first_illegal(actions, mask)
    if bad >= 0:
        return bad
    prev = np.empty(9, dtype=np.int64)
    for i in range(actions.shape[0]):
        a = actions[i]
        pl = player[i]
        s = SEC[a]
        p = POS[a]
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        terminated[i] = False
        n = POP[marks[i, 0, s] | marks[i, 1, s]]
        digits[i, a] = n + 1
        rowbits[i, n] |= 1 << ROW[a]
        colbits[i, n] |= 1 << COL[a]
        mine = marks[i, pl, s] | (1 << p)
        marks[i, pl, s] = mine
        obs[i, 0, a] = pl + 1
        obs[i, 1, a] = n + 1
        c = closed[i]
        done = False
        winner = -1
        if LINE[mine]:
            c |= 1 << s
            win_section(i, s, pl, won, obs)
            forget(i, s, marks, digits, rowbits, colbits)
            if LINE[won[i, pl]]:
                done = True
                winner = pl
        elif (mine | marks[i, 1 - pl, s]) == FULL:
            c |= 1 << s
            for q in range(9):
                obs[i, 2, CELLS[s, q]] = 3
        # Keep the previous legal cells: only the sections that change are written.
        for s2 in range(9):
            prev[s2] = legal[i, s2]
            legal[i, s2] = 0
        t = p
        found = 0
        if not done and not c >> t & 1:
            found = legal_in(i, t, marks, rowbits, colbits)
            legal[i, t] = found
        if not done and not found:
            # Wildcards and wins by constraint, repeatedly.
            while True:
                if c == FULL:
                    done = True
                    break
                if t >= 0 and not c >> t & 1:
                    found = legal_in(i, t, marks, rowbits, colbits)
                    legal[i, t] = found
                else:
                    t = -1
                    for s2 in range(9):
                        if not c >> s2 & 1:
                            field = legal_in(i, s2, marks, rowbits, colbits)
                            legal[i, s2] = field
                            found |= field
                if found:
                    break
                for s2 in range(9):
                    if (s2 == t or t < 0) and not c >> s2 & 1:
                        c |= 1 << s2
                        win_section(i, s2, pl, won, obs)
                        forget(i, s2, marks, digits, rowbits, colbits)
                t = -1
                if LINE[won[i, pl]]:
                    done = True
                    winner = pl
                    break
        closed[i] = c
        if done:
            terminated[i] = True
            if winner >= 0:
                rewards[i, winner] = 1.0
                rewards[i, 1 - winner] = -1.0
            reset_one(
                i, marks, digits, rowbits, colbits, won, closed, target, legal, player, obs, mask
            )
            continue
        target[i] = t
        player[i] = 1 - pl
        for s2 in range(9):
            field = legal[i, s2]
            if field != prev[s2]:
                for q in range(9):
                    mask[i, CELLS[s2, q]] = field >> q & 1

    return -1


@njit(cache=True, error_model="numpy")
def random_actions(
    rng, marks, digits, rowbits, colbits, won, closed, target, legal, out
):  # fmt: skip
    """A uniformly random legal action of every game, into ``out``."""
    for i in range(out.shape[0]):
        total = 0
        for s in range(9):
            total += POP[legal[i, s]]
        k = below(rng, total)
        for s in range(9):
            field = legal[i, s]
            n = POP[field]
            if k < n:
                out[i] = CELLS[s, nth_bit(field, k)]
                break
            k -= n
