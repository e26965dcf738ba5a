"""The rater's compiled pattern rungs: fish (plain and finned), wings, rectangles, chains.

Twins of :mod:`sansu.sudoku.logic.fish`, ``wings``, ``rectangles`` and
``chains``: the same scan order, so the same first deduction. Each returns 1
when it changed the candidates, 0 when it found nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.sudoku._rater_tables import (
    BOX,
    COUNT,
    PEERS_,
    SEES,
    UNITS_,
    clear_seen,
    next_combination,
)


@njit(cache=True)
def fish(cands, size):
    lines = np.empty(9, dtype=np.int64)
    usable = np.empty(9, dtype=np.int64)
    idx = np.empty(4, dtype=np.int64)
    for digit in range(1, 10):
        bit = 1 << (digit - 1)
        for by_rows in (True, False):
            for i in range(9):
                m = 0
                for j in range(9):
                    c = 9 * i + j if by_rows else 9 * j + i
                    if cands[c] & bit:
                        m |= 1 << j
                lines[i] = m
            n = 0
            for i in range(9):
                if 2 <= COUNT[lines[i]] <= size:
                    usable[n] = i
                    n += 1
            if n < size:
                continue
            for i in range(size):
                idx[i] = i
            while True:
                union = 0
                for i in range(size):
                    union |= lines[usable[idx[i]]]
                if COUNT[union] == size:
                    hit = 0
                    for i in range(9):
                        base = False
                        for k in range(size):
                            if usable[idx[k]] == i:
                                base = True
                        if base or not lines[i] & union:
                            continue
                        for j in range(9):
                            if union >> j & 1 and lines[i] >> j & 1:
                                cands[9 * i + j if by_rows else 9 * j + i] &= ~bit
                                hit = 1
                    if hit:
                        return 1
                if not next_combination(idx, size, n):
                    break
    return 0


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
