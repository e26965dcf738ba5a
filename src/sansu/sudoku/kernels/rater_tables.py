"""Tables and small helpers shared by the rater's compiled rungs.

Cells are 0-80 row-major, units 0-8 rows, 9-17 columns, 18-26 boxes, and
candidates 9-bit masks (bit ``d - 1`` for digit ``d``), as in
:mod:`sansu.sudoku.logic.board`; 81-bit cell masks become the boolean
sightline table ``SEES``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.sudoku.grid import PEERS, UNITS, box_of

UNITS_ = np.array(UNITS, dtype=np.int64)
PEERS_ = np.array(PEERS, dtype=np.int64)
CELL_UNITS = np.array([(c // 9, 9 + c % 9, 18 + box_of(c)) for c in range(81)], dtype=np.int64)
SEES = np.zeros((81, 81), dtype=np.bool_)
for _c in range(81):
    SEES[_c, list(PEERS[_c])] = True
COUNT = np.array([bin(m).count("1") for m in range(512)], dtype=np.int64)
BOX = np.array([box_of(c) for c in range(81)], dtype=np.int64)


@njit(cache=True)
def low(mask):
    """The smallest digit of a non-empty mask."""
    d = 1
    while not mask & 1:
        mask >>= 1
        d += 1
    return d


@njit(cache=True)
def place(values, cands, cell, digit):
    values[cell] = digit
    cands[cell] = 0
    off = ~(1 << (digit - 1))
    for p in PEERS_[cell]:
        cands[p] &= off


@njit(cache=True)
def next_combination(idx, size, n):
    """Advance ``idx[:size]`` to the next ``size``-combination of ``range(n)`` in the order
    itertools gives them; False after the last."""
    i = size - 1
    while i >= 0 and idx[i] == i + n - size:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, size):
        idx[j] = idx[j - 1] + 1
    return True


@njit(cache=True)
def clear_seen(cands, bit, a, b, c):
    """Remove ``bit`` from every cell that sees ``a``, ``b`` (and ``c`` if >= 0), not those."""
    hit = 0
    for v in range(81):
        if not cands[v] & bit:  # a cell never sees itself, so a, b and c stay
            continue
        if SEES[v, a] and SEES[v, b] and (c < 0 or SEES[v, c]):
            cands[v] &= ~bit
            hit = 1
    return hit
