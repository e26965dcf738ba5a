"""The fast path of the search: classic rules only, one bit board per digit and band.

Each digit keeps its candidate cells as three 27-bit words, one per band of
three rows (bit ``9 * row_in_band + column``). Within a band a digit takes
one cell in each of the three rows and each of the three boxes, so which
(row, box) segments can still hold it is a permutation pattern; a 512-entry
table keeps the segments that lie on some permutation. The same table,
applied to (band, column) segments of each stack, does the same for columns.
This covers pointing and claiming in both directions; hidden and naked
singles are found bit-parallel, and the search branches on a two-candidate
cell when there is one.

The general kernel (:mod:`sansu.sudoku._kernel`) gives the same answers for
every rule set; this one exists because the computer players and the
generator ask classic questions most, and ask them very often.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
from numba import njit

from sansu.sudoku.grid import PEERS, SIZE

FULL = (1 << 27) - 1
ROW = 0x1FF
BOX = 7 | 7 << 9 | 7 << 18
"""The cells of box column 0 in a band word."""


def _tables() -> tuple[np.ndarray, ...]:
    perms = [sum(1 << (3 * r + p[r]) for r in range(3)) for p in permutations(range(3))]
    keep = np.zeros(512, dtype=np.int64)
    expand = np.zeros(512, dtype=np.int64)
    columns = np.zeros(512, dtype=np.int64)
    boxes = np.zeros(512, dtype=np.int64)
    alone = np.zeros(512, dtype=np.int64)
    for m in range(512):
        for p in perms:
            if p & m == p:
                keep[m] |= p
        expand[m] = sum(7 << (9 * (j // 3) + 3 * (j % 3)) for j in range(9) if m >> j & 1)
        columns[m] = m | m << 9 | m << 18
        boxes[m] = sum(1 << k for k in range(3) if m >> (3 * k) & 7)
        alone[m] = m if m and m & (m - 1) == 0 else 0
    peers = np.zeros((SIZE, 3), dtype=np.int64)
    for cell in range(SIZE):
        for p in PEERS[cell]:
            peers[cell, p // 27] |= 1 << (p % 27)
    de_bruijn = np.zeros(32, dtype=np.int64)
    for i in range(32):
        de_bruijn[(((1 << i) * 0x077CB531) & 0xFFFFFFFF) >> 27] = i
    return keep, expand, columns, boxes, alone, peers, de_bruijn


# KEEP[pattern]: the segments (bit 3 * line + box) that lie on a permutation inside `pattern`.
# EXPAND[segments]: a band word with the three cells of each segment.
# COLUMNS[cols]: a band word with every cell of the 9-bit column set.
# ROW_BOXES[row]: which boxes a 9-bit row of a band word touches.
# ALONE[m]: m when it holds exactly one bit, else 0.
# PEER_WORDS[cell, band]: the cell's peers in each band word.
# DE_BRUIJN: bit positions, indexed by a de Bruijn product (see _bit_index).
KEEP, EXPAND, COLUMNS, ROW_BOXES, ALONE, PEER_WORDS, DE_BRUIJN = _tables()


@njit(cache=True, error_model="numpy")
def _place(words, solved, cell, digit):
    """Put ``digit`` (0-8) on ``cell``; the digits whose words changed, or -1."""
    band = cell // 27
    bit = 1 << (cell % 27)
    if words[3 * digit + band] & bit == 0:
        return -1
    changed = 1 << digit
    for d in range(9):
        if d != digit and words[3 * d + band] & bit:
            words[3 * d + band] ^= bit
            changed |= 1 << d
    for b in range(3):
        words[3 * digit + b] &= ~PEER_WORDS[cell, b]
    solved[band] |= bit
    return changed


@njit(cache=True, error_model="numpy")
def _in_band(f):
    """The word ``f`` without the (row, box) segments that lie on no permutation."""
    segments = ROW_BOXES[f & ROW] | ROW_BOXES[f >> 9 & ROW] << 3 | ROW_BOXES[f >> 18] << 6
    return f & EXPAND[KEEP[segments]]


@njit(cache=True, error_model="numpy")
def _propagate(words, solved, dirty, hidden):
    """Apply every consequence of the last placements; False on a contradiction.

    ``dirty`` flags the digits whose words changed since they were last examined.
    """
    while True:
        placed = False
        recheck = 0
        for d in range(9):
            if not dirty >> d & 1:
                continue
            g0 = words[3 * d]
            g1 = words[3 * d + 1]
            g2 = words[3 * d + 2]
            while True:  # the two shrinks feed each other: repeat until neither changes
                f0 = g0
                f1 = g1
                f2 = g2
                g0 = _in_band(f0)
                g1 = _in_band(f1)
                g2 = _in_band(f2)
                c0 = (g0 | g0 >> 9 | g0 >> 18) & ROW
                c1 = (g1 | g1 >> 9 | g1 >> 18) & ROW
                c2 = (g2 | g2 >> 9 | g2 >> 18) & ROW
                a0 = 0
                a1 = 0
                a2 = 0
                for s in range(0, 9, 3):
                    k = KEEP[(c0 >> s & 7) | (c1 >> s & 7) << 3 | (c2 >> s & 7) << 6]
                    a0 |= (k & 7) << s
                    a1 |= (k >> 3 & 7) << s
                    a2 |= (k >> 6) << s
                g0 &= COLUMNS[a0]
                g1 &= COLUMNS[a1]
                g2 &= COLUMNS[a2]
                if g0 == 0 or g1 == 0 or g2 == 0:
                    return False
                if g0 == f0 and g1 == f1 and g2 == f2:
                    break
            words[3 * d] = g0
            words[3 * d + 1] = g1
            words[3 * d + 2] = g2
            # Cells where the digit is alone in its row, box or column.
            r00 = g0 & ROW
            r01 = g0 >> 9 & ROW
            r02 = g0 >> 18
            r10 = g1 & ROW
            r11 = g1 >> 9 & ROW
            r12 = g1 >> 18
            r20 = g2 & ROW
            r21 = g2 >> 9 & ROW
            r22 = g2 >> 18
            one0 = r00 | r01 | r02
            one1 = r10 | r11 | r12
            one2 = r20 | r21 | r22
            two = (
                (r00 & r01) | (r02 & (r00 | r01))
                | (r10 & r11) | (r12 & (r10 | r11))
                | (r20 & r21) | (r22 & (r20 | r21))
                | (one0 & one1) | (one2 & (one0 | one1))
            )  # fmt: skip
            lone = (one0 | one1 | one2) & ~two
            h0 = ALONE[r00] | ALONE[r01] << 9 | ALONE[r02] << 18 | (g0 & COLUMNS[lone])
            h1 = ALONE[r10] | ALONE[r11] << 9 | ALONE[r12] << 18 | (g1 & COLUMNS[lone])
            h2 = ALONE[r20] | ALONE[r21] << 9 | ALONE[r22] << 18 | (g2 & COLUMNS[lone])
            for s in range(0, 9, 3):
                m = g0 & BOX << s
                if m & (m - 1) == 0:
                    h0 |= m
                m = g1 & BOX << s
                if m & (m - 1) == 0:
                    h1 |= m
                m = g2 & BOX << s
                if m & (m - 1) == 0:
                    h2 |= m
            hidden[3 * d] = h0 & ~solved[0]
            hidden[3 * d + 1] = h1 & ~solved[1]
            hidden[3 * d + 2] = h2 & ~solved[2]
        for d in range(9):
            if not dirty >> d & 1:
                continue
            for b in range(3):
                m = hidden[3 * d + b]
                while m:
                    low = m & -m
                    m ^= low
                    if solved[b] & low:
                        continue
                    changed = _place(words, solved, 27 * b + _bit_index(low), d)
                    if changed < 0:
                        return False
                    recheck |= changed
                    placed = True
        for b in range(3):
            one = 0
            two = 0
            for d in range(9):
                x = words[3 * d + b]
                two |= one & x
                one |= x
            if one != FULL:
                return False
            naked = one & ~two & ~solved[b]
            while naked:
                low = naked & -naked
                naked ^= low
                for d in range(9):
                    if words[3 * d + b] & low:
                        changed = _place(words, solved, 27 * b + _bit_index(low), d)
                        if changed < 0:
                            return False
                        recheck |= changed
                        placed = True
                        break
        if not placed:
            return True
        dirty = recheck


@njit(cache=True, error_model="numpy")
def _bit_index(bit):
    """The position of the single set bit of a band word (de Bruijn multiplication)."""
    return DE_BRUIJN[((bit * 0x077CB531) & 0xFFFFFFFF) >> 27]


@njit(cache=True, error_model="numpy")
def _popcount(x):
    """The number of set bits of a band word."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True, error_model="numpy")
def _branch_cell(words, solved):
    """The open cell to branch on, or -1 when every cell is solved.

    A two-candidate cell when there is one: the one whose two placements
    remove the most candidates from its row and box, so both branches learn
    much. Otherwise a cell with the fewest candidates.
    """
    best = -1
    cell = -1
    for b in range(3):
        one = 0
        two = 0
        three = 0
        for d in range(9):
            x = words[3 * d + b]
            three |= two & x
            two |= one & x
            one |= x
        pairs = two & ~three & ~solved[b]
        while pairs:
            low = pairs & -pairs
            pairs ^= low
            c = 27 * b + _bit_index(low)
            score = 0
            for d in range(9):
                if words[3 * d + b] & low:
                    score += _popcount(words[3 * d + b] & PEER_WORDS[c, b])
            if score > best:
                best = score
                cell = c
    if cell >= 0:
        return cell
    fewest = 10
    for c in range(SIZE):
        b = c // 27
        bit = 1 << (c % 27)
        if solved[b] & bit:
            continue
        n = 0
        for d in range(9):
            if words[3 * d + b] & bit:
                n += 1
        if n < fewest:
            fewest = n
            cell = c
    return cell


@njit(cache=True, error_model="numpy")
def search(givens, limit, out):
    """Count the classic solutions extending ``givens`` (int8[81]) up to ``limit``.

    The first solution found is written to ``out``.
    """
    cap = SIZE + 1
    word_stack = np.empty((cap, 27), dtype=np.int64)
    solved_stack = np.zeros((cap, 3), dtype=np.int64)
    branch_cell = np.empty(cap, dtype=np.int64)
    branch_left = np.empty(cap, dtype=np.int64)
    hidden = np.zeros(27, dtype=np.int64)

    words = word_stack[0]
    solved = solved_stack[0]
    words[:] = FULL
    for c in range(SIZE):
        if givens[c] and _place(words, solved, c, np.int64(givens[c]) - 1) < 0:
            return 0
    if not _propagate(words, solved, 0x1FF, hidden):
        return 0

    count = 0
    depth = 0
    while True:
        words = word_stack[depth]
        solved = solved_stack[depth]
        cell = _branch_cell(words, solved)
        if cell < 0:
            if count == 0:
                for c in range(SIZE):
                    bit = 1 << (c % 27)
                    for d in range(9):
                        if words[3 * d + c // 27] & bit:
                            out[c] = d + 1
                            break
            count += 1
            if count >= limit:
                return count
            level = depth - 1
        else:
            left = 0
            bit = 1 << (cell % 27)
            for d in range(9):
                if words[3 * d + cell // 27] & bit:
                    left |= 1 << d
            branch_cell[depth] = cell
            branch_left[depth] = left
            level = depth
        while True:
            if level < 0:
                return count
            left = branch_left[level]
            if left == 0:
                level -= 1
                continue
            low = left & -left
            branch_left[level] = left ^ low
            words = word_stack[level + 1]
            solved = solved_stack[level + 1]
            words[:] = word_stack[level]
            solved[:] = solved_stack[level]
            changed = _place(words, solved, branch_cell[level], _bit_index(low))
            if changed >= 0 and _propagate(words, solved, changed, hidden):
                depth = level + 1
                break
