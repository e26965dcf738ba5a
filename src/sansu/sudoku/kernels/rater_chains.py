"""The rater's compiled single-digit patterns: turbot fish, simple colouring, empty rectangle.

Twins of :mod:`sansu.sudoku.logic.chains`: the same scan order (and the
same breadth-first search), so the same first deduction. Each returns 1
when it changed the candidates, 0 when it found nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.sudoku.kernels.rater_tables import (
    PEERS_,
    SEES,
    UNITS_,
)


@njit(cache=True)
def _strong_links(cands, bit, strong, nstrong):
    """``strong[c, :nstrong[c]]``: the cells joined to ``c`` by a strong link on ``bit``,
    in the order of the first unit that joins them (as the Python dict keeps them)."""
    nstrong[:] = 0
    for u in range(27):
        k, a, b = 0, -1, -1
        for c in UNITS_[u]:
            if cands[c] & bit:
                if k == 0:
                    a = c
                else:
                    b = c
                k += 1
        if k != 2:
            continue
        for x, y in ((a, b), (b, a)):
            known = False
            for i in range(nstrong[x]):
                if strong[x, i] == y:
                    known = True
            if not known:
                strong[x, nstrong[x]] = y
                nstrong[x] += 1


@njit(cache=True)
def _turbot_victims(cands, bit, path, clear):
    """How many cells outside ``path`` see both its ends and hold ``bit`` (cleared if asked)."""
    victims = 0
    for v in range(81):
        seen = cands[v] & bit and SEES[v, path[0]] and SEES[v, path[3]]
        if seen and v != path[1] and v != path[2]:
            victims += 1
            if clear:
                cands[v] &= ~bit
    return victims


@njit(cache=True)
def turbot_fish(cands):
    """Three links (strong, weak, strong) on one digit: the most victims, the first found."""
    strong = np.empty((81, 27), dtype=np.int64)
    nstrong = np.zeros(81, dtype=np.int64)
    depth = np.empty(162, dtype=np.int64)  # node = 2 * cell + on
    parent = np.empty(162, dtype=np.int64)
    queue = np.empty(162, dtype=np.int64)
    path = np.empty(4, dtype=np.int64)
    best = np.empty(4, dtype=np.int64)
    for digit in range(1, 10):
        bit = 1 << (digit - 1)
        _strong_links(cands, bit, strong, nstrong)
        most = 0
        for start in range(81):
            if not cands[start] & bit or nstrong[start] == 0:
                continue
            depth[:] = -1
            depth[2 * start] = 0
            queue[0], head, tail = 2 * start, 0, 1
            while head < tail:
                node = queue[head]
                head += 1
                cell, on = node // 2, node % 2
                links = depth[node] + 1
                if links > 3:
                    break
                count = 20 if on else nstrong[cell]
                for k in range(count):
                    other = PEERS_[cell, k] if on else strong[cell, k]
                    if on and not cands[other] & bit:
                        continue
                    nxt = 2 * other + 1 - on
                    if depth[nxt] >= 0:
                        continue
                    depth[nxt], parent[nxt] = links, node
                    queue[tail] = nxt
                    tail += 1
                    if on or links < 3 or other == start:
                        continue
                    back = nxt
                    for i in range(4):
                        path[3 - i] = back // 2
                        back = parent[back] if i < 3 else back
                    unique = True
                    for i in range(4):
                        for j in range(i + 1, 4):
                            if path[i] == path[j]:
                                unique = False
                    if not unique:
                        continue
                    victims = _turbot_victims(cands, bit, path, False)
                    if victims > most:
                        most = victims
                        best[:] = path
        if most:
            _turbot_victims(cands, bit, best, True)
            return 1
    return 0


@njit(cache=True)
def simple_colouring(cands):
    strong = np.empty((81, 27), dtype=np.int64)
    nstrong = np.zeros(81, dtype=np.int64)
    side = np.empty(81, dtype=np.int64)
    done = np.zeros(81, dtype=np.bool_)
    queue = np.empty(81, dtype=np.int64)
    for digit in range(1, 10):
        bit = 1 << (digit - 1)
        _strong_links(cands, bit, strong, nstrong)
        done[:] = False
        for start in range(81):
            if not cands[start] & bit or done[start] or nstrong[start] == 0:
                continue
            side[:] = -1
            side[start] = 0
            queue[0], head, tail = start, 0, 1
            while head < tail:
                cell = queue[head]
                head += 1
                for k in range(nstrong[cell]):
                    other = strong[cell, k]
                    if side[other] < 0:
                        side[other] = 1 - side[cell]
                        queue[tail] = other
                        tail += 1
            for c in range(81):
                if side[c] >= 0:
                    done[c] = True
            for colour in range(2):
                wrap = False
                for a in range(81):
                    if side[a] == colour:
                        for b in range(81):
                            if side[b] == colour and SEES[a, b]:
                                wrap = True
                if wrap:
                    for a in range(81):
                        if side[a] == colour:
                            cands[a] &= ~bit
                    return 1
            hit = 0
            for v in range(81):
                if not cands[v] & bit or side[v] >= 0:
                    continue
                sees0 = sees1 = False
                for c in range(81):
                    if side[c] >= 0 and SEES[v, c]:
                        if side[c] == 0:
                            sees0 = True
                        else:
                            sees1 = True
                if sees0 and sees1:
                    cands[v] &= ~bit
                    hit = 1
            if hit:
                return 1
    return 0


@njit(cache=True)
def _empty_rectangle_link(cands, bit, r, k):
    """The cell an empty rectangle with corner ``(r, k)`` clears, or -1."""
    for col in range(9):
        if col // 3 == k // 3:
            continue
        n, near, far = 0, False, -1
        for i in range(9):
            c = 9 * i + col
            if cands[c] & bit:
                n += 1
                if i == r:
                    near = True
                else:
                    far = c
        if n != 2 or not near:
            continue
        x = far // 9
        if x // 3 != r // 3 and cands[9 * x + k] & bit:
            return 9 * x + k
    for row in range(9):
        if row // 3 == r // 3:
            continue
        n, near, far = 0, False, -1
        for j in range(9):
            c = 9 * row + j
            if cands[c] & bit:
                n += 1
                if j == k:
                    near = True
                else:
                    far = c
        if n != 2 or not near:
            continue
        y = far % 9
        if y // 3 != k // 3 and cands[9 * r + y] & bit:
            return 9 * r + y
    return -1


@njit(cache=True)
def empty_rectangle(cands):
    for digit in range(1, 10):
        bit = 1 << (digit - 1)
        for b in range(9):
            n = 0
            for c in UNITS_[18 + b]:
                if cands[c] & bit:
                    n += 1
            if n < 2:
                continue
            for r in range(b // 3 * 3, b // 3 * 3 + 3):
                for k in range(b % 3 * 3, b % 3 * 3 + 3):
                    cross, one_row, one_col = True, True, True
                    for c in UNITS_[18 + b]:
                        if cands[c] & bit:
                            if c // 9 != r and c % 9 != k:
                                cross = False
                            if c // 9 != r:
                                one_row = False
                            if c % 9 != k:
                                one_col = False
                    if not cross or one_row or one_col:
                        continue
                    victim = _empty_rectangle_link(cands, bit, r, k)
                    if victim >= 0:
                        cands[victim] &= ~bit
                        return 1
    return 0
