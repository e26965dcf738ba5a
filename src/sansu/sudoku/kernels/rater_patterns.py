"""The rater's compiled wings and uniqueness patterns: xy-, xyz- and w-wings, unique
rectangles, BUG+1.

Twins of :mod:`sansu.sudoku.logic.wings` and ``rectangles``: the same scan
order, so the same first deduction. Each returns 1 when it changed the
candidates, 0 when it found nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.sudoku.kernels.rater_tables import (
    BOX,
    CELL_UNITS,
    COUNT,
    PEERS_,
    SEES,
    UNITS_,
    clear_seen,
    place,
)


@njit(cache=True)
def xy_wing(cands):
    wings = np.empty(20, dtype=np.int64)
    for pivot in range(81):
        pm = cands[pivot]
        if COUNT[pm] != 2:
            continue
        n = 0
        for p in PEERS_[pivot]:
            if COUNT[cands[p]] == 2 and cands[p] != pm:
                wings[n] = p
                n += 1
        for i in range(n):
            a = wings[i]
            am = cands[a]
            if not am & pm:
                continue
            for j in range(i + 1, n):
                b = wings[j]
                bm = cands[b]
                z = am & bm
                if COUNT[z] != 1 or z & pm or (am | bm) & ~z != pm:
                    continue
                # the pivot cannot hold z, so leaving it out of the victims changes nothing
                if clear_seen(cands, z, a, b, -1):
                    return 1
    return 0


@njit(cache=True)
def unique_rectangle(cands):
    for fourth in range(81):
        extra = cands[fourth]
        if COUNT[extra] < 3:
            continue
        row, col = fourth // 9, fourth % 9
        for a in range(9 * row, 9 * row + 9):
            mask = cands[a]
            if a == fourth or COUNT[mask] != 2 or extra & mask != mask:
                continue
            for r in range(9):
                b, opposite = 9 * r + col, 9 * r + a % 9
                if r == row or cands[b] != mask or cands[opposite] != mask:
                    continue
                # two rows and two columns meet in one, two or four boxes
                one_band = BOX[fourth] // 3 == BOX[opposite] // 3
                one_stack = BOX[fourth] % 3 == BOX[opposite] % 3
                if one_band != one_stack:
                    cands[fourth] &= ~mask
                    return 1
    return _roof(cands)


@njit(cache=True)
def _two_boxes(a, b, c, d):
    n = 1
    for x in (b, c, d):
        new = True
        for y in (a, b, c, d):
            if y == x:
                break
            if BOX[y] == BOX[x]:
                new = False
        n += new
    return n == 2


@njit(cache=True)
def _roof(cands):
    """Unique rectangle types 2 and 4, as ``rectangles._roof`` finds them."""
    for a in range(81):
        mask = cands[a]
        if COUNT[mask] != 2:
            continue
        for b in range(a + 1, 81):
            if cands[b] != mask:
                continue
            same_row = a // 9 == b // 9
            if not same_row and a % 9 != b % 9:
                continue
            for k in range(9):
                if same_row:
                    if k == a // 9:
                        continue
                    c, d = 9 * k + a % 9, 9 * k + b % 9
                else:
                    if k == a % 9:
                        continue
                    c, d = 9 * (a // 9) + k, 9 * (b // 9) + k
                if not _two_boxes(a, b, c, d):
                    continue
                if cands[c] & mask != mask or cands[d] & mask != mask:
                    continue
                if COUNT[cands[c]] < 3 or COUNT[cands[d]] < 3:
                    continue
                extra = cands[c] & ~mask
                if cands[d] & ~mask == extra and COUNT[extra] == 1:
                    hit = 0
                    for v in range(81):
                        if cands[v] & extra and SEES[v, c] and SEES[v, d]:
                            cands[v] &= ~extra
                            hit = 1
                    if hit:
                        return 1
                for u in range(3):
                    unit = CELL_UNITS[c, u]
                    if unit != CELL_UNITS[d, u]:
                        continue
                    for x in range(9):
                        xbit = 1 << x
                        if not mask & xbit:
                            continue
                        only = True
                        for v in UNITS_[unit]:
                            if cands[v] & xbit and v != c and v != d:
                                only = False
                        if only:
                            cands[c] &= ~(mask & ~xbit)
                            cands[d] &= ~(mask & ~xbit)
                            return 1
    return _hidden(cands)


@njit(cache=True)
def _only_two(cands, unit, bit, a, b):
    """True if ``bit``'s places in ``unit`` are exactly cells ``a`` and ``b``."""
    n = 0
    for v in UNITS_[unit]:
        if cands[v] & bit:
            if v not in (a, b):
                return False
            n += 1
    return n == 2


@njit(cache=True)
def _hidden(cands):
    """The hidden rectangle, as ``rectangles._hidden`` finds it."""
    for a in range(81):
        mask = cands[a]
        if COUNT[mask] != 2:
            continue
        r1, c1 = a // 9, a % 9
        for d in range(81):
            r2, c2 = d // 9, d % 9
            if r2 == r1 or c2 == c1:
                continue
            side, top = 9 * r2 + c1, 9 * r1 + c2
            if cands[d] & mask != mask or cands[side] & mask != mask:
                continue
            if cands[top] & mask != mask or not _two_boxes(a, d, side, top):
                continue
            for x in range(9):
                xbit = 1 << x
                if not mask & xbit:
                    continue
                if _only_two(cands, r2, xbit, side, d) and _only_two(cands, 9 + c2, xbit, top, d):
                    cands[d] &= ~(mask & ~xbit)
                    return 1
    return 0


@njit(cache=True)
def xyz_wing(cands):
    wings = np.empty(20, dtype=np.int64)
    for pivot in range(81):
        pm = cands[pivot]
        if COUNT[pm] != 3:
            continue
        n = 0
        for p in PEERS_[pivot]:
            if COUNT[cands[p]] == 2 and cands[p] & ~pm == 0:
                wings[n] = p
                n += 1
        for i in range(n):
            for j in range(i + 1, n):
                a, b = wings[i], wings[j]
                am, bm = cands[a], cands[b]
                if am == bm or am | bm != pm:
                    continue
                if clear_seen(cands, am & bm, a, b, pivot):
                    return 1
    return 0


@njit(cache=True)
def w_wing(cands):
    pairs = np.empty(81, dtype=np.int64)
    n = 0
    for c in range(81):
        if COUNT[cands[c]] == 2:
            pairs[n] = c
            n += 1
    links = np.empty((10, 27, 2), dtype=np.int64)  # per digit, its strong links in unit order
    nlinks = np.zeros(10, dtype=np.int64)
    for d in range(1, 10):
        bit = 1 << (d - 1)
        for u in range(27):
            k, first, second = 0, -1, -1
            for c in UNITS_[u]:
                if cands[c] & bit:
                    if k == 0:
                        first = c
                    elif k == 1:
                        second = c
                    k += 1
            if k == 2:
                links[d, nlinks[d], 0] = first
                links[d, nlinks[d], 1] = second
                nlinks[d] += 1
    for i in range(n):
        p = pairs[i]
        for j in range(i + 1, n):
            q = pairs[j]
            mask = cands[p]
            if cands[q] != mask or SEES[p, q]:
                continue
            for x in range(1, 10):
                xbit = 1 << (x - 1)
                if not mask & xbit:
                    continue
                ybit = mask & ~xbit
                seen = False
                for v in range(81):
                    if cands[v] & ybit and SEES[v, p] and SEES[v, q]:
                        seen = True
                        break
                if not seen:
                    continue
                for k in range(nlinks[x]):
                    a, b = links[x, k, 0], links[x, k, 1]
                    if a in (p, q) or b in (p, q):
                        continue
                    if (SEES[p, a] and SEES[q, b]) or (SEES[p, b] and SEES[q, a]):
                        clear_seen(cands, ybit, p, q, -1)
                        return 1
    return 0


@njit(cache=True)
def bug_plus_one(values, cands):
    """BUG+1, as ``rectangles.bug_plus_one``: place the extra digit of the one three-candidate
    cell when all other empty cells have two."""
    three = -1
    for c in range(81):
        if values[c] or COUNT[cands[c]] == 2:
            continue
        if COUNT[cands[c]] != 3 or three >= 0:
            return 0
        three = c
    if three < 0:
        return 0
    for d in range(1, 10):
        bit = 1 << (d - 1)
        if not cands[three] & bit:
            continue
        every = True
        for k in range(3):
            n = 0
            for v in UNITS_[CELL_UNITS[three, k]]:
                if cands[v] & bit:
                    n += 1
            if n != 3:
                every = False
        if every:
            place(values, cands, three, d)
            return 1
    return 0
