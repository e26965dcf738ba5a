"""35's fitted leaf evaluator, compiled: features that mean the same on every board size.

A 35 position is judged from the side of the player to move by a handful of
counts over the squares, each divided by the number of squares so that one
set of weights serves boards of 3×3 to 12×12: the territory (own squares
minus the opponent's), the highlights, the empties left, and the *triggers
in reach*: squares whose neighbour sum can still reach exactly 35, weighted
by what firing them would convert. A trigger one digit away (its sum 26–34
with an empty neighbour) can be fired on the next move; one that needs
several digits is only a prospect. Empty squares whose neighbours already
sum to 35 fire when filled, in their highlight's colour or the placer's.

The value is a logistic model over these features and their products with
the share of empty squares (what counts early is not what counts late):
:func:`value` is the mover's expected reward in [0, 1]. The plain-Python
reference the tests check :func:`features` against is in
:mod:`sansu.ai.thirtyfive_eval`, with the fitting.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sansu.ai.kernels.thirtyfive_layout import (
    COLOUR,
    COLS,
    EMPTIES,
    HIGHLIGHT,
    NONE,
    OFFSETS,
    ROWS,
    SUMS,
    TARGET,
    TO_MOVE,
    WIDE,
)

BASE = (
    "territory",
    "highlights",
    "empty",
    "odd",
    "fire_own",
    "fire_other",
    "hot_free",
    "hot_own",
    "hot_other",
    "reach_own",
    "reach_other",
    "best_own",
    "best_other",
)
"""The base features, mover's side first (``odd``: the mover makes the last move; ``best_``:
the largest stake of one trigger a side can fire with one digit, or one empty square at 35
that fires for it, since a move fires only where it is played)."""
PHASED = (0, 1, 4, 5, 6, 9, 10, 11, 12)
"""Base features that also enter multiplied by ``1 - empty`` (the game's progress)."""
N_BASE = len(BASE)
N_FEATURES = N_BASE + len(PHASED)
NAMES = BASE + tuple(f"{BASE[i]}*late" for i in PHASED)
PHASED_INDEX = np.array(PHASED, dtype=np.int64)


@njit(cache=True)
def base_features(st, out):
    """Write the base features of the ongoing position ``st`` into ``out[:N_BASE]``."""
    for i in range(N_BASE):
        out[i] = 0.0
    me = st[TO_MOVE]
    rows = st[ROWS]
    cols = st[COLS]
    for r in range(rows):
        for c in range(cols):
            sq = (r + 1) * WIDE + c + 1
            colour = st[COLOUR + sq]
            s = st[SUMS + sq]
            if colour == NONE:
                hl = st[HIGHLIGHT + sq]
                if hl == me:
                    out[1] += 1.0
                elif hl != NONE:
                    out[1] -= 1.0
                if s != TARGET:
                    continue
                # Filling it fires it: in the highlight's colour, else the placer's.
                owner = hl if hl != NONE else me
                stake = 0.0
                for k in range(8):
                    m = sq + OFFSETS[k]
                    cm = st[COLOUR + m]
                    if cm >= 0 and cm != owner:
                        stake += 1.0
                if hl == NONE:
                    out[6] += stake
                elif hl == me:
                    out[7] += stake
                else:
                    out[8] += stake
                side = 11 if owner == me else 12
                out[side] = max(out[side], stake)
                continue
            own = colour == me
            out[0] += 1.0 if own else -1.0
            need = TARGET - s
            if need <= 0:
                continue
            empty = 0
            stake = 0.0
            for k in range(8):
                m = sq + OFFSETS[k]
                cm = st[COLOUR + m]
                if cm == NONE:
                    empty += 1
                    if st[HIGHLIGHT + m] != colour:
                        stake += 0.5
                elif cm >= 0 and cm != colour:
                    stake += 1.0
            if empty == 0 or need > 9 * empty:
                continue
            if need <= 9:
                out[4 if own else 5] += stake
                side = 11 if own else 12
                out[side] = max(out[side], stake)
            else:
                out[9 if own else 10] += stake
    n = float(rows * cols)
    empties = st[EMPTIES]
    for i in range(N_BASE):
        out[i] /= n
    out[2] = empties / n
    out[3] = 1.0 if empties % 2 == 1 else 0.0


@njit(cache=True)
def features(st, out):
    """Write all :data:`N_FEATURES` features of the ongoing position ``st`` into ``out``."""
    base_features(st, out)
    late = 1.0 - out[2]
    for j in range(PHASED_INDEX.shape[0]):
        out[N_BASE + j] = out[PHASED_INDEX[j]] * late


@njit(cache=True)
def value(st, weights, bias, x):
    """The mover's expected reward at the ongoing position ``st`` (``x``: scratch space)."""
    features(st, x)
    z = bias[0]
    for i in range(N_FEATURES):
        z += weights[i] * x[i]
    if z >= 0.0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)
