"""35 compiled: neighbour sums on a padded board, playouts and the UCT search.

Boards of every size (3–12 rows and columns) use one layout: a 14-wide
grid with a border, square ``(row, col)`` at ``(row + 1) * 14 + col + 1``, so
the eight neighbours of a square are fixed offsets and the border squares
(never filled) need no bounds checks. The position is one int16 array: each
square's neighbour sum, colour (-1 empty, -2 border, else the player),
highlight (-1 none, else the player), the empty squares as a list with each
square's place in it, the mover and the result. A move is
``9 * square + digit - 1``.

The rules here repeat those of :mod:`sansu.games.thirtyfive` for speed; the
tests play many random games through both and require the same legal moves,
colours, highlights and results at every step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from sansu.ai.kernels.rng import below
from sansu.ai.kernels.thirtyfive_eval import value as fitted_value
from sansu.ai.kernels.thirtyfive_layout import (
    BORDER,
    COLOUR,
    COLS,
    EMPTIES,
    EMPTY,
    HIGHLIGHT,
    NONE,
    OFFSETS,
    PLACE,
    RESULT,
    ROWS,
    SIZE,
    SQUARES,
    SUMS,
    TARGET,
    TO_MOVE,
    WIDE,
)
from sansu.ai.kernels.tree import (
    DRAW,
    LOSS,
    NOT_EXPANDED,
    UNKNOWN,
    WIN,
    add_children,
    backup,
    backup_reward,
    proven_winner,
    reward_of,
    select_child,
)

KEY_SLOTS = HIGHLIGHT + SQUARES
"""Sums, colours and highlights tell two positions apart (with the legal moves)."""
MAX_MOVES = 9 * 144
ONGOING = -1
DRAWN = 2

PLAYOUT_UNIFORM = 0
PLAYOUT_GREEDY = 1
"""Playout policies: uniformly random; or a random square with the digit that converts most."""


def square_of(cell: int, cols: int) -> int:
    """The padded square of the engine's row-major ``cell``."""
    row, col = divmod(cell, cols)
    return (row + 1) * WIDE + col + 1


def cell_of(square: int, cols: int) -> int:
    row, col = divmod(square, WIDE)
    return (row - 1) * cols + col - 1


def from_state(state: Any) -> np.ndarray:
    """The kernel array of an engine state, read through its public methods."""
    rows, cols = state.rows, state.cols
    st = np.zeros(SIZE, dtype=np.int16)
    st[COLOUR : COLOUR + SQUARES] = BORDER
    st[HIGHLIGHT : HIGHLIGHT + SQUARES] = NONE
    for cell in range(rows * cols):
        sq = square_of(cell, cols)
        st[SUMS + sq] = state.sum_at(cell)
        colour = state.colour_at(cell)
        st[COLOUR + sq] = NONE if colour is None else colour
        highlight = state.highlight_at(cell)
        st[HIGHLIGHT + sq] = NONE if highlight is None else highlight
    empties = state.empty_cells()
    for i, cell in enumerate(empties):
        st[EMPTY + i] = square_of(cell, cols)
        st[PLACE + square_of(cell, cols)] = i
    st[ROWS], st[COLS], st[EMPTIES] = rows, cols, len(empties)
    if state.result is None:
        st[TO_MOVE], st[RESULT] = state.to_move, ONGOING
    else:
        st[RESULT] = DRAWN if state.result.draw else state.result.winners[0]
    return st


def move_of(game: Any, code: int) -> Any:
    """The engine move of a kernel move code."""
    square, digit = divmod(code, 9)
    return game.geometry.move(cell_of(square, game.options["cols"]), digit + 1)


def code_of(game: Any, move: Any) -> int | None:
    """The kernel code of an engine move (``None`` for anything else)."""
    cell, digit = getattr(move, "cell", None), getattr(move, "digit", None)
    if cell is None or digit is None:
        return None
    return 9 * square_of(cell, game.options["cols"]) + digit - 1


@njit(cache=True)
def legal(st, out):
    """Write the legal moves into ``out``; their number."""
    if st[RESULT] != ONGOING:
        return 0
    n = 0
    for i in range(st[EMPTIES]):
        base = 9 * np.int64(st[EMPTY + i])
        for d in range(9):
            out[n] = base + d
            n += 1
    return n


@njit(cache=True)
def play(st, move):
    """Play ``move`` (assumed legal) on ``st`` in place."""
    sq = move // 9
    digit = move % 9 + 1
    player = st[TO_MOVE]
    hl = st[HIGHLIGHT + sq]
    st[COLOUR + sq] = hl if hl != NONE else player
    st[HIGHLIGHT + sq] = NONE
    for k in range(8):
        m = sq + OFFSETS[k]
        if st[COLOUR + m] != BORDER:
            st[SUMS + m] += digit
    # Triggers: the placed square (its sum unchanged, newly filled) and the filled
    # neighbours whose sums have just reached 35. Recolouring changes no sum, so
    # the second pass finds the same triggers as the first.
    red = 0
    blue = 0
    for k in range(9):
        t = sq + OFFSETS[k] if k < 8 else sq
        if st[COLOUR + t] >= 0 and st[SUMS + t] == TARGET:
            if st[COLOUR + t] == 0:
                red += 1
            else:
                blue += 1
    if (red or blue) and not (red and blue):
        colour = 0 if red else 1
        for k in range(9):
            t = sq + OFFSETS[k] if k < 8 else sq
            if not (st[COLOUR + t] >= 0 and st[SUMS + t] == TARGET):
                continue
            for j in range(8):
                m = t + OFFSETS[j]
                c = st[COLOUR + m]
                if c >= 0:
                    st[COLOUR + m] = colour
                elif c == NONE:
                    st[HIGHLIGHT + m] = colour
    # Take the square off the list of empty ones (the last one takes its place).
    last = st[EMPTIES] - 1
    i = st[PLACE + sq]
    moved = st[EMPTY + last]
    st[EMPTY + i] = moved
    st[PLACE + moved] = i
    st[EMPTIES] = last
    if last == 0:
        reds = 0
        blues = 0
        for s in range(SQUARES):
            c = st[COLOUR + s]
            if c == 0:
                reds += 1
            elif c == 1:
                blues += 1
        st[RESULT] = 0 if reds > blues else (1 if blues > reds else DRAWN)
        return
    st[TO_MOVE] = 1 - player


@njit(cache=True)
def gain(st, sq, digit, player):
    """What ``digit`` on empty ``sq`` triggers for ``player``: own triggers minus the other's."""
    hl = st[HIGHLIGHT + sq]
    own = hl if hl != NONE else player
    red = 1 if st[SUMS + sq] == TARGET and own == 0 else 0
    blue = 1 if st[SUMS + sq] == TARGET and own == 1 else 0
    for k in range(8):
        m = sq + OFFSETS[k]
        c = st[COLOUR + m]
        if c >= 0 and st[SUMS + m] + digit == TARGET:
            if c == 0:
                red += 1
            else:
                blue += 1
    if red and blue:
        return 0
    return red - blue if player == 0 else blue - red


@njit(cache=True)
def playout(st, meta, policy):
    """Moves to the end of the game; the winner (0, 1) or 2 for a draw.

    Policy 0 plays uniformly at random; 1 picks a random empty square and
    the digit there that triggers best for the mover (ties at random).
    """
    while st[RESULT] == ONGOING:
        sq = np.int64(st[EMPTY + below(meta, np.int64(st[EMPTIES]))])
        digit = below(meta, 9) + 1
        if policy == PLAYOUT_GREEDY:
            player = st[TO_MOVE]
            best = gain(st, sq, digit, player)
            start = below(meta, 9)
            for j in range(9):
                d = (start + j) % 9 + 1
                g = gain(st, sq, d, player)
                if g > best:
                    best = g
                    digit = d
        play(st, 9 * sq + digit - 1)
    return st[RESULT]


@njit(cache=True)
def evaluate(st, meta, policy, weights, bias, mix, x):
    """Player 0's expected reward at the ongoing leaf ``st``: the fitted evaluator's, blended
    with a playout's result when ``mix`` < 1 (``st`` is played out then)."""
    mine = fitted_value(st, weights, bias, x)
    r = mine if st[TO_MOVE] == 0 else 1.0 - mine
    return r if mix >= 1.0 else mix * r + (1.0 - mix) * reward_of(playout(st, meta, policy))


@njit(cache=True)
def search(
    root, first, count, move, visits, value, proven, mover, meta, sims, c_uct, policy, top, draw,
    weights, bias, mix,
):  # fmt: skip
    """Run up to ``sims`` UCT simulations from ``root`` into the tree; how many were run.

    ``weights, bias`` are the fitted leaf evaluator's (:mod:`sansu.ai.kernels.thirtyfive_eval`)
    and ``mix`` its share of a new leaf's value (0: playouts alone, the search as without an
    evaluator; 1: the evaluator alone).
    """
    st = np.empty(SIZE, dtype=np.int16)
    moves = np.empty(MAX_MOVES, dtype=np.int16)
    path = np.empty(160, dtype=np.int64)
    x = np.empty(weights.shape[0], dtype=np.float64)
    me = root[TO_MOVE]
    done = 0
    for _ in range(sims):
        if proven[top] != UNKNOWN:
            break
        st[:] = root
        node = top
        reward0 = -1.0
        winner = 2
        path[0] = top
        depth = 1
        while True:
            if proven[node] != UNKNOWN:
                winner = proven_winner(proven[node], mover[node])
                break
            if first[node] == NOT_EXPANDED:
                if node != top and visits[node] == 0:
                    if mix > 0.0:
                        reward0 = evaluate(st, meta, policy, weights, bias, mix, x)
                    else:
                        winner = playout(st, meta, policy)
                    break
                n = legal(st, moves)
                if not add_children(
                    first, count, move, visits, value, proven, mover, meta, node, moves, n,
                    st[TO_MOVE],
                ):  # fmt: skip
                    winner = playout(st, meta, policy)
                    break
            child = select_child(first, count, visits, value, proven, node, c_uct)
            play(st, move[child])
            path[depth] = child
            depth += 1
            node = child
            if st[RESULT] != ONGOING:
                winner = st[RESULT]
                who = mover[child]
                proven[child] = WIN if winner == who else (DRAW if winner == DRAWN else LOSS)
                break
        if reward0 >= 0.0:
            backup_reward(first, count, visits, value, proven, mover, path, depth, reward0)
        else:
            backup(first, count, visits, value, proven, mover, path, depth, winner, me, draw)
        done += 1
    return done


@njit(cache=True)
def flat_search(root, totals, counts, meta, sims, policy):
    """Flat Monte Carlo: ``sims`` playouts spread evenly over the root moves (see the UTTT one)."""
    st = np.empty(SIZE, dtype=np.int16)
    moves = np.empty(MAX_MOVES, dtype=np.int16)
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
