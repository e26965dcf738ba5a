"""The general compiled search: any rule set, any search order.

Every cell holds its candidate digits as a 9-bit mask (bit ``d - 1`` for
digit ``d``). Placing a digit removes it from the cell's peers (naked
singles follow), every unit is scanned for a digit with a single place left
(hidden singles), and marked or strict neighbour pairs prune each other
through a 512-entry table. When nothing more follows, the search branches on
the cell with the fewest candidates per unit of learnt weight (cells that
keep taking part in contradictions weigh more), copying the 81 masks onto a
stack. A budget of branches lets the caller restart in another order
(:func:`sansu.sudoku.solver.search`).

One kernel serves every rule set: a rule set is only data (peer lists,
units, starting masks, neighbour relations), built once per
:class:`~sansu.sudoku.constraints.Constraints` by :func:`tables`. Classic
questions in reading order go to the faster :mod:`sansu.sudoku.kernels.classic`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from sansu.sudoku.constraints import DIAGONALS, Constraints
from sansu.sudoku.grid import ADJACENT_PAIRS, SIZE, UNITS

ALL = 0x1FF
ODD = 0x155
EVEN = 0x0AA
MAX_PEERS = 40
CONSECUTIVE, NON_CONSECUTIVE = 0, 1

POPCOUNT = np.array([bin(m).count("1") for m in range(512)], dtype=np.int8)
LOWEST_DIGIT = np.array([(m & -m).bit_length() for m in range(512)], dtype=np.int8)
"""The smallest digit in a mask (0 for the empty mask)."""


def _relation_table() -> np.ndarray:
    table = np.zeros((2, 512), dtype=np.int32)
    near = [0] + [(1 << e | 1 << e >> 2) & ALL for e in range(1, 10)]  # bits of e - 1, e + 1
    for m in range(512):
        table[CONSECUTIVE, m] = ((m << 1) | (m >> 1)) & ALL
        table[NON_CONSECUTIVE, m] = sum(1 << (e - 1) for e in range(1, 10) if m & ~near[e])
    return table


RELATIONS = _relation_table()


class Tables(NamedTuple):
    """A rule set as arrays for the kernel."""

    peers: np.ndarray  # int16[81, MAX_PEERS]
    npeers: np.ndarray  # int16[81]
    units: np.ndarray  # int16[n, 9]
    start: np.ndarray  # int32[81]: candidates allowed before any placement
    pairs: np.ndarray  # int16[n, 3]: directed (a, b, kind)


@lru_cache(maxsize=256)
def tables(constraints: Constraints) -> Tables:
    units = [tuple(u) for u in UNITS]
    if constraints.diagonals:
        units += [d for _, d in DIAGONALS]
    peer_sets = [set() for _ in range(SIZE)]
    for unit in units:
        for c in unit:
            peer_sets[c].update(unit)
    peers = np.zeros((SIZE, MAX_PEERS), dtype=np.int16)
    npeers = np.zeros(SIZE, dtype=np.int16)
    for c, found in enumerate(peer_sets):
        ordered = sorted(found - {c})
        peers[c, : len(ordered)] = ordered
        npeers[c] = len(ordered)
    start = np.full(SIZE, ALL, dtype=np.int32)
    if constraints.parity is not None:
        for c, mark in enumerate(constraints.parity):
            if mark == "o":
                start[c] = ODD
            elif mark == "e":
                start[c] = EVEN
    pairs = []
    for a, b in ADJACENT_PAIRS:
        if (a, b) in constraints.consecutive:
            kind = CONSECUTIVE
        elif constraints.strict_consecutive:
            kind = NON_CONSECUTIVE
        else:
            continue
        pairs += [(a, b, kind), (b, a, kind)]
    pair_array = np.array(pairs, dtype=np.int16).reshape(-1, 3)
    for array in (peers, npeers, start, pair_array):
        array.setflags(write=False)
    unit_array = np.array(units, dtype=np.int16)
    unit_array.setflags(write=False)
    return Tables(peers, npeers, unit_array, start, pair_array)


@njit(cache=True, error_model="numpy")
def _propagate(cand, vals, queue, qlen, peers, npeers, units, pairs, relations, weight):
    """Apply every consequence of the placements queued in ``queue[:qlen]``.

    Returns False on a contradiction, after adding 1 to the ``weight`` of
    the cells involved. ``vals[c]`` is the digit placed on ``c`` (0 while
    open); a cell enters the queue once, when it is placed.
    """
    qhead = 0
    npairs = pairs.shape[0]
    nunits = units.shape[0]
    while True:
        while qhead < qlen:
            c = queue[qhead]
            qhead += 1
            bit = cand[c]
            for k in range(npeers[c]):
                p = peers[c, k]
                m = cand[p]
                if m & bit:
                    m ^= bit
                    if m == 0:
                        weight[p] += 1
                        weight[c] += 1
                        return False
                    cand[p] = m
                    if m & (m - 1) == 0:
                        vals[p] = LOWEST_DIGIT[m]
                        queue[qlen] = p
                        qlen += 1
        if npairs:
            changed = True
            while changed and qhead == qlen:
                changed = False
                for i in range(npairs):
                    b = pairs[i, 1]
                    m = cand[b]
                    kept = m & relations[pairs[i, 2], cand[pairs[i, 0]]]
                    if kept != m:
                        if kept == 0:
                            weight[b] += 1
                            weight[pairs[i, 0]] += 1
                            return False
                        cand[b] = kept
                        changed = True
                        if kept & (kept - 1) == 0:
                            vals[b] = LOWEST_DIGIT[kept]
                            queue[qlen] = b
                            qlen += 1
            if qhead < qlen:
                continue
        for u in range(nunits):
            once = 0
            twice = 0
            for k in range(9):
                m = cand[units[u, k]]
                twice |= once & m
                once |= m
            if once != ALL:
                for k in range(9):
                    weight[units[u, k]] += 1
                return False
            hidden = once & ~twice
            while hidden:
                bit = hidden & -hidden
                hidden ^= bit
                for k in range(9):
                    c = units[u, k]
                    if cand[c] & bit:
                        if vals[c] == 0:
                            cand[c] = bit
                            vals[c] = LOWEST_DIGIT[bit]
                            queue[qlen] = c
                            qlen += 1
                        break
                else:
                    for k in range(9):
                        weight[units[u, k]] += 1
                    return False
        if qhead < qlen:
            continue
        return True


@njit(cache=True, error_model="numpy")
def _branch_cell(cand, vals, cell_order, weight):
    """The open cell to branch on, or -1 when every cell is placed.

    The cell with the fewest candidates per unit of weight, where a cell's
    weight counts the contradictions it took part in: the search learns
    which corner of the grid is really hard and settles it first. Ties go
    to the cell that comes first in ``cell_order``.
    """
    best_n = 10
    best_w = 1
    cell = -1
    for i in range(SIZE):
        c = cell_order[i]
        if vals[c]:
            continue
        n = POPCOUNT[cand[c]]
        w = weight[c]
        if n * best_w < best_n * w:
            best_n = n
            best_w = w
            cell = c
    return cell


@njit(cache=True, error_model="numpy")
def search(
    givens,
    limit,
    peers,
    npeers,
    units,
    start,
    pairs,
    relations,
    cell_order,
    digit_order,
    max_nodes,
    weight,
    out,
):
    """Count the solutions that extend ``givens`` (int8[81]), stopping at ``limit``.

    The first solution found is written to ``out``. ``cell_order`` breaks
    ties between equally constrained cells; ``digit_order[c]`` (when it has
    rows) is the order in which digits are tried on ``c``, else lowest first.
    After ``max_nodes`` branches the search gives up and returns -1.
    ``weight`` (int64[81], all 1 to start) is updated in place, so a new
    search of the same grid can start with what this one learnt.
    """
    depth_cap = SIZE + 1
    cand_stack = np.empty((depth_cap, SIZE), dtype=np.int32)
    vals_stack = np.empty((depth_cap, SIZE), dtype=np.int8)
    branch_cell = np.empty(depth_cap, dtype=np.int16)
    branch_left = np.empty(depth_cap, dtype=np.int32)
    queue = np.empty(SIZE, dtype=np.int16)
    ordered = digit_order.shape[0] == SIZE

    cand = cand_stack[0]
    vals = vals_stack[0]
    qlen = 0
    for c in range(SIZE):
        cand[c] = start[c]
        vals[c] = 0
    for c in range(SIZE):
        d = givens[c]
        if d:
            bit = 1 << (d - 1)
            if cand[c] & bit == 0:
                return 0
            cand[c] = bit
            vals[c] = d
            queue[qlen] = c
            qlen += 1
    if not _propagate(cand, vals, queue, qlen, peers, npeers, units, pairs, relations, weight):
        return 0

    count = 0
    nodes = 0
    depth = 0
    while True:
        # The state at `depth` is consistent: find where to branch.
        cand = cand_stack[depth]
        vals = vals_stack[depth]
        cell = _branch_cell(cand, vals, cell_order, weight)
        if cell < 0:
            if count == 0:
                for c in range(SIZE):
                    out[c] = vals[c]
            count += 1
            if count >= limit:
                return count
            level = depth - 1  # a solved grid has no branch of its own
        else:
            branch_cell[depth] = cell
            branch_left[depth] = cand[cell]
            level = depth
        # Try the next untried digit of the deepest branch that has one.
        while True:
            if level < 0:
                return count
            left = branch_left[level]
            if left == 0:
                level -= 1
                continue
            cell = branch_cell[level]
            if ordered:
                bit = 0
                for k in range(9):
                    b = 1 << (digit_order[cell, k] - 1)
                    if left & b:
                        bit = b
                        break
            else:
                bit = left & -left
            branch_left[level] = left ^ bit
            nodes += 1
            if nodes > max_nodes:
                return -1
            cand = cand_stack[level + 1]
            vals = vals_stack[level + 1]
            cand[:] = cand_stack[level]
            vals[:] = vals_stack[level]
            cand[cell] = bit
            vals[cell] = LOWEST_DIGIT[bit]
            queue[0] = cell
            if _propagate(cand, vals, queue, 1, peers, npeers, units, pairs, relations, weight):
                depth = level + 1
                break
