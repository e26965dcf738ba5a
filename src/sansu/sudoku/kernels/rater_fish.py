"""The rater's compiled fish: x-wing, swordfish and jellyfish, plain and finned.

Twins of :mod:`sansu.sudoku.logic.fish`: the same scan order, so the same
first deduction. Each returns 1 when it changed the candidates, 0 when it
found nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.sudoku.kernels.rater_tables import (
    COUNT,
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
def _lines(cands, bit, by_rows, lines):
    """``lines[i]``: the places (bit ``j``) of ``bit`` in row ``i`` (or column ``i``)."""
    for i in range(9):
        m = 0
        for j in range(9):
            if cands[9 * i + j if by_rows else 9 * j + i] & bit:
                m |= 1 << j
        lines[i] = m


@njit(cache=True)
def _finned_clear(cands, bit, by_rows, lines, base, size, cover, fins):
    """Clear the cells a finned fish with this cover removes; 1 if it made a step."""
    band = -1
    for k in range(size):
        i = base[k]
        if not lines[i] & cover:
            return 0
    for k in range(size):
        i = base[k]
        if lines[i] & fins:
            if band < 0:
                band = i // 3
            elif i // 3 != band:
                return 0
    stack = 0
    while not fins >> (3 * stack) & 7:
        stack += 1
    hit = 0
    for i in range(3 * band, 3 * band + 3):
        inside = False
        for k in range(size):
            if base[k] == i:
                inside = True
        if inside:
            continue
        for j in range(3 * stack, 3 * stack + 3):
            if cover >> j & 1 and lines[i] >> j & 1:
                cands[9 * i + j if by_rows else 9 * j + i] &= ~bit
                hit = 1
    return hit


@njit(cache=True)
def finned_fish(cands, size):
    lines = np.empty(9, dtype=np.int64)
    usable = np.empty(9, dtype=np.int64)
    base = np.empty(4, dtype=np.int64)
    idx = np.empty(4, dtype=np.int64)
    for digit in range(1, 10):
        bit = 1 << (digit - 1)
        for by_rows in (True, False):
            _lines(cands, bit, by_rows, lines)
            n = 0
            for i in range(9):
                if lines[i]:
                    usable[n] = i
                    n += 1
            if n < size:
                continue
            for i in range(size):
                idx[i] = i
            while True:
                union = 0
                for i in range(size):
                    base[i] = usable[idx[i]]
                    union |= lines[base[i]]
                if size < COUNT[union] <= size + 3:
                    for stack in range(3):
                        block = 7 << 3 * stack
                        outside = union & ~block
                        need = size - COUNT[outside]
                        if need < 1:
                            continue
                        for low in range(8):
                            extra = low << 3 * stack
                            if extra & ~union or COUNT[extra] != need:
                                continue
                            cover = outside | extra
                            fins = union & ~cover
                            if _finned_clear(cands, bit, by_rows, lines, base, size, cover, fins):
                                return 1
                if not next_combination(idx, size, n):
                    break
    return 0
