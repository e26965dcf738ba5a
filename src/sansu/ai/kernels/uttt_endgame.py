"""Ultimate Tic-Tac-Toe's exact endgame: alpha-beta over the kernel's bitboards.

Near the end of a game few cells are left in the open sections, and the
position can be solved outright rather than sampled: negamax with
alpha-beta, a transposition table and a node budget. A score is exact and
prefers the fastest win and the slowest loss: a win ``d`` plies from the
position solved scores ``WIN - d``, a loss ``d`` plies away ``d - WIN``, a
draw 0 (a full board, or every section closed with no line of sections).

The position is :mod:`sansu.ai.kernels.uttt`'s array, played with its
``play``; its rules are tested against the engine's, and this solver's
values against plain minimax over the engine (``tests/ai/test_endgame.py``).

The table's key is a Zobrist hash of the marks and the section the mover is
sent to (``FREE`` when that section is closed): the marks decide the won and
closed sections, the result and (by their count) the mover. An entry holds
a bound or an exact score relative to its position, valid in any later
search, so the table is kept from one move to the next. A search that runs
out of nodes stores nothing it has not finished and says so.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.ai.kernels.sectioned import DRAWN, MAX_MOVES, ONGOING
from sansu.ai.kernels.uttt import (
    CLOSED,
    FREE,
    MARKS0,
    MARKS1,
    RESULT,
    SIZE,
    TARGET,
    TO_MOVE,
    gives_win,
    legal,
    play,
    prior,
    threats,
    winning_move,
)
from sansu.core.sections import FULL

WIN = 1000
"""A win ``d`` plies away scores ``WIN - d``."""
DECIDED = WIN - 200
"""Scores beyond ±``DECIDED`` are wins or losses (no game has 200 plies)."""
MAX_PLY = MAX_MOVES + 2
EXACT, LOWER, UPPER = 1, 2, 3
NODES, BUDGET, ABORTED = 0, 1, 2
"""Slots of a solve's ``counters``: nodes searched, the most allowed, whether it ran out."""
TABLE_BITS = 20
"""A table of 2²⁰ entries (12 MB) holds every position of a solve of the sizes used."""

ZOBRIST = (
    np.random.default_rng(20261128)
    .integers(1, 1 << 63, size=2 * MAX_MOVES + 10, dtype=np.int64)
    .astype(np.uint64)
)
"""Random keys: one per player and cell (``81 * player + code``), one per section sent to
(``162 + section``, ``162 + 9`` for a free move)."""


class Table:
    """A transposition table: its arrays, allocated once and kept across searches."""

    def __init__(self, bits: int = TABLE_BITS) -> None:
        size = 1 << bits
        self.keys = np.zeros(size, dtype=np.uint64)
        self.scores = np.zeros(size, dtype=np.int16)
        self.flags = np.zeros(size, dtype=np.int8)
        self.moves = np.full(size, -1, dtype=np.int8)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (self.keys, self.scores, self.flags, self.moves)


@njit(cache=True)
def open_empty(st):
    """How many empty cells the open sections of ``st`` have: the size of its endgame."""
    closed = st[CLOSED]
    n = 0
    for s in range(9):
        if not closed >> s & 1:
            empty = FULL & ~(st[MARKS0 + s] | st[MARKS1 + s])
            while empty:
                n += 1
                empty &= empty - 1
    return n


@njit(cache=True)
def marks_hash(st):
    """The Zobrist hash of the marks of ``st`` (updated move by move during a search)."""
    h = np.uint64(0)
    for player in range(2):
        for s in range(9):
            marks = st[9 * player + s]
            for p in range(9):
                if marks >> p & 1:
                    h ^= ZOBRIST[81 * player + 9 * s + p]
    return h


@njit(cache=True)
def key_of(st, marks):
    """The table key of ``st`` whose marks hash to ``marks``."""
    t = st[TARGET]
    if t == FREE or st[CLOSED] >> t & 1:
        t = 9
    return marks ^ ZOBRIST[2 * MAX_MOVES + t]


@njit(cache=True)
def to_table(score, ply):
    """``score`` (from the root of the solve) as stored: relative to the position at ``ply``."""
    if score > DECIDED:
        return score + ply
    if score < -DECIDED:
        return score - ply
    return score


@njit(cache=True)
def from_table(stored, ply):
    """A stored score as seen from the root of the solve, for the position at ``ply``."""
    if stored > DECIDED:
        return stored - ply
    if stored < -DECIDED:
        return stored + ply
    return stored


@njit(cache=True)
def order(st, moves, n, ranks, first):
    """Sort ``moves[:n]`` best first: the table's move ``first``, then by the kernel's prior
    (winning a section, blocking one; not sending the opponent to a free move)."""
    for i in range(n):
        ranks[i] = 1.0e9 if moves[i] == first else prior(st, moves[i])
    for i in range(1, n):
        m = moves[i]
        r = ranks[i]
        j = i - 1
        while j >= 0 and ranks[j] < r:
            moves[j + 1] = moves[j]
            ranks[j + 1] = ranks[j]
            j -= 1
        moves[j + 1] = m
        ranks[j + 1] = r


@njit(cache=True)
def negamax(stack, moves, ranks, ply, marks, alpha, beta, table, counters):
    """The score of ``stack[ply]`` (ongoing) for its mover, exact if it lies strictly between
    ``alpha`` and ``beta``, else a bound on the side it fell (fail-hard). 0 with
    ``counters[ABORTED]`` set when the node budget ran out."""
    keys, scores, flags, best_moves = table
    counters[NODES] += 1
    if counters[NODES] > counters[BUDGET]:
        counters[ABORTED] = 1
        return 0
    st = stack[ply]
    player = st[TO_MOVE]
    if winning_move(st, player) >= 0:
        return WIN - ply - 1
    # Without a win in one, the best is a win in three, the worst a loss in two.
    alpha = max(alpha, ply + 2 - WIN)
    beta = min(beta, WIN - ply - 3)
    if alpha >= beta:
        return alpha
    key = key_of(st, marks)
    slot = np.int64(key & np.uint64(keys.shape[0] - 1))
    first = -1
    if keys[slot] == key:
        stored = from_table(np.int64(scores[slot]), ply)
        flag = flags[slot]
        if flag == EXACT:
            return stored
        if flag == LOWER:
            alpha = max(alpha, stored)
        else:
            beta = min(beta, stored)
        if alpha >= beta:
            return stored
        first = best_moves[slot]
    mine = moves[ply]
    n = legal(st, mine)
    order(st, mine, n, ranks[ply], first)
    danger = threats(st, 1 - player)
    start = alpha
    best = -WIN
    best_move = mine[0]
    child = stack[ply + 1]
    for i in range(n):
        m = mine[i]
        child[:] = st
        play(child, m)
        if child[RESULT] == DRAWN:
            score = 0
        elif child[RESULT] != ONGOING:
            score = WIN - ply - 1 if child[RESULT] == player else ply + 1 - WIN
        elif danger and gives_win(st, m, danger, 1 - player):
            score = ply + 2 - WIN
        else:
            h = marks ^ ZOBRIST[81 * player + m]
            score = -negamax(stack, moves, ranks, ply + 1, h, -beta, -alpha, table, counters)
            if counters[ABORTED]:
                return 0
        if score > best:
            best = score
            best_move = m
        if score > alpha:
            alpha = score
            if alpha >= beta:
                break
    keys[slot] = key
    scores[slot] = to_table(best, ply)
    flags[slot] = UPPER if best <= start else (LOWER if best >= beta else EXACT)
    best_moves[slot] = best_move
    return best


@njit(cache=True)
def child_score(stack, moves, ranks, ply, marks, alpha, beta, table, counters, danger, m):
    """The score of move ``m`` at ``stack[ply]`` for its mover (bounded as :func:`negamax`):
    a finished game, a move that lets the opponent win at once, or a search one ply on."""
    st = stack[ply]
    player = st[TO_MOVE]
    child = stack[ply + 1]
    child[:] = st
    play(child, m)
    if child[RESULT] == DRAWN:
        return 0
    if child[RESULT] != ONGOING:
        return WIN - ply - 1 if child[RESULT] == player else ply + 1 - WIN
    if danger and gives_win(st, m, danger, 1 - player):
        return ply + 2 - WIN
    h = marks ^ ZOBRIST[81 * player + m]
    return -negamax(stack, moves, ranks, ply + 1, h, -beta, -alpha, table, counters)


@njit(cache=True)
def solve(root, budget, keys, scores, flags, best_moves, out, values):
    """Solve the ongoing position ``root`` within ``budget`` nodes.

    Writes its legal moves into ``out``, the best first, and in ``values`` what each is
    known to be worth: exact for the best; for the others, when the root is a draw, 0
    for a move that draws too and below 0 for one that loses (when it is won or lost,
    an upper bound). Returns ``(moves, score, nodes)``; ``moves`` is −1 if the budget ran
    out before the root was solved (then ``out`` and ``values`` mean nothing).
    """
    stack = np.empty((MAX_PLY, SIZE), dtype=np.int64)
    moves = np.empty((MAX_PLY, MAX_MOVES), dtype=np.int16)
    ranks = np.empty((MAX_PLY, MAX_MOVES), dtype=np.float64)
    counters = np.zeros(3, dtype=np.int64)
    counters[BUDGET] = budget
    table = (keys, scores, flags, best_moves)
    stack[0] = root
    marks = marks_hash(root)
    player = root[TO_MOVE]
    n = legal(root, out)
    key = key_of(root, marks)
    slot = np.int64(key & np.uint64(keys.shape[0] - 1))
    order(root, out, n, ranks[0], best_moves[slot] if keys[slot] == key else -1)
    won = winning_move(root, player)
    danger = threats(root, 1 - player)
    alpha = -WIN
    best = 0
    for i in range(n):
        if won >= 0:
            values[i] = WIN - 1 if out[i] == won else -WIN
            if out[i] == won:
                best = i
            continue
        values[i] = child_score(
            stack, moves, ranks, 0, marks, alpha, WIN, table, counters, danger, out[i]
        )
        if counters[ABORTED]:
            return -1, 0, counters[NODES]
        if values[i] > alpha:
            alpha = values[i]
            best = i
    out[0], out[best] = out[best], out[0]
    values[0], values[best] = values[best], values[0]
    for i in range(1, n):
        # At a drawn root, a null window about 0 tells the drawing moves from the losing.
        if values[0] == 0 and values[i] == 0:
            v = child_score(stack, moves, ranks, 0, marks, -1, 1, table, counters, danger, out[i])
            if counters[ABORTED]:
                return -1, 0, counters[NODES]
            values[i] = 0 if v >= 0 else v
    return n, values[0], counters[NODES]
