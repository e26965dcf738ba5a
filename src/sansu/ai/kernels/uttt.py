"""Ultimate Tic-Tac-Toe compiled: bitboard rules, random playouts and the whole UCT search.

The position is a small int64 array (layout below): each player's marks as
one 9-bit field per section, the won and closed sections as 9-bit masks,
the section the mover is sent to, the mover and the result. A move is
``9 * section + position`` (the bit numbering of :mod:`sansu.core.sections`).

The rules here repeat those of :mod:`sansu.games.uttt` for speed; the tests
play many random games through both and require the same legal moves and
results at every step. The 3×3 line tables come from
:mod:`sansu.core.sections`, the one source of the geometry.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from sansu.ai.kernels import bestfirst, sectioned
from sansu.ai.kernels.rng import below
from sansu.ai.kernels.sectioned import DRAWN, MAX_MOVES, ONGOING, PLAYOUT_WINS
from sansu.ai.kernels.sectioned import GROUP as GROUP  # re-exported: callers name them per game
from sansu.ai.kernels.sectioned import PLAYOUT_UNIFORM as PLAYOUT_UNIFORM
from sansu.ai.kernels.sectioned import PRIOR as PRIOR
from sansu.ai.kernels.valuenet import COMPLETING, LOW, encode, forward, reward_for
from sansu.core.sections import CELL_OF_BIT, FULL, HAS_LINE, PLACES

MARKS0, MARKS1, WON, CLOSED, TARGET, TO_MOVE, RESULT = 0, 9, 18, 20, 21, 22, 23
SIZE = 24
KEY_SLOTS = 18
"""The marks (the first slots) and the legal moves tell two positions apart."""
FREE = -1

LINE = np.array(HAS_LINE, dtype=np.int8)
POP = np.array([bin(m).count("1") for m in range(512)], dtype=np.int64)
NTH = np.array(
    [[p for p in range(9) if m >> p & 1][k] if k < bin(m).count("1") else -1
     for m in range(512) for k in range(16)],
    dtype=np.int8,
)  # fmt: skip
"""``NTH[16 * mask + k]``: the position of the ``k``-th set bit of a 9-bit ``mask`` (from 0),
so that a playout picks a random empty cell by one look-up instead of a loop."""
WINNING = COMPLETING
"""``WINNING[mine]``: the positions that would complete a line of ``mine``."""
NEAR = WINNING
"""``NEAR[won]``: the sections whose winning would complete a line of sections ``won``
(the same table as for cells: both are 3×3 grids)."""

PLAYOUT_SAFE = 2
PLAYOUT_SECTIONS = 3
"""Playout policies besides the two of both games (:mod:`~sansu.ai.kernels.sectioned`):
also avoid (by a few redraws) moves that let the opponent win at once; or, instead,
half the time take a move that wins the section played in."""
GREEDY = 32
"""Added to a search's policy: playouts of any kind also take, half the time, a move that
wins the section played in (what policy 3 does alone)."""
COUNTED = 16
"""Added to a search's policy: playouts draw free moves the slower way they did at first
(see :func:`random_move`), which keeps the benchmark player ``max0`` as it was."""
PRIOR_WIN_SECTION = 0.5
PRIOR_BLOCK = 0.5
PRIOR_FREE_MOVE = -1.0
PRIOR_SEND_TO_WIN = -1.0


def move_of(game: object, code: int) -> Any:
    """The engine move of a kernel move code (``9 * section + position``)."""
    return PLACES[CELL_OF_BIT[code]]


def code_of(game: object, move: object) -> int | None:
    """The kernel code of an engine move (``None`` for anything else)."""
    return getattr(move, "bit", None)


def from_state(state) -> np.ndarray:
    """The kernel array of an engine state, read through its public methods."""
    from sansu.core.sections import PLACES

    st = np.zeros(SIZE, dtype=np.int64)
    for place in PLACES:
        owner = state.mark_at(place.cell)
        if owner is not None:
            st[9 * owner + place.section] |= 1 << place.position
    for s in range(9):
        owner = state.section_owner(s)
        if owner is not None:
            st[WON + owner] |= 1 << s
        if state.is_closed(s):
            st[CLOSED] |= 1 << s
    allowed = state.allowed_sections()
    st[TARGET] = allowed[0] if len(allowed) == 1 else FREE
    if state.result is None:
        st[TO_MOVE] = state.to_move
        st[RESULT] = ONGOING
    else:
        st[TO_MOVE] = 0
        st[RESULT] = DRAWN if state.result.draw else state.result.winners[0]
    return st


@njit(cache=True)
def legal(st, out):
    """Write the legal moves into ``out``; their number."""
    if st[RESULT] != ONGOING:
        return 0
    t = st[TARGET]
    closed = st[CLOSED]
    n = 0
    for s in range(9):
        if closed >> s & 1 or (t != FREE and s != t and not closed >> t & 1):
            continue
        empty = FULL & ~(st[MARKS0 + s] | st[MARKS1 + s])
        while empty:
            p = LOW[empty]
            out[n] = 9 * s + p
            n += 1
            empty &= empty - 1
    return n


@njit(cache=True)
def play(st, move):
    """Play ``move`` (assumed legal) on ``st`` in place."""
    s = move // 9
    p = move % 9
    player = st[TO_MOVE]
    slot = 9 * player + s
    st[slot] |= 1 << p
    if LINE[st[slot]]:
        st[CLOSED] |= 1 << s
        st[WON + player] |= 1 << s
        if LINE[st[WON + player]]:
            st[RESULT] = player
            return
    elif st[MARKS0 + s] | st[MARKS1 + s] == FULL:
        st[CLOSED] |= 1 << s
    if st[CLOSED] == FULL:
        st[RESULT] = DRAWN
        return
    st[TARGET] = p
    st[TO_MOVE] = 1 - player


@njit(cache=True)
def random_move(st, meta):
    """A uniformly random legal move.

    The k-th empty cell is one table look-up (:data:`NTH`); a free move draws
    cells until one is empty in an open section.
    """
    closed = st[CLOSED]
    t = st[TARGET]
    if t != FREE and not closed >> t & 1:
        empty = FULL & ~(st[MARKS0 + t] | st[MARKS1 + t])
        return 9 * t + NTH[16 * empty + below(meta, POP[empty])]
    while True:
        code = below(meta, MAX_MOVES)
        s = code // 9
        if not (closed >> s & 1 or (st[MARKS0 + s] | st[MARKS1 + s]) >> (code - 9 * s) & 1):
            return code


@njit(cache=True)
def counted_move(st, meta):
    """:func:`random_move` as ``max0`` draws it, kept as it was for that benchmark player:
    the same odds, slower (it clears bits in a loop to reach the k-th empty cell, and
    counts the open sections' empty cells on a free move)."""
    closed = st[CLOSED]
    t = st[TARGET]
    if t != FREE and not closed >> t & 1:
        empty = FULL & ~(st[MARKS0 + t] | st[MARKS1 + t])
        for _ in range(below(meta, POP[empty])):
            empty &= empty - 1
        return 9 * t + LOW[empty]
    total = 0
    for s in range(9):
        if not closed >> s & 1:
            total += POP[FULL & ~(st[MARKS0 + s] | st[MARKS1 + s])]
    k = below(meta, total)
    for s in range(9):
        if closed >> s & 1:
            continue
        empty = FULL & ~(st[MARKS0 + s] | st[MARKS1 + s])
        c = POP[empty]
        if k < c:
            for _ in range(k):
                empty &= empty - 1
            return 9 * s + LOW[empty]
        k -= c
    return -1


@njit(cache=True)
def threats(st, player):
    """The open sections where ``player``, sent there, would win the game with one move."""
    candidates = NEAR[st[WON + player]] & ~st[CLOSED] & FULL
    mask = 0
    while candidates:
        s = LOW[candidates]
        if WINNING[st[9 * player + s]] & FULL & ~(st[MARKS0 + s] | st[MARKS1 + s]):
            mask |= 1 << s
        candidates &= candidates - 1
    return mask


@njit(cache=True)
def winning_move(st, player):
    """A move of ``player`` (to move) that wins the game at once, or -1."""
    t = st[TARGET]
    closed = st[CLOSED]
    danger = threats(st, player)
    if t != FREE and not closed >> t & 1:
        danger &= 1 << t
    if not danger:
        return -1
    s = LOW[danger]
    return 9 * s + LOW[WINNING[st[9 * player + s]] & FULL & ~(st[MARKS0 + s] | st[MARKS1 + s])]


@njit(cache=True)
def gives_win(st, move, danger, opponent):
    """Whether ``move`` lets ``opponent`` win at once, given their ``threats`` mask ``danger``."""
    s = move // 9
    p = move % 9
    occupied = st[MARKS0 + s] | st[MARKS1 + s] | 1 << p
    closed = st[CLOSED]
    if LINE[st[9 * (1 - opponent) + s] | 1 << p] or occupied == FULL:
        closed |= 1 << s
        danger &= ~(1 << s)
    elif danger >> s & 1 and not WINNING[st[9 * opponent + s]] & FULL & ~occupied:
        danger &= ~(1 << s)  # the move takes the opponent's winning cell
    if closed >> p & 1:
        return danger != 0  # a free move: any threat will do
    return danger >> p & 1 == 1


@njit(cache=True)
def playout(st, meta, policy):
    """Moves to the end of the game; the winner (0, 1) or 2 for a draw.

    Policy 0 plays uniformly at random; 1 also takes a move that wins the
    game when there is one; 2 also tries (a few random draws) not to let the
    opponent win at once; 3, like 1, also takes half the time a move that wins
    the section played in; + :data:`GREEDY` does that with any policy, + :data:`COUNTED`
    draws free moves the slower way.
    """
    counted = policy & COUNTED
    greedy = policy & GREEDY or policy & 3 == PLAYOUT_SECTIONS
    policy &= 3
    while st[RESULT] == ONGOING:
        player = st[TO_MOVE]
        if policy >= PLAYOUT_WINS:
            move = winning_move(st, player)
            if move >= 0:
                play(st, move)
                continue
        move = -1
        if greedy:
            t = st[TARGET]
            if t != FREE and not st[CLOSED] >> t & 1 and below(meta, 2) == 0:
                wins = WINNING[st[9 * player + t]] & FULL & ~(st[MARKS0 + t] | st[MARKS1 + t])
                if wins:
                    move = 9 * t + LOW[wins]
        if move < 0:
            move = counted_move(st, meta) if counted else random_move(st, meta)
        if policy == PLAYOUT_SAFE:
            danger = threats(st, 1 - player)
            if danger:
                for _ in range(3):
                    if not gives_win(st, move, danger, 1 - player):
                        break
                    move = counted_move(st, meta) if counted else random_move(st, meta)
        play(st, move)
    return st[RESULT]


@njit(cache=True)
def choices(st, out):
    """The tree's choices at ``st``: the open sections on a free move (two or more), else
    the legal moves."""
    t = st[TARGET]
    closed = st[CLOSED]
    if t == FREE or closed >> t & 1:
        n = 0
        for s in range(9):
            if not closed >> s & 1:
                out[n] = MAX_MOVES + s
                n += 1
        if n > 1:
            return n
    return legal(st, out)


@njit(cache=True)
def local_prior(st, code, player, closed):
    """What both sectioned games' priors share for ``code`` (of ``player``, to move, not a
    section choice; ``closed`` the closed sections): the head start for winning its section
    or taking the opponent's winning cell there, less the handicap of sending the opponent
    to a free move; and whether it does send them to one. The marks are the first slots
    of both kernels' positions."""
    s = code // 9
    p = code % 9
    mine = st[9 * player + s] | 1 << p
    theirs = st[9 * (1 - player) + s]
    h = 0.0
    closes = mine | theirs == FULL
    if LINE[mine]:
        h += PRIOR_WIN_SECTION
        closes = True
    if WINNING[theirs] >> p & 1:
        h += PRIOR_BLOCK
    if closed >> p & 1 or (closes and p == s):
        return h + PRIOR_FREE_MOVE, True
    return h, False


@njit(cache=True)
def prior(st, code):
    """A cheap judgement of ``code`` for the player to move, in simulations' worth of reward:
    winning its section or taking the opponent's winning cell there is good; sending the
    opponent to a free move or to a section they can win at once is bad."""
    if code >= MAX_MOVES:
        return 0.0
    h, free = local_prior(st, code, st[TO_MOVE], st[CLOSED])
    if free:
        return h
    s = code // 9
    p = code % 9
    there = st[9 * (1 - st[TO_MOVE]) + p]
    occupied = st[MARKS0 + p] | st[MARKS1 + p] | (1 << p if p == s else 0)
    if WINNING[there] & FULL & ~occupied:
        h += PRIOR_SEND_TO_WIN
    return h


@njit(cache=True)
def features(st, active):
    """The value network's active features of ``st`` (see :mod:`sansu.ai.kernels.valuenet`)."""
    moves = np.empty(MAX_MOVES, dtype=np.int16)
    return encode(st, WON, CLOSED, TARGET, TO_MOVE, moves, legal(st, moves), active)


@njit(cache=True)
def judge(st, w1, b1, w2, b2, moves, active):
    """Player 0's expected reward at the ongoing position ``st``, by the network."""
    k = encode(st, WON, CLOSED, TARGET, TO_MOVE, moves, legal(st, moves), active)
    return reward_for(st[TO_MOVE], forward(active, k, w1, b1, w2, b2))


@njit(cache=True)
def choose_section(st, s):
    """Send the player to move, on a free move, to section ``s`` (half of a move)."""
    st[TARGET] = s


@njit(cache=True)
def search(
    root, first, count, move, visits, value, proven, mover, meta, sims, c_uct, policy, top, draw,
    w1, b1, w2, b2, mix, weight, share, pw1, pb1, pw2, pb2, c_prior, fpu,
):  # fmt: skip
    """:func:`sansu.ai.kernels.sectioned.search` with this game's rules: up to ``sims`` UCT
    simulations from ``root`` into the tree; how many were run."""
    return sectioned.search(
        legal, choices, play, choose_section, playout, winning_move, prior, judge,
        (WON, CLOSED, TARGET, TO_MOVE, RESULT), policy & (3 | COUNTED | GREEDY),
        np.empty(SIZE, dtype=np.int64), np.empty(192, dtype=np.int64),
        root, (first, count, move, visits, value, proven, mover, meta), sims, c_uct, policy, top,
        draw, (w1, b1, w2, b2, mix, weight), (share, pw1, pb1, pw2, pb2, c_prior, fpu),
    )  # fmt: skip


@njit(cache=True, fastmath=bestfirst.VECTOR)
def best_first(root, arrays, top, n, minimax, c, fpu, weights):
    """:func:`sansu.ai.kernels.bestfirst.search` with this game's rules: ``n`` simulations
    more from ``root`` into the tree ``arrays``; its new top."""
    return bestfirst.search(
        legal, play, (WON, CLOSED, TARGET, TO_MOVE, RESULT), root, arrays, top, n, minimax, c,
        fpu, weights,
    )


@njit(cache=True)
def flat_search(root, totals, counts, meta, sims, policy):
    """Flat Monte Carlo: ``sims`` playouts spread evenly over the root moves.

    ``totals[i]``/``counts[i]`` accumulate the mover's reward for the i-th
    legal move (in :func:`legal` order).
    """
    st = np.empty(SIZE, dtype=np.int64)
    moves = np.empty(81, dtype=np.int16)
    n = legal(root, moves)
    mover = root[TO_MOVE]
    for i in range(sims):
        k = i % n
        st[:] = root
        play(st, moves[k])
        winner = st[RESULT] if st[RESULT] != ONGOING else playout(st, meta, policy)
        counts[k] += 1
        if winner == mover:
            totals[k] += 1.0
        elif winner == DRAWN:
            totals[k] += 0.5
    return n
