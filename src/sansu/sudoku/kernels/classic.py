"""The fast path of the search: classic rules only, one bit board per digit and band.

The bit boards and the tables they are read through (one look-up covers
pointing and claiming both ways) are in :mod:`sansu.sudoku.kernels.classic_tables`;
hidden and naked singles are found bit-parallel.

Each *triad* (a segment: three cells of a row or column inside a box) holds
exactly three digits, so a triad that only three digits can reach takes those
three (each leaves the rest of its row and box), and a triad that three digits
are already forced into keeps out every other digit. On the hard benchmark
puzzles that rule saves about a third of the branches.

After propagation the search branches on a digit's configuration in a
chute (a band of three rows or a stack of three columns), not on a cell:
it takes the chute whose undecided digits have the fewest configurations
left in all, and in it the undecided digit with the fewest. One configuration
decides the digit's row (or column) in all three boxes of the chute at
once, so a branch settles more than a cell guess would, and the triad rule
makes the most of it. When every digit has a single configuration in every
chute, each box knows the row and the column of each digit: the grid is
solved, so the search never needs to guess a cell.

The general kernel (:mod:`sansu.sudoku.kernels.general`) gives the same answers
for every rule set; this one exists because the computer players, the
generator and the analysis ask classic questions most, and ask them very
often. :func:`search_many` answers a whole batch in one call. Everything
compiled stays in this one file: numba's on-disk cache would not notice a
change to a function it inlined from another module (nor to the tables, taken
in as constants: ``scripts/setup-env`` then clears the cache).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.sudoku.grid import SIZE
from sansu.sudoku.kernels.classic_tables import (
    ALL_DIGITS,
    ALONE,
    BOX,
    CHOICE,
    COLUMNS,
    CONFIG_COUNT,
    CONFIGS,
    DE_BRUIJN,
    DEPTH,
    EXPAND,
    FORCED,
    FULL,
    KEEP,
    PEER_WORDS,
    PERMUTATION_SEGMENTS,
    RIVALS,
    ROW,
    ROW_BOXES,
    SCRATCH,
    SOLVED,
    TRIES,
    WORDS,
)


@njit(cache=True, error_model="numpy")
def bit_index(bit):
    """The position of the single set bit of a band word (de Bruijn multiplication)."""
    return DE_BRUIJN[((bit * 0x077CB531) & 0xFFFFFFFF) >> 27]


@njit(cache=True, error_model="numpy")
def segments(g):
    """The (row, box) segments of a band word that still hold a candidate: bit 3 * row + box."""
    return ROW_BOXES[g & ROW] | ROW_BOXES[g >> 9 & ROW] << 3 | ROW_BOXES[g >> 18] << 6


@njit(cache=True, error_model="numpy")
def keep_segments(words, d, chute, kept):
    """Keep digit ``d`` in ``chute`` (0-2 bands, 3-5 stacks) to the segments ``kept``."""
    if chute < 3:
        words[3 * d + chute] &= EXPAND[kept]
    else:
        sh = 3 * (chute - 3)
        stack = COLUMNS[7 << sh]
        for b in range(3):
            words[3 * d + b] &= ~stack | COLUMNS[(kept >> 3 * b & 7) << sh]


@njit(cache=True, error_model="numpy", inline="always")
def place(words, cell, digit):
    """Put ``digit`` (0-8) on ``cell``; the digits whose words changed, or -1."""
    band = cell // 27
    pos = cell % 27
    bit = 1 << pos
    if words[3 * digit + band] & bit == 0:
        return -1
    changed = 0
    for d in range(9):  # branch-free: clear the cell from every digit, note who had it
        w = words[3 * d + band]
        changed |= (w >> pos & 1) << d
        words[3 * d + band] = w & ~bit
    for b in range(3):
        words[3 * digit + b] &= ~PEER_WORDS[cell, b]
    words[3 * digit + band] |= bit
    words[SOLVED + band] |= bit
    return changed


@njit(cache=True, error_model="numpy")
def _in_band(f):
    """The word ``f`` without the (row, box) segments that lie on no permutation."""
    return f & EXPAND[KEEP[segments(f)]]


@njit(cache=True, error_model="numpy", inline="always")
def _settle_digit(words, d):
    """Shrink digit ``d``'s words to their fixpoint and place its hidden singles.

    Returns the digits whose words the placements changed, or -1 on a contradiction.
    """
    g0 = _in_band(words[3 * d])
    g1 = _in_band(words[3 * d + 1])
    g2 = _in_band(words[3 * d + 2])
    while True:  # the two shrinks feed each other; each alone is idempotent
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
        f0 = g0 & COLUMNS[a0]
        f1 = g1 & COLUMNS[a1]
        f2 = g2 & COLUMNS[a2]
        if f0 == 0 or f1 == 0 or f2 == 0:
            return -1
        if f0 == g0 and f1 == g1 and f2 == g2:
            break
        # Only a band the columns shrank can lose more to its own rows and boxes.
        g0 = _in_band(f0) if f0 != g0 else f0
        g1 = _in_band(f1) if f1 != g1 else f1
        g2 = _in_band(f2) if f2 != g2 else f2
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
        h0 |= m if m & (m - 1) == 0 else 0
        m = g1 & BOX << s
        h1 |= m if m & (m - 1) == 0 else 0
        m = g2 & BOX << s
        h2 |= m if m & (m - 1) == 0 else 0
    changed = 0
    for b in range(3):
        m = (h0 if b == 0 else h1 if b == 1 else h2) & ~words[SOLVED + b]
        while m:
            low = m & -m
            m ^= low
            if words[SOLVED + b] & low:  # placed meanwhile by this digit's own earlier single
                continue
            ch = place(words, 27 * b + bit_index(low), d)
            if ch < 0:
                return -1
            changed |= ch
    return changed


@njit(cache=True, error_model="numpy")
def _triad_pass(pattern):
    """Exactly three digits in each of the nine triads of a chute; ``pattern[d]`` shrinks in place.

    ``pattern[d]`` holds digit ``d``'s segments (bit 3 * line + box). Returns
    -1 on a contradiction, else the digits whose pattern shrank.
    """
    one = 0
    two = 0
    three = 0
    four = 0
    f_one = 0
    f_two = 0
    f_three = 0
    f_four = 0
    for d in range(9):
        s = pattern[d]
        four |= three & s
        three |= two & s
        two |= one & s
        one |= s
        f = FORCED[s]
        f_four |= f_three & f
        f_three |= f_two & f
        f_two |= f_one & f
        f_one |= f
    if three != 0x1FF or f_four:
        return -1  # a triad that fewer than three digits can reach, or more than three must
    reached_by_three = three & ~four
    if reached_by_three == 0 and f_three == 0:
        return 0
    changed = 0
    for d in range(9):
        s = pattern[d]
        t = s
        m = s & reached_by_three
        if m:
            t &= ~RIVALS[m]
        m = s & f_three & ~FORCED[s]
        if m:
            t &= ~m
        if t != s:
            pattern[d] = t
            changed |= 1 << d
    return changed


@njit(cache=True, error_model="numpy")
def _triads(words, pattern):
    """The triad rule in every band and stack: -1 on a contradiction, else the changed digits.

    ``pattern`` is int64[SCRATCH] work space. When nothing changes, the
    patterns just read also give the branch to take next: the chute whose
    undecided digits have the fewest configurations in all, and in it the
    undecided digit with the fewest.
    ``pattern[CHOICE]`` gets ``16 * chute + digit`` (-1 when every digit
    has one configuration left everywhere), ``pattern[CHOICE + 1]`` that
    digit's configurations. Stacks read column sets taken before the bands'
    changes: a superset of the candidates, so every conclusion still holds.
    """
    changed = 0
    best_total = 1 << 30
    best_n = 10
    choice = -1
    options = 0
    for chute in range(6):
        if chute < 3:
            for d in range(9):
                pattern[d] = segments(words[3 * d + chute])
        else:
            if chute == 3:  # the column sets of every band, read once for the three stacks
                for u in range(27):
                    g = words[u]
                    pattern[9 + u] = (g | g >> 9 | g >> 18) & ROW
            sh = 3 * (chute - 3)
            for d in range(9):
                pattern[d] = (
                    (pattern[9 + 3 * d] >> sh & 7)
                    | (pattern[10 + 3 * d] >> sh & 7) << 3
                    | (pattern[11 + 3 * d] >> sh & 7) << 6
                )
        if changed == 0:
            total = 0
            low_n = 10
            low_d = -1
            for d in range(9):
                n = CONFIG_COUNT[CONFIGS[pattern[d]]]
                if n > 1:  # decided digits do not count
                    total += n
                    if n < low_n:
                        low_n = n
                        low_d = d
            if low_d >= 0 and (total < best_total or (total == best_total and low_n < best_n)):
                best_total = total
                best_n = low_n
                choice = 16 * chute + low_d
                options = CONFIGS[pattern[low_d]]
        ch = _triad_pass(pattern)
        if ch < 0:
            return -1
        changed |= ch
        while ch:
            low = ch & -ch
            ch ^= low
            d = bit_index(low)
            keep_segments(words, d, chute, pattern[d])
    pattern[CHOICE] = choice
    pattern[CHOICE + 1] = options
    return changed


@njit(cache=True, error_model="numpy")
def propagate(words, dirty, scratch):
    """Apply every consequence of the last changes; False on a contradiction.

    ``dirty`` flags the digits whose words changed since they were last
    settled; ``scratch`` is int64[SCRATCH] work space. Each round settles
    the dirty digits one after the other (a digit changed after its turn
    waits for the next round), then places naked singles; the triad rule
    runs only when a round changes nothing. On success ``scratch[CHOICE]``
    and ``scratch[CHOICE + 1]`` hold the branch to take next.
    """
    while True:
        todo = dirty
        while todo:
            low = todo & -todo
            todo ^= low
            dirty &= ~low
            changed = _settle_digit(words, bit_index(low))
            if changed < 0:
                return False
            dirty |= changed
        for b in range(3):
            one = 0
            two = 0
            for d in range(9):
                x = words[3 * d + b]
                two |= one & x
                one |= x
            if one != FULL:
                return False
            naked = one & ~two & ~words[SOLVED + b]
            while naked:
                low = naked & -naked
                naked ^= low
                for d in range(9):
                    if words[3 * d + b] & low:
                        changed = place(words, 27 * b + bit_index(low), d)
                        if changed < 0:
                            return False
                        dirty |= changed
                        break
        if dirty:
            continue
        dirty = _triads(words, scratch)
        if dirty <= 0:
            return dirty == 0


@njit(cache=True, error_model="numpy")
def _read_solution(state, out):
    for c in range(SIZE):
        bit = 1 << (c % 27)
        for d in range(9):
            if state[3 * d + c // 27] & bit:
                out[c] = d + 1
                break


@njit(cache=True, error_model="numpy")
def _search(givens, limit, out, stack, branch, left, scratch):
    """Count the solutions of ``givens`` up to ``limit``, the first written to ``out``.

    ``stack`` (int64[DEPTH, WORDS]), ``branch``, ``left`` (int64[DEPTH]) and
    ``scratch`` (int64[SCRATCH]) are work space, reused across calls.
    """
    state = stack[0]
    state[:27] = FULL
    state[27:] = 0
    for c in range(SIZE):
        if givens[c] and place(state, c, np.int64(givens[c]) - 1) < 0:
            return 0
    if not propagate(state, ALL_DIGITS, scratch):
        return 0

    count = 0
    depth = 0
    while True:
        state = stack[depth]
        if state[27] == FULL and state[28] == FULL and state[29] == FULL:
            if count == 0:
                _read_solution(state, out)
            count += 1
            if count >= limit:
                return count
            level = depth - 1  # a solved grid has no branch of its own
        else:
            branch[depth] = scratch[CHOICE]  # left there by the last propagate
            left[depth] = scratch[CHOICE + 1]
            level = depth
        # Try the next untried configuration of the deepest branch that has one.
        while True:
            if level < 0:
                return count
            options = left[level]
            if options == 0:
                level -= 1
                continue
            low = options & -options
            left[level] = options ^ low
            scratch[TRIES] += 1
            state = stack[level + 1]
            state[:] = stack[level]
            what = branch[level]
            d = what & 15
            keep_segments(state, d, what >> 4, PERMUTATION_SEGMENTS[bit_index(low)])
            if propagate(state, 1 << d, scratch):
                depth = level + 1
                break


@njit(cache=True, error_model="numpy")
def _work_space():
    return (
        np.empty((DEPTH, WORDS), dtype=np.int64),
        np.empty(DEPTH, dtype=np.int64),
        np.empty(DEPTH, dtype=np.int64),
        np.empty(SCRATCH, dtype=np.int64),
    )


@njit(cache=True, error_model="numpy")
def search(givens, limit, out):
    """Count the classic solutions extending ``givens`` (int8[81]) up to ``limit``.

    The first solution found is written to ``out``.
    """
    stack, branch, left, scratch = _work_space()
    return _search(givens, limit, out, stack, branch, left, scratch)


@njit(cache=True, error_model="numpy")
def search_many(givens, limit, out, counts, tries):
    """:func:`search` for each row of ``givens`` (int8[n, 81]), one work space for all.

    ``counts[i]`` gets row ``i``'s count, ``out[i]`` its first solution (rows
    without a solution are left as they were), ``tries[i]`` how many
    configurations the search tried: a measure of its work that no clock
    or load changes.
    """
    stack, branch, left, scratch = _work_space()
    for i in range(givens.shape[0]):
        scratch[TRIES] = 0
        counts[i] = _search(givens[i], limit, out[i], stack, branch, left, scratch)
        tries[i] = scratch[TRIES]
