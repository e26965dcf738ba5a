"""Sansumoku compiled: the rules on small integer arrays, random playouts and the UCT search.

The position is one int64 array (layout below) holding what the engine
keeps as big integers: each player's marks per section, each cell's digit
(section-major bit order of :mod:`sansu.core.sections`), per digit the
board rows and columns that hold it outside won sections, the won, closed
and won-by-constraint sections, where the mover is sent, the legal cells per
section, the mover and the result. A move is ``9 * section + position``.

The rules here repeat those of :mod:`sansu.games.sansumoku` for speed; the
tests play many random games through both and require the same legal moves
and results at every step.
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
from sansu.ai.kernels.uttt import (
    LINE,
    LOW,
    NTH,
    POP,
    PRIOR_SEND_TO_WIN,
    WINNING,
    local_prior,
)
from sansu.ai.kernels.valuenet import encode, forward, reward_for
from sansu.core.sections import CELL_OF_BIT, FULL, PLACES

MARKS0, MARKS1, DIGITS, ROWS, COLS = 0, 9, 18, 99, 108
WON, CLOSED, BY_CONSTRAINT, TARGET, TO_MOVE, RESULT, LEGAL = 117, 119, 120, 121, 122, 123, 124
SIZE = 133
KEY_SLOTS = 99
"""The marks and digits (the first slots) and the legal moves tell two positions apart."""
FREE = -1

ROW_OF_BIT = np.array([CELL_OF_BIT[b] // 9 for b in range(81)], dtype=np.int64)
COL_OF_BIT = np.array([CELL_OF_BIT[b] % 9 for b in range(81)], dtype=np.int64)
ROW0 = np.array([3 * (s // 3) for s in range(9)], dtype=np.int64)
COL0 = np.array([3 * (s % 3) for s in range(9)], dtype=np.int64)
ALLOWED = np.array(
    [
        sum(1 << p for p in range(9) if not (rows >> (p // 3) & 1 or cols >> (p % 3) & 1))
        for rows in range(8)
        for cols in range(8)
    ],
    dtype=np.int64,
)
"""``ALLOWED[rows * 8 + cols]``: the positions of a section outside blocked local rows/columns."""


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
    for s in range(9):
        owner = state.section_owner(s)
        if owner is not None:
            st[WON + owner] |= 1 << s
        if state.is_closed(s):
            st[CLOSED] |= 1 << s
        if state.won_by_constraint(s):
            st[BY_CONSTRAINT] |= 1 << s
    for place in PLACES:
        owner = state.player_at(place.cell)
        if owner is None:
            continue
        st[9 * owner + place.section] |= 1 << place.position
        digit = state.digit_at(place.cell)
        st[DIGITS + place.bit] = digit
        if state.section_owner(place.section) is None:
            st[ROWS + digit - 1] |= 1 << ROW_OF_BIT[place.bit]
            st[COLS + digit - 1] |= 1 << COL_OF_BIT[place.bit]
        if state.is_legal_cell(place.cell):  # pragma: no cover - a taken cell is never legal
            raise AssertionError("a taken cell is legal")
    for place in PLACES:
        if state.is_legal_cell(place.cell):
            st[LEGAL + place.section] |= 1 << place.position
    if state.result is None:
        st[TARGET] = FREE if state.wildcard else state.allowed_sections()[0]
        st[TO_MOVE] = state.to_move
        st[RESULT] = ONGOING
    else:
        st[TARGET] = FREE
        st[RESULT] = DRAWN if state.result.draw else state.result.winners[0]
    return st


@njit(cache=True)
def legal_in(st, s):
    """The 9-bit mask of legal positions in open section ``s``."""
    field = st[MARKS0 + s] | st[MARKS1 + s]
    d = POP[field]
    rows = st[ROWS + d] >> ROW0[s] & 7
    cols = st[COLS + d] >> COL0[s] & 7
    return ALLOWED[rows * 8 + cols] & ~field & FULL


@njit(cache=True)
def forget(st, s):
    """Drop the row/column marks of the digits in section ``s``, which has just been won."""
    field = st[MARKS0 + s] | st[MARKS1 + s]
    while field:
        b = 9 * s + LOW[field]
        d = st[DIGITS + b] - 1
        st[ROWS + d] &= ~(1 << ROW_OF_BIT[b])
        st[COLS + d] &= ~(1 << COL_OF_BIT[b])
        field &= field - 1


@njit(cache=True)
def legal(st, out):
    """Write the legal moves into ``out``; their number."""
    if st[RESULT] != ONGOING:
        return 0
    n = 0
    for s in range(9):
        field = st[LEGAL + s]
        while field:
            out[n] = 9 * s + LOW[field]
            n += 1
            field &= field - 1
    return n


@njit(cache=True)
def play(st, move):
    """Play ``move`` (assumed legal) on ``st`` in place, settling wins by constraint."""
    s = move // 9
    p = move % 9
    mover = st[TO_MOVE]
    field = st[MARKS0 + s] | st[MARKS1 + s]
    digit = POP[field] + 1
    st[DIGITS + move] = digit
    st[ROWS + digit - 1] |= 1 << ROW_OF_BIT[move]
    st[COLS + digit - 1] |= 1 << COL_OF_BIT[move]
    slot = 9 * mover + s
    st[slot] |= 1 << p
    won_now = False
    if LINE[st[slot]]:
        st[CLOSED] |= 1 << s
        st[WON + mover] |= 1 << s
        won_now = True
    elif field | 1 << p == FULL:
        st[CLOSED] |= 1 << s
    if won_now:
        forget(st, s)
    for k in range(9):
        st[LEGAL + k] = 0
    target = p
    if won_now and LINE[st[WON + mover]]:
        st[RESULT] = mover
        st[TARGET] = FREE
        return
    while True:
        closed = st[CLOSED]
        if closed == FULL:
            st[RESULT] = DRAWN
            st[TARGET] = FREE
            return
        if target != FREE and not closed >> target & 1:
            m = legal_in(st, target)
            if m:
                st[LEGAL + target] = m
                break
            allowed = 1 << target
        else:
            target = FREE
            allowed = FULL & ~closed
            any_legal = 0
            for k in range(9):
                if allowed >> k & 1:
                    m = legal_in(st, k)
                    st[LEGAL + k] = m
                    any_legal |= m
            if any_legal:
                break
        # Win by constraint: every section the next player may use is blocked.
        for k in range(9):
            if allowed >> k & 1:
                st[CLOSED] |= 1 << k
                st[BY_CONSTRAINT] |= 1 << k
                st[WON + mover] |= 1 << k
                forget(st, k)
        target = FREE
        if LINE[st[WON + mover]]:
            st[RESULT] = mover
            st[TARGET] = FREE
            return
    st[TARGET] = target
    st[TO_MOVE] = 1 - mover


@njit(cache=True)
def winning_move(st, player):
    """A move of ``player`` (to move) that wins a section completing a line, or -1."""
    won = st[WON + player]
    for s in range(9):
        m = st[LEGAL + s]
        if m and LINE[won | 1 << s]:
            wins = WINNING[st[9 * player + s]] & m
            if wins:
                return 9 * s + LOW[wins]
    return -1


@njit(cache=True)
def playout(st, meta, policy):
    """Moves to the end of the game; the winner (0, 1) or 2 for a draw.

    Policy 0 plays uniformly at random; 1 also takes a move that wins the
    game (a section completing a line) when there is one.
    """
    while st[RESULT] == ONGOING:
        if policy == PLAYOUT_WINS:
            found = winning_move(st, st[TO_MOVE])
            if found >= 0:
                play(st, found)
                continue
        total = 0
        for s in range(9):
            total += POP[st[LEGAL + s]]
        k = below(meta, total)
        for s in range(9):
            m = st[LEGAL + s]
            c = POP[m]
            if k < c:
                play(st, 9 * s + NTH[16 * m + k])
                break
            k -= c
    return st[RESULT]


@njit(cache=True)
def choices(st, out):
    """The tree's choices at ``st``: on a wildcard with legal cells in two or more
    sections, those sections; else the legal moves."""
    if st[TARGET] == FREE:
        n = 0
        for s in range(9):
            if st[LEGAL + s]:
                out[n] = MAX_MOVES + s
                n += 1
        if n > 1:
            return n
    return legal(st, out)


@njit(cache=True)
def choose_section(st, s):
    """Commit the player to move, on a wildcard, to section ``s`` (half of a move)."""
    for k in range(9):
        if k != s:
            st[LEGAL + k] = 0
    st[TARGET] = s


@njit(cache=True)
def prior(st, code):
    """A cheap judgement of ``code`` for the player to move, in simulations' worth of reward
    (see the Ultimate Tic-Tac-Toe kernel's): winning its section or taking the opponent's
    winning cell there is good; giving the opponent a wildcard, or sending them to a section
    where a cell they may use now would win it, is bad."""
    if code >= MAX_MOVES:
        return 0.0
    h, free = local_prior(st, code, st[TO_MOVE], st[CLOSED])
    s = code // 9
    p = code % 9
    if not free and p != s and WINNING[st[9 * (1 - st[TO_MOVE]) + p]] & legal_in(st, p):
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
def search(
    root, first, count, move, visits, value, proven, mover, meta, sims, c_uct, policy, top, draw,
    w1, b1, w2, b2, mix, weight, share, pw1, pb1, pw2, pb2, c_prior, fpu,
):  # fmt: skip
    """:func:`sansu.ai.kernels.sectioned.search` with this game's rules: up to ``sims`` UCT
    simulations from ``root`` into the tree; how many were run."""
    return sectioned.search(
        legal, choices, play, choose_section, playout, winning_move, prior, judge,
        (WON, CLOSED, TARGET, TO_MOVE, RESULT), policy & 3,
        np.empty(SIZE, dtype=np.int64), np.empty(128, dtype=np.int64),
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
    """Flat Monte Carlo: ``sims`` playouts spread evenly over the root moves (see the UTTT one)."""
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
