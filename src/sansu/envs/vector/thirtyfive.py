"""35 over a batch, on a board of any size: one compiled loop steps every game.

Per game: the observation planes themselves (colour, number, highlight of
every square), the neighbour sums, which squares have triggered, and the
empty squares as a list with each square's place in it (so a random legal
action is two random draws). An action is ``9 * cell + (number - 1)`` with
``cell`` row-major (``cols * (row - 1) + (col - 1)``).

Observation planes (int8, ``num_envs × 3 × (rows · cols)``, row-major squares):
0. the colour of the number on the square: 0 empty, 1 red (player 0), 2 blue;
1. the number, 0 when empty;
2. the highlight of an empty square: 0 none, 1 red, 2 blue.

The rules repeat :mod:`sansu.games.thirtyfive` for speed; ``tests/envs``
plays thousands of random games through both and requires the same legal
masks and results at every step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.ai.kernels.rng import below
from sansu.envs.vector.uttt import first_illegal

PLANES = 3
TARGET = 35


def neighbour_table(rows: int, cols: int) -> np.ndarray:
    """``table[cell]``: the neighbours of ``cell``, padded with -1 to eight."""
    table = np.full((rows * cols, 8), -1, dtype=np.int64)
    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        k = 0
        for rr in range(r - 1, r + 2):
            for cc in range(c - 1, c + 2):
                if (rr, cc) != (r, c) and 0 <= rr < rows and 0 <= cc < cols:
                    table[cell, k] = rr * cols + cc
                    k += 1
    return table


SHARED = ("neighbours",)
"""Arrays of :func:`new_state` that hold the board's tables, the same for every game."""


def new_state(num_envs: int, rows: int, cols: int) -> dict[str, np.ndarray]:
    """The arrays of ``num_envs`` games (call :func:`reset` to start them)."""
    size = rows * cols
    return {
        "neighbours": neighbour_table(rows, cols),
        "sums": np.zeros((num_envs, size), dtype=np.int16),
        "triggered": np.zeros((num_envs, size), dtype=np.bool_),
        "empties": np.zeros((num_envs, size), dtype=np.int16),
        "place": np.zeros((num_envs, size), dtype=np.int16),
        "count": np.zeros(num_envs, dtype=np.int16),
    }


@njit(cache=True, error_model="numpy")
def reset_one(i, sums, triggered, empties, place, count, player, obs, mask):
    size = sums.shape[1]
    for c in range(size):
        sums[i, c] = 0
        triggered[i, c] = False
        empties[i, c] = c
        place[i, c] = c
        obs[i, 0, c] = 0
        obs[i, 1, c] = 0
        obs[i, 2, c] = 0
    for a in range(9 * size):
        mask[i, a] = True
    count[i] = size
    player[i] = 0


@njit(cache=True, error_model="numpy")
def reset(neighbours, sums, triggered, empties, place, count, player, obs, mask, rewards, done):
    for i in range(sums.shape[0]):
        reset_one(i, sums, triggered, empties, place, count, player, obs, mask)
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        done[i] = False


@njit(cache=True, error_model="numpy")
def step(
    actions, neighbours, sums, triggered, empties, place, count, player, obs, mask,
    rewards, terminated,
):  # fmt: skip
    """Play ``actions[i]`` in game ``i``; finished games are scored and start again.

    Returns -1, or the first game whose action is illegal; then nothing changes.
    """
    bad = first_illegal(actions, mask)
    if bad >= 0:
        return bad
    size = sums.shape[1]
    hits = np.empty(9, dtype=np.int64)
    for i in range(actions.shape[0]):
        a = actions[i]
        pl = player[i]
        cell = a // 9
        digit = a % 9 + 1
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        terminated[i] = False
        colour = obs[i, 2, cell]
        if colour == 0:
            colour = pl + 1
        obs[i, 2, cell] = 0
        obs[i, 0, cell] = colour
        obs[i, 1, cell] = digit
        nb = neighbours[cell]
        # Triggers: the placed square if its neighbours already sum to 35, and
        # the filled neighbours whose sum has just become 35.
        n_hits = 0
        if sums[i, cell] == TARGET:
            hits[0] = cell
            n_hits = 1
        for k in range(8):
            n = nb[k]
            if n < 0:
                break
            total = sums[i, n] + digit
            sums[i, n] = total
            if total == TARGET and obs[i, 0, n] != 0:
                hits[n_hits] = n
                n_hits += 1
        if n_hits:
            first = obs[i, 0, hits[0]]
            mixed = False
            for h in range(n_hits):
                triggered[i, hits[h]] = True
                if obs[i, 0, hits[h]] != first:
                    mixed = True
            if not mixed:
                for h in range(n_hits):
                    tn = neighbours[hits[h]]
                    for k in range(8):
                        n = tn[k]
                        if n < 0:
                            break
                        if obs[i, 0, n] != 0:
                            obs[i, 0, n] = first
                        else:
                            obs[i, 2, n] = first
        # The square is no longer empty.
        left = count[i] - 1
        at = place[i, cell]
        last = empties[i, left]
        empties[i, at] = last
        place[i, last] = at
        count[i] = left
        for d in range(9):
            mask[i, 9 * cell + d] = False
        if left == 0:
            red = 0
            for c in range(size):
                if obs[i, 0, c] == 1:
                    red += 1
            blue = size - red
            terminated[i] = True
            if red != blue:
                winner = 0 if red > blue else 1
                rewards[i, winner] = 1.0
                rewards[i, 1 - winner] = -1.0
            reset_one(i, sums, triggered, empties, place, count, player, obs, mask)
            continue
        player[i] = 1 - pl

    return -1


@njit(cache=True, error_model="numpy")
def random_actions(rng, neighbours, sums, triggered, empties, place, count, out):
    """A uniformly random legal action of every game, into ``out``."""
    for i in range(out.shape[0]):
        cell = empties[i, below(rng, count[i])]
        out[i] = 9 * cell + below(rng, 9)
