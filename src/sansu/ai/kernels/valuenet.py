"""A small learned value network for the sectioned games, evaluated inside the compiled search.

The network sees a position of Ultimate Tic-Tac-Toe or Sansumoku from the
side of the player to move, as :data:`N_FEATURES` binary features (layout
below), and answers how good it is for that player, in [-1, 1]. It is one
hidden layer of ReLU units over the features and a tanh output: small enough
that an evaluation costs about one random playout, which is what it replaces
(or is mixed with) at a leaf of the search.

Most features are zero, so the first layer adds up the rows of the active
ones only (the idea of NNUE's accumulator, without incremental updates).

Feature layout (cells in the kernels' bit order ``9 * section + position``):

====================  =====================================================
``0 … 80``            the mover's marks
``81 … 161``          the opponent's marks
``162 … 170``         sections won by the mover
``171 … 179``         sections won by the opponent
``180 … 188``         closed sections
``189 … 197``         the one section the mover may use (when only one)
``198``               a free choice among several sections
``199 … 279``         the legal cells
====================  =====================================================

:func:`features_of_state` computes the same features from an engine state
through its public methods; a test requires both to agree on many positions.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.core.sections import PLACES

MINE, THEIRS, WON_MINE, WON_THEIRS, CLOSED_AT, ONLY, FREE_AT, LEGAL_AT = (
    0, 81, 162, 171, 180, 189, 198, 199,
)  # fmt: skip
N_FEATURES = 280
MAX_ACTIVE = N_FEATURES


@njit(cache=True)
def encode(st, won, closed_slot, target_slot, to_move_slot, moves, n, active):
    """Write the indices of the active features of kernel position ``st`` into ``active``.

    ``won``, ``closed_slot``, … are the kernel's slot numbers; ``moves[:n]`` are
    its legal moves. Both sectioned kernels keep each player's marks as one 9-bit
    field per section in slots 0–17. Returns how many features are active.
    """
    me = st[to_move_slot]
    k = 0
    for s in range(9):
        mine = st[9 * me + s]
        theirs = st[9 * (1 - me) + s]
        for p in range(9):
            if mine >> p & 1:
                active[k] = MINE + 9 * s + p
                k += 1
            elif theirs >> p & 1:
                active[k] = THEIRS + 9 * s + p
                k += 1
    closed = st[closed_slot]
    for s in range(9):
        if st[won + me] >> s & 1:
            active[k] = WON_MINE + s
            k += 1
        elif st[won + 1 - me] >> s & 1:
            active[k] = WON_THEIRS + s
            k += 1
        if closed >> s & 1:
            active[k] = CLOSED_AT + s
            k += 1
    t = st[target_slot]
    allowed = 1 << t if t >= 0 and not closed >> t & 1 else 511 & ~closed
    count = 0
    only = -1
    for s in range(9):
        if allowed >> s & 1:
            count += 1
            only = s
    if count == 1:
        active[k] = ONLY + only
    else:
        active[k] = FREE_AT
    k += 1
    for i in range(n):
        active[k] = LEGAL_AT + moves[i]
        k += 1
    return k


@njit(cache=True)
def forward(active, k, w1, b1, w2, b2):
    """The network's value in [-1, 1] of the features ``active[:k]`` (for the player to move)."""
    hidden = b1.shape[0]
    h = b1.copy()
    for i in range(k):
        row = active[i]
        for j in range(hidden):
            h[j] += w1[row, j]
    out = b2[0]
    for j in range(hidden):
        if h[j] > 0.0:
            out += h[j] * w2[j]
    return np.tanh(out)


@njit(cache=True)
def reward_for(player, value):
    """Player 0's expected reward in [0, 1] from ``value`` in [-1, 1] for ``player``."""
    r = 0.5 * (value + 1.0)
    return r if player == 0 else 1.0 - r


def features_of_state(state) -> np.ndarray:
    """The features of an engine state (UTTT or Sansumoku), read through its public methods.

    A dense 0/1 vector of length :data:`N_FEATURES`, the reference that the
    compiled :func:`encode` is checked against.
    """
    x = np.zeros(N_FEATURES, dtype=np.uint8)
    me = state.to_move
    owner_of = getattr(state, "mark_at", None) or state.player_at
    for place in PLACES:
        owner = owner_of(place.cell)
        if owner is not None:
            x[(MINE if owner == me else THEIRS) + place.bit] = 1
    for s in range(9):
        owner = state.section_owner(s)
        if owner is not None:
            x[(WON_MINE if owner == me else WON_THEIRS) + s] = 1
        if state.is_closed(s):
            x[CLOSED_AT + s] = 1
    allowed = state.allowed_sections()
    if len(allowed) == 1:
        x[ONLY + allowed[0]] = 1
    else:
        x[FREE_AT] = 1
    for move in state.legal_moves():
        x[LEGAL_AT + move.bit] = 1
    return x


def dense(active: np.ndarray, k: int) -> np.ndarray:
    """The 0/1 feature vector of the active indices ``active[:k]``."""
    x = np.zeros(N_FEATURES, dtype=np.uint8)
    x[active[:k]] = 1
    return x
