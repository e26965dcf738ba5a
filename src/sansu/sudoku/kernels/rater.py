"""The rater's rungs up to expert compiled: singles, intersections, subsets, fish, wings.

Most puzzles are decided by these rungs, and generating a puzzle at a chosen
level rates several candidates for each one kept, so they run as one numba
loop over 81 candidate masks instead of Python objects. Each finder is a
line-by-line twin of its Python original in :mod:`sansu.sudoku.logic` (same
scan order, so the same first deduction), which stays the reference; a
property test holds the two together on thousands of puzzles. The loop
stops where the compiled rungs run out, and :mod:`sansu.sudoku.rater` goes on
with the rest of the ladder in Python.

numba's on-disk cache notices a change only in the file of the function it
compiled: after editing one of the other ``rater_*.py`` modules, delete
``src/sansu/sudoku/kernels/__pycache__/rater*.nb*`` (the property test
``tests/sudoku/test_rater_compiled.py`` shows a stale cache at once).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.sudoku.kernels import rater_chains as chains
from sansu.sudoku.kernels import rater_fish as fish
from sansu.sudoku.kernels import rater_patterns as patterns
from sansu.sudoku.kernels.rater_tables import (
    CELL_UNITS,
    COUNT,
    PEERS_,
    UNITS_,
    low,
    next_combination,
    place,
)

SOLVED, STUCK, CAPPED, CONTRADICTION = 0, 1, 2, 3
"""What :func:`climb` returns: solved, no compiled rung applies, a rung above the cap is
needed, or the position has no solution (the Python rater then says why)."""

RUNGS = 26
"""How many rungs, from the bottom of the ladder, are compiled."""

_ORDER = np.array([*range(18, 27), *range(18)], dtype=np.int64)  # boxes first, then lines


@njit(cache=True)
def candidates(values, cands):
    """Fill ``cands`` with what the placed digits allow; False if two givens clash."""
    for c in range(81):
        seen = 0
        for p in PEERS_[c]:
            if values[p]:
                seen |= 1 << (values[p] - 1)
        if values[c]:
            if seen >> (values[c] - 1) & 1:
                return False
            cands[c] = 0
        else:
            cands[c] = 0x1FF & ~seen
    return True


@njit(cache=True)
def _full_house(values, cands):
    """1 found, 0 none, -1 contradiction (as for every finder below)."""
    for k in range(27):
        u = (k + 18) % 27  # boxes first
        empty, placed, full = -1, 0, True
        for c in UNITS_[u]:
            if values[c]:
                placed |= 1 << (values[c] - 1)
            elif empty >= 0:
                full = False
                break
            else:
                empty = c
        if not full or empty < 0:
            continue
        missing = 0x1FF & ~placed
        if not cands[empty] & missing:
            return -1
        place(values, cands, empty, low(missing))
        return 1
    return 0


@njit(cache=True)
def _naked_single(values, cands):
    for c in range(81):
        if values[c]:
            continue
        mask = cands[c]
        if mask & (mask - 1):
            continue
        if not mask:
            return -1
        place(values, cands, c, low(mask))
        return 1
    return 0


@njit(cache=True)
def _hidden_single(values, cands, first, last):
    for u in range(first, last):
        once = twice = placed = 0
        for c in UNITS_[u]:
            if values[c]:
                placed |= 1 << (values[c] - 1)
            else:
                m = cands[c]
                twice |= once & m
                once |= m
        missing = 0x1FF & ~placed
        if missing & ~once:
            return -1
        only = once & ~twice & missing
        if only:
            digit = low(only)
            for c in UNITS_[u]:
                if cands[c] & (1 << (digit - 1)):
                    place(values, cands, c, digit)
                    return 1
    return 0


@njit(cache=True)
def _in_unit(c, u):
    return CELL_UNITS[c, u // 9] == u


@njit(cache=True)
def _locked(cands, first, last):
    """Pointing (boxes, ``first`` 18) or claiming (lines, ``first`` 0)."""
    cells = np.empty(9, dtype=np.int64)
    for u in range(first, last):
        for digit in range(1, 10):
            bit = 1 << (digit - 1)
            n = 0
            for c in UNITS_[u]:
                if cands[c] & bit:
                    cells[n] = c
                    n += 1
            if n < 2:
                continue
            for k in range(3):
                if (u >= 18) == (k == 2):  # a box points along a line; a line claims a box
                    continue
                cover = CELL_UNITS[cells[0], k]
                same = True
                for i in range(1, n):
                    if CELL_UNITS[cells[i], k] != cover:
                        same = False
                if not same:
                    continue
                hit = 0
                for c in UNITS_[cover]:
                    if cands[c] & bit and not _in_unit(c, u):
                        cands[c] &= ~bit
                        hit = 1
                if hit:
                    return 1
    return 0


@njit(cache=True)
def _shared_clear(cands, group, n, union):
    """Clear ``union`` from every unit all ``n`` cells of ``group`` share; 1 if anything went."""
    hit = 0
    for k in range(3):
        v = CELL_UNITS[group[0], k]
        shared = True
        for i in range(1, n):
            if CELL_UNITS[group[i], k] != v:
                shared = False
        if not shared:
            continue
        for c in UNITS_[v]:
            inside = False
            for i in range(n):
                if group[i] == c:
                    inside = True
            if not inside and cands[c] & union:
                cands[c] &= ~union
                hit = 1
    return hit


@njit(cache=True)
def _naked_subset(values, cands, size):
    small = np.empty(9, dtype=np.int64)
    group = np.empty(4, dtype=np.int64)
    idx = np.empty(4, dtype=np.int64)
    for u in _ORDER:
        n = 0
        for c in UNITS_[u]:
            if not values[c] and 2 <= COUNT[cands[c]] <= size:
                small[n] = c
                n += 1
        if n < size:
            continue
        for i in range(size):  # combinations in lexicographic order, as itertools gives them
            idx[i] = i
        while True:
            union = 0
            for i in range(size):
                group[i] = small[idx[i]]
                union |= cands[group[i]]
            if COUNT[union] == size and _shared_clear(cands, group, size, union):
                return 1
            if not next_combination(idx, size, n):
                break
    return 0


@njit(cache=True)
def _hidden_subset(values, cands, size):
    places = np.empty(10, dtype=np.int64)
    few = np.empty(9, dtype=np.int64)
    idx = np.empty(4, dtype=np.int64)
    for u in _ORDER:
        unit = UNITS_[u]
        places[:] = 0
        for i in range(9):
            c = unit[i]
            if not values[c]:
                for d in range(1, 10):
                    if cands[c] & (1 << (d - 1)):
                        places[d] |= 1 << i
        present = n = 0
        for d in range(1, 10):
            if places[d]:
                present += 1
                if 2 <= COUNT[places[d]] <= size:
                    few[n] = d
                    n += 1
        if n < size or present <= size:
            continue
        for i in range(size):
            idx[i] = i
        while True:
            spots = keep = 0
            for i in range(size):
                spots |= places[few[idx[i]]]
                keep |= 1 << (few[idx[i]] - 1)
            if COUNT[spots] == size:
                hit = 0
                for i in range(9):
                    if spots >> i & 1 and cands[unit[i]] & ~keep:
                        cands[unit[i]] &= keep
                        hit = 1
                if hit:
                    return 1
            if not next_combination(idx, size, n):
                break
    return 0


@njit(cache=True)
def _step(values, cands, rung):
    """Try rung ``rung`` once: 1 applied, 0 not found, -1 contradiction."""
    if rung == 0:
        return _full_house(values, cands)
    if rung == 1:
        return _naked_single(values, cands)
    if rung == 2:
        return _hidden_single(values, cands, 18, 27)
    if rung == 3:
        return _hidden_single(values, cands, 0, 18)
    if rung == 4:
        return _locked(cands, 18, 27)
    if rung == 5:
        return _locked(cands, 0, 18)
    if rung == 6:
        return _naked_subset(values, cands, 2)
    if rung == 7:
        return _hidden_subset(values, cands, 2)
    if rung == 8:
        return _naked_subset(values, cands, 3)
    if rung == 9:
        return _hidden_subset(values, cands, 3)
    if rung == 10:
        return fish.fish(cands, 2)
    if rung == 11:
        return patterns.xy_wing(cands)
    if rung == 12:
        return patterns.unique_rectangle(cands)
    if rung == 13:
        return patterns.bug_plus_one(values, cands)
    if rung == 14:
        return patterns.xyz_wing(cands)
    if rung == 15:
        return patterns.w_wing(cands)
    if rung == 16:
        return fish.fish(cands, 3)
    if rung == 17:
        return chains.empty_rectangle(cands)
    if rung == 18:
        return chains.turbot_fish(cands)
    if rung == 19:
        return fish.finned_fish(cands, 2)
    if rung == 20:
        return _naked_subset(values, cands, 4)
    if rung == 21:
        return chains.simple_colouring(cands)
    if rung == 22:
        return fish.fish(cands, 4)
    if rung == 23:
        return fish.finned_fish(cands, 3)
    if rung == 24:
        return _hidden_subset(values, cands, 4)
    return fish.finned_fish(cands, 4)


@njit(cache=True)
def climb(values, cands, weights, allowed, cap, counts, effort):
    """Take the simplest compiled step until solved or stuck; ``counts[r]`` += uses of rung r.

    ``values`` and ``cands`` (int64[81]) change in place. Rung ``r`` is tried
    only if ``allowed[r]``; a rung heavier than ``cap`` is not taken
    (``CAPPED``). Returns ``(status, effort)``, the effort summed step by step
    exactly as the Python rater sums it.
    """
    while True:
        solved = True
        for c in range(81):
            if not values[c]:
                solved = False
                break
        if solved:
            return SOLVED, effort
        found = 0
        for rung in range(RUNGS):
            if not allowed[rung]:
                continue
            if weights[rung] > cap:  # nothing lighter applies, so the level is above the cap
                return CAPPED, effort
            found = _step(values, cands, rung)
            if found < 0:
                return CONTRADICTION, effort
            if found:
                counts[rung] += 1
                effort += weights[rung] - 1.0
                break
        if not found:
            return STUCK, effort
