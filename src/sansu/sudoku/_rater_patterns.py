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
    CELL_UNITS,
    COUNT,
    PEERS_,
    SEES,
    UNITS_,
    clear_seen,
    next_combination,
    place,
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
