"""Best-first search on the value network, compiled: no playouts, minimax values backed up.

Each simulation walks down the tree to a node not yet expanded and expands it:
every child is made at once and valued by the network (a terminal child by
the rules). The node's value becomes one minus its best child's, and so on up
to the root: the tree's values are minimax values of the network's leaves,
not means of random games. A child is chosen on the way down by

    ``minimax · value + (1 − minimax) · mean + explore``

where ``mean`` is the average of the values the child has taken, ``explore``
is ``c · √(log₂ N / n)`` (``N`` the parent's simulations, ``n`` the child's)
and ``fpu`` for a child never expanded. This is the search of the strongest
public Ultimate Tic-Tac-Toe bots (an MCTS whose leaves are an NNUE's values);
the game's rules are passed in, so the two sectioned games share it (each
game's kernel compiles it with its own as ``best_first``).

A node's ``value`` is for the player who moved into it, in [0, 1]; a proven
win is :data:`WIN` and a proven loss ``1 − WIN``, so that the minimax over
them stays exact and a proven child dominates its siblings' means.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sansu.ai.kernels.sectioned import DRAWN, MAX_MOVES, ONGOING
from sansu.ai.kernels.valuenet import (
    LOW,
    MAX_ACTIVE,
    MINE,
    THEIRS,
    accumulate,
    accumulator,
    encode_marks,
    encode_part,
    output,
)

WIN = 10_000.0
"""A proven win's value; a proven loss is ``1 − WIN``."""
DEPTH = 100
"""Deeper than any game of the sectioned games (81 cells)."""
VECTOR = {"reassoc", "contract", "arcp", "nsz"}
"""The compiler flags a game's ``best_first`` is built with: the network's sums may be
reordered, so vectorised (the inlined code takes its caller's flags), while infinities
and NaNs keep their meaning for the tree's comparisons."""
ROOTS = 1 << 14
"""Visits below which the way down reads ``1/√n`` and ``1/(n + 1)`` from tables."""
INVERSE_ROOT = np.concatenate(([0.0], 1.0 / np.sqrt(np.arange(1.0, ROOTS))))
INVERSE = np.concatenate(([0.0], 1.0 / np.arange(1.0, ROOTS + 1)))


@njit(inline="always")
def expand(legal, play, slots, node, st, arrays, top, weights, scratch):
    """Make and value every child of ``node`` (the position ``st``); the new top.

    Siblings share most of the network's features, so its first layer is summed as
    NNUE does: over the marks of ``st`` (seen by the player to move in the children)
    and its sections other than the children's once, and for each child only over
    its new mark, its own section, where it sends the opponent and the cells legal
    there: some 12 rows instead of 50. A child that wins a section, or whose move
    changed more than its section, takes the marks' sums and its other features
    afresh. With the search's int16 rows and int32 sums the value is exactly the
    evaluation built from scratch (float32 rows differ by rounding)."""
    won, closed_slot, target_slot, to_move, result = slots
    first, count, move, sims, value, total = arrays
    w1, b1, w2, b2 = weights
    moves, child, cmoves, active, marks, h, base, common = scratch
    n = legal(st, moves)
    first[node] = top
    me = 1 - st[to_move]
    marks[:] = b1
    accumulate(marks, w1, active, 0, encode_marks(st, me, active, 0))
    based = -1  # the section whose children's shared sums ``base`` holds
    others = 0  # there, the other sections where ``me`` could win the game with a mark
    closed = st[closed_slot]
    for i in range(n):
        c = top + i
        move[c] = moves[i]
        child[:] = st
        play(child, moves[i])
        r = child[result]
        if r == ONGOING:
            k = 0
            fresh = child[to_move] != me
            section = -1
            for slot in range(18):  # the marks, 9 bits a section, slots 0-17 in both games
                gained = child[slot] & ~st[slot]
                fresh |= st[slot] & ~child[slot] != 0
                if gained:
                    fresh |= section >= 0 and section != slot % 9
                    section = slot % 9
                while gained:
                    p = LOW[gained]
                    active[k] = (MINE if slot // 9 == me else THEIRS) + 9 * (slot % 9) + p
                    k += 1
                    gained &= gained - 1
            if fresh:  # a mark taken away, or the same player to move: summed afresh
                k = encode_marks(child, child[to_move], active, 0)
                h[:] = b1
            else:
                h[:] = marks
            cn = legal(child, cmoves)
            if (fresh or section < 0 or child[won] != st[won] or child[won + 1] != st[won + 1]
                    or (child[closed_slot] ^ closed) & ~(1 << section)):  # fmt: skip
                k = encode_part(child, won, closed_slot, target_slot, to_move, cmoves, cn,
                                active, k, 511, True, 0)[0]  # fmt: skip
            else:
                if based != section:
                    base[:] = marks
                    # the first child of its section stands for all: elsewhere they are alike
                    kb, others = encode_part(child, won, closed_slot, target_slot, to_move,
                                             cmoves, 0, common, 0, 511 & ~(1 << section),
                                             False, 0)  # fmt: skip
                    accumulate(base, w1, common, 0, kb)
                    based = section
                h[:] = base
                k = encode_part(child, won, closed_slot, target_slot, to_move, cmoves, cn,
                                active, k, 1 << section, True, others)[0]  # fmt: skip
            accumulate(h, w1, active, 0, k)
            v = 0.5 * (1.0 - output(h, w2, b2))  # the player to move's value, for the mover
        elif r == DRAWN:
            v = 0.5
        else:
            v = WIN
        value[c] = v
        total[c] = v
        sims[c] = 0.0
        count[c] = -1
    count[node] = n
    return top + n


@njit(inline="always")
def search(legal, play, slots, root, arrays, top, n, minimax, c, fpu, weights):
    """Up to ``n`` simulations from the position ``root`` (node 0) into the tree
    ``arrays`` (``first, count, move, sims, value, total``) filled up to ``top``;
    the new top. It stops early when the arrays have no room for another expansion
    or the root is proven."""
    first, count, move, sims, value, total = arrays
    st = np.empty_like(root)
    scratch = (
        np.empty(MAX_MOVES, dtype=np.int16), np.empty_like(root),
        np.empty(MAX_MOVES, dtype=np.int16), np.empty(MAX_ACTIVE, dtype=np.int64),
        accumulator(weights[1]), accumulator(weights[1]), accumulator(weights[1]),
        np.empty(MAX_ACTIVE, dtype=np.int64),
    )  # fmt: skip
    result = slots[4]
    path = np.empty(DEPTH, dtype=np.int64)
    room = first.shape[0] - MAX_MOVES
    for _ in range(n):
        if top > room or abs(value[0]) >= WIN / 2:
            break
        st[:] = root
        node = 0
        d = 0
        path[0] = 0
        while sims[node] > 0 and st[result] == ONGOING:
            spread = c * math.sqrt(math.log2(sims[node]))
            best = -1
            score = -math.inf
            f = first[node]
            for ch in range(f, f + count[node]):
                s = sims[ch]
                if s == 0:
                    u = minimax * value[ch] + (1.0 - minimax) * total[ch] + fpu
                elif s < ROOTS:
                    i = int(s)
                    u = (minimax * value[ch] + (1.0 - minimax) * total[ch] * INVERSE[i + 1]
                         + spread * INVERSE_ROOT[i])  # fmt: skip
                else:
                    u = (minimax * value[ch] + (1.0 - minimax) * total[ch] / (s + 1.0)
                         + spread / math.sqrt(s))  # fmt: skip
                if u > score:
                    score = u
                    best = ch
            play(st, move[best])
            d += 1
            path[d] = best
            node = best
        if st[result] != ONGOING:
            was = value[node]
            v = 0.5 if st[result] == DRAWN else WIN
            value[node] = v
            total[node] = v * (sims[node] + 1.0)
            d -= 1
            scan = False
        else:
            top = expand(legal, play, slots, node, st, arrays, top, weights, scratch)
            was = 0.0
            scan = True  # every child is new: the node's best is looked for afresh
        for j in range(d, -1, -1):
            p = path[j]
            old = value[p]
            if not scan:
                # Only the child on the path changed, from ``was`` to ``now``: the
                # node's value 1 − (its best child's) moves only if that child passes
                # the best or was the best and fell. Compared as the stored 1 − x,
                # which falls as x grows, so the value is the one a scan would give.
                now = np.float32(1.0 - value[path[j + 1]])
                if now < old:
                    value[p] = now
                elif now > old:
                    scan = np.float32(1.0 - was) <= old
            if scan:
                best_child = -math.inf
                f = first[p]
                for ch in range(f, f + count[p]):
                    best_child = max(best_child, value[ch])
                value[p] = 1.0 - best_child
                scan = False
            was = old
            total[p] += value[p]
            sims[p] += 1.0
    return top


@njit(cache=True)
def compact(g, arrays, into, queue):
    """Copy the subtree under node ``g`` of ``arrays`` into ``into``, ``g`` as node 0
    and each node's children still side by side; the copy's top."""
    first, count, move, sims, value, total = arrays
    first2, count2, move2, sims2, value2, total2 = into
    queue[0] = g
    move2[0] = move[g]
    sims2[0] = sims[g]
    value2[0] = value[g]
    total2[0] = total[g]
    count2[0] = count[g]
    head = 0
    top = 1
    while head < top:
        src = queue[head]
        n = count[src]
        if n > 0:
            first2[head] = top
            f = first[src]
            for i in range(n):
                a = f + i
                b = top + i
                move2[b] = move[a]
                sims2[b] = sims[a]
                value2[b] = value[a]
                total2[b] = total[a]
                count2[b] = count[a]
                queue[b] = a
            top += n
        head += 1
    return top
