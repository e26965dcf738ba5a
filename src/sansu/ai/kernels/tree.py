"""The compiled search tree shared by the game kernels: storage, UCT selection, solver backup.

A tree is a handful of flat NumPy arrays indexed by node (see :class:`Tree`),
so a kernel can grow it without allocating and the Python side can read it
afterwards to pick a move and a principal variation. A node's children are
contiguous (``first[node]`` … ``first[node] + count[node] - 1``).

Values are stored from the point of view of the player who made the move
into the node, ``mover[node]``: ``value[node] / visits[node]`` is their mean
reward (win 1, draw ½, loss 0). ``proven[node]`` is what the solver knows
for that player: ``WIN``, ``LOSS`` or ``DRAW`` under best play, or
``UNKNOWN``. Two-player games; a player may make two decisions in a row
(a kernel may split a move into a section choice and a cell choice).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from sansu.ai.kernels.rng import below, seed_state

UNKNOWN, WIN, LOSS, DRAW = 0, 1, 2, 3
NOT_EXPANDED = -1

# Slots of the small int64 ``rng``/bookkeeping array every kernel carries.
RNG = 0
"""``meta[RNG]``: the random state (:mod:`sansu.ai.kernels.rng` draws from slot 0)."""
NODES = 1
"""``meta[NODES]``: how many nodes are in use."""
META_SIZE = 2


class Tree:
    """The arrays of one search tree, allocated once for a budget of nodes."""

    def __init__(self, capacity: int, seed: int) -> None:
        self.capacity = capacity
        # Uninitialised on purpose: a node is written when it is created, and
        # untouched pages of a large tree cost no memory.
        self.move = np.empty(capacity, dtype=np.int16)
        self.first = np.empty(capacity, dtype=np.int32)
        self.count = np.empty(capacity, dtype=np.int16)
        self.visits = np.empty(capacity, dtype=np.int32)
        self.value = np.empty(capacity, dtype=np.float64)
        self.proven = np.empty(capacity, dtype=np.int8)
        self.mover = np.empty(capacity, dtype=np.int8)
        self.share = np.empty(capacity, dtype=np.float32)
        """A policy network's prior of each node among its siblings (when the search has one)."""
        self.meta = np.zeros(META_SIZE, dtype=np.uint64)
        self.meta[RNG] = np.uint64(seed_state(seed))
        self.reset()

    def reset(self, mover: int = 0) -> None:
        """An empty tree holding only the root (node 0), which ``mover`` moved into."""
        self.first[0] = NOT_EXPANDED
        self.count[0] = 0
        self.visits[0] = 0
        self.value[0] = 0.0
        self.proven[0] = UNKNOWN
        self.move[0] = -1
        self.mover[0] = mover
        self.meta[NODES] = 1

    @property
    def nodes(self) -> int:
        return int(self.meta[NODES])

    def children(self, node: int) -> range:
        first = int(self.first[node])
        if first < 0:
            return range(0)
        return range(first, first + int(self.count[node]))

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (
            self.first,
            self.count,
            self.move,
            self.visits,
            self.value,
            self.proven,
            self.mover,
            self.meta,
        )


@njit(cache=True)
def add_children(first, count, move, visits, value, proven, mover, meta, node, moves, n, player):
    """Give ``node`` the children ``moves[:n]`` of ``player``, in random order.

    False if the tree is full.
    """
    start = np.int64(meta[1])
    if start + n > first.shape[0]:
        return False
    for i in range(n - 1, 0, -1):
        j = below(meta, i + 1)
        moves[i], moves[j] = moves[j], moves[i]
    for i in range(n):
        c = start + i
        move[c] = moves[i]
        first[c] = NOT_EXPANDED
        count[c] = 0
        visits[c] = 0
        value[c] = 0.0
        proven[c] = UNKNOWN
        mover[c] = player
    first[node] = start
    count[node] = n
    meta[1] = np.uint64(start + n)
    return True


INV_SQRT = 1.0 / np.sqrt(np.maximum(np.arange(1 << 16, dtype=np.float64), 1.0))
"""``INV_SQRT[v]``: 1/√v for the visit counts met most, to spare a division and a root."""


@njit(cache=True)
def select_child(first, count, visits, value, proven, node, c_uct):
    """The UCT choice among ``node``'s children, skipping those the solver has lost."""
    start = first[node]
    n = count[node]
    explore = c_uct * math.sqrt(math.log(max(visits[node], 1)))
    best = -1
    best_score = -1.0e300
    for i in range(start, start + n):
        p = proven[i]
        if p == WIN:
            return i
        if p == LOSS:
            continue
        v = visits[i]
        if v == 0:
            return i
        inv = INV_SQRT[v] if v < 65536 else 1.0 / math.sqrt(v)
        score = (value[i] * inv + explore) * inv
        if score > best_score:
            best_score = score
            best = i
    if best < 0:
        best = start
    return best


@njit(cache=True)
def select_prior(first, count, visits, value, proven, mover, share, node, c_uct, c_prior, fpu):
    """PUCT's choice among ``node``'s children, each with its prior ``share``.

    A child's score is its mean reward plus ``c_prior · share · √N / (1 + n)``
    plus UCT's exploration; an unvisited child's mean is taken to be the
    parent's, less ``fpu`` (first-play urgency), so a child the policy thinks
    little of may never be tried.
    """
    start = first[node]
    n = count[node]
    total = visits[node]
    root_n = math.sqrt(max(total, 1))
    explore = c_uct * math.sqrt(math.log(max(total, 1)))
    if total > 0:
        q = value[node] / total
        # Children are the other player's choice, except after a section choice.
        unvisited = (q if mover[start] == mover[node] else 1.0 - q) - fpu
    else:
        unvisited = 0.5 - fpu
    best = -1
    best_score = -1.0e300
    for i in range(start, start + n):
        p = proven[i]
        if p == WIN:
            return i
        if p == LOSS:
            continue
        v = visits[i]
        if v == 0:
            score = unvisited + c_prior * share[i] * root_n
        else:
            inv = INV_SQRT[v] if v < 65536 else 1.0 / math.sqrt(v)
            score = value[i] / v + explore * inv + c_prior * share[i] * root_n / (1 + v)
        if score > best_score:
            best_score = score
            best = i
    if best < 0:
        best = start
    return best


@njit(cache=True)
def settle(first, count, proven, mover, parent, child):
    """Update the solver's knowledge of ``parent`` after ``child`` has been proven."""
    if proven[parent] != UNKNOWN:
        return
    # The children's mover is the player to move at ``parent``; ``parent``'s own
    # mover is that player again after a section choice, else the opponent.
    same = mover[parent] == mover[child]
    if proven[child] == WIN:
        proven[parent] = WIN if same else LOSS
        return
    start = first[parent]
    draw = False
    for i in range(start, start + count[parent]):
        p = proven[i]
        if p == UNKNOWN:
            return
        if p == WIN:
            proven[parent] = WIN if same else LOSS
            return
        if p == DRAW:
            draw = True
    if draw:
        proven[parent] = DRAW
    else:
        proven[parent] = LOSS if same else WIN


@njit(cache=True)
def backup(first, count, visits, value, proven, mover, path, depth, winner, me, draw):
    """Add one simulation's result to every node on ``path[:depth]``, settling proofs upwards.

    ``winner`` is 0, 1, or 2 for a draw. A draw is worth ``draw`` to player
    ``me`` (the searching player) and ``1 - draw`` to the other: below ½ the
    search prefers chances to win over a safe draw.
    """
    for k in range(depth - 1, -1, -1):
        node = path[k]
        visits[node] += 1
        if winner == 2:
            value[node] += draw if mover[node] == me else 1.0 - draw
        elif winner == mover[node]:
            value[node] += 1.0
        if k > 0 and proven[node] != UNKNOWN:
            settle(first, count, proven, mover, path[k - 1], node)


@njit(cache=True)
def proven_winner(proven_code, mover):
    """The result (0, 1, or 2 for a draw) that a proof for ``mover`` stands for."""
    if proven_code == WIN:
        return mover
    if proven_code == LOSS:
        return 1 - mover
    return 2


@njit(cache=True)
def backup_reward(first, count, visits, value, proven, mover, path, depth, reward0):
    """Like :func:`backup`, for a leaf valued ``reward0`` (player 0's expected reward in [0, 1])
    rather than a finished playout: a network's value, or one mixed with a playout's."""
    for k in range(depth - 1, -1, -1):
        node = path[k]
        visits[node] += 1
        value[node] += reward0 if mover[node] == 0 else 1.0 - reward0
        if k > 0 and proven[node] != UNKNOWN:
            settle(first, count, proven, mover, path[k - 1], node)


@njit(cache=True)
def leaf_value(visits, value, mover, node, reward0, mix, weight):
    """Record a network's value ``reward0`` (player 0's expected reward) of the new leaf
    ``node``; the share of it to back up.

    The value counts as ``weight`` visits of the leaf alone: a head start (or
    handicap) among its siblings that fades as real visits come (MoGo's *prior
    knowledge*), while its ancestors learn only from what is backed up. The
    share backed up is ``mix`` times the value (−1 when ``mix`` is 0: then only a
    playout's result is).
    """
    if weight > 0:
        visits[node] += weight
        value[node] += weight * (reward0 if mover[node] == 0 else 1.0 - reward0)
    return mix * reward0 if mix > 0.0 else -1.0


@njit(cache=True)
def reward_of(winner):
    """Player 0's reward for a result (0, 1, or 2 for a draw)."""
    if winner == 0:
        return 1.0
    if winner == 1:
        return 0.0
    return 0.5
