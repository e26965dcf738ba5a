"""The fast path of the search: classic rules only, on the bit boards of :mod:`sansu.sudoku._bands`.

After propagation the search branches on a digit's configuration in a
chute (a band of three rows or a stack of three columns), not on a cell:
it takes the chute whose digits have the fewest configurations left in
all, and in it the undecided digit with the fewest. One configuration
decides the digit's row (or column) in all three boxes of the chute at
once, so a branch settles more than a cell guess would, and the triad rule
makes the most of it. When every digit has a single configuration in every
chute, each box knows the row and the column of each digit: the grid is
solved, so the search never needs to guess a cell.

The general kernel (:mod:`sansu.sudoku._kernel`) gives the same answers for
every rule set; this one exists because the computer players, the generator
and the analysis ask classic questions most, and ask them very often.
:func:`search_many` answers a whole batch in one call.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.sudoku._bands import (
    CONFIG_COUNT,
    CONFIGS,
    FULL,
    PERMUTATION_SEGMENTS,
    ROW,
    bit_index,
    column_segments,
    keep_segments,
    place,
    propagate,
    segments,
)
from sansu.sudoku.grid import SIZE

DEPTH = SIZE + 1
"""Enough levels for any search: every branch settles at least one more cell."""
WORDS = 30
"""A search state: 27 digit-band words, then the solved cells of each band."""
ALL_DIRTY = 0x1FF


@njit(cache=True, error_model="numpy")
def _choose(words, cols):
    """The branch: ``16 * chute + digit``, chutes 0-2 the bands and 3-5 the stacks.

    The chute with the fewest configurations over its digits, and in it the
    digit with the fewest (of those with two or more). -1 when every digit
    has one configuration in every chute. ``cols`` is int64[27] work space.
    """
    best_total = 1 << 30
    best_n = 10
    choice = -1
    for chute in range(6):
        total = 0
        low_n = 10
        low_d = -1
        for d in range(9):
            if chute < 3:
                n = CONFIG_COUNT[CONFIGS[segments(words[3 * d + chute])]]
            else:
                sh = 3 * (chute - 3)
                v = (
                    (cols[3 * d] >> sh & 7)
                    | (cols[3 * d + 1] >> sh & 7) << 3
                    | (cols[3 * d + 2] >> sh & 7) << 6
                )
                n = CONFIG_COUNT[CONFIGS[v]]
            total += n
            if 1 < n < low_n:
                low_n = n
                low_d = d
        if chute == 2:  # the stacks read the column sets of every band
            for u in range(27):
                g = words[u]
                cols[u] = (g | g >> 9 | g >> 18) & ROW
        if low_d >= 0 and (total < best_total or (total == best_total and low_n < best_n)):
            best_total = total
            best_n = low_n
            choice = 16 * chute + low_d
    return choice


@njit(cache=True, error_model="numpy")
def _configs(words, chute, d):
    """The configurations (6 bits) digit ``d`` may still take in ``chute``."""
    if chute < 3:
        return CONFIGS[segments(words[3 * d + chute])]
    return CONFIGS[column_segments(words, d, chute - 3)]


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
    ``scratch`` (int64[36]) are work space, reused across calls.
    """
    state = stack[0]
    state[:27] = FULL
    state[27:] = 0
    words = state[:27]
    solved = state[27:]
    for c in range(SIZE):
        if givens[c] and place(words, solved, c, np.int64(givens[c]) - 1) < 0:
            return 0
    if not propagate(words, solved, ALL_DIRTY, scratch):
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
            what = _choose(state, scratch)
            branch[depth] = what
            left[depth] = _configs(state, what >> 4, what & 15)
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
            state = stack[level + 1]
            state[:] = stack[level]
            what = branch[level]
            d = what & 15
            keep_segments(state, d, what >> 4, PERMUTATION_SEGMENTS[bit_index(low)])
            if propagate(state[:27], state[27:], 1 << d, scratch):
                depth = level + 1
                break


@njit(cache=True, error_model="numpy")
def _work_space():
    return (
        np.empty((DEPTH, WORDS), dtype=np.int64),
        np.empty(DEPTH, dtype=np.int64),
        np.empty(DEPTH, dtype=np.int64),
        np.empty(36, dtype=np.int64),
    )


@njit(cache=True, error_model="numpy")
def search(givens, limit, out):
    """Count the classic solutions extending ``givens`` (int8[81]) up to ``limit``.

    The first solution found is written to ``out``.
    """
    stack, branch, left, scratch = _work_space()
    return _search(givens, limit, out, stack, branch, left, scratch)


@njit(cache=True, error_model="numpy")
def search_many(givens, limit, out, counts):
    """:func:`search` for each row of ``givens`` (int8[n, 81]), one work space for all.

    ``counts[i]`` gets row ``i``'s count, ``out[i]`` its first solution (rows
    without a solution are left as they were).
    """
    stack, branch, left, scratch = _work_space()
    for i in range(givens.shape[0]):
        counts[i] = _search(givens[i], limit, out[i], stack, branch, left, scratch)
