"""The UCT search of the sectioned games, one body for Ultimate Tic-Tac-Toe and Sansumoku.

Both games keep a position as one int64 array, number a move ``9 * section +
position`` and may split a free move into a section choice and a cell choice,
so one simulation loop serves both: each kernel's ``search`` calls
:func:`search` with its own rules (compiled functions passed as arguments),
the slots of its position array and work space of the right size.

:func:`search` is inlined into each game's ``search`` (numba inlines it before
typing), so each game's search calls its own functions directly, as fast as if
the loop were written in the game's module, and is cached on disk with them.
Compiled as a function of its own, it would take the game's functions as
run-time addresses, which numba's cache refuses. The cache of a game's search
does not notice a change to this file: ``scripts/setup-env`` clears the cache
when a kernel's source changes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sansu.ai.kernels.tree import (
    DRAW,
    LOSS,
    NOT_EXPANDED,
    UNKNOWN,
    WIN,
    add_children,
    backup,
    backup_reward,
    leaf_value,
    proven_winner,
    reward_of,
    select_child,
    select_prior,
)
from sansu.ai.kernels.valuenet import MAX_ACTIVE, set_shares

MAX_MOVES = 81
ONGOING = -1
DRAWN = 2
PLAYOUT_UNIFORM = 0
PLAYOUT_WINS = 1
"""Playout policies of both games: uniformly random; also take a move that wins the game
when there is one."""
GROUP = 4
"""Added to a search's policy: below the root, a free move (a wildcard in Sansumoku) is two
decisions in the tree, the section (code ``MAX_MOVES + section``) and then the cell, so that
the tree compares nine sections before dozens of cells."""
PRIOR = 8
"""Added to a search's policy: a new child starts with a small head start or handicap from
the game's ``prior`` (progressive bias: worth a few simulations, so it fades as visits grow)."""


@njit(inline="always")
def search(
    legal, choices, play, choose_section, playout, winning_move, prior, judge,
    layout, playouts, st, path,
    root, tree, sims, c_uct, policy, top, draw, value_net, policy_net,
):  # fmt: skip
    """Run up to ``sims`` UCT simulations from ``root`` into ``tree``; how many were run.

    The game: its compiled ``legal``, ``choices``, ``play``, ``choose_section``,
    ``playout``, ``winning_move``, ``prior`` and ``judge``; ``layout``, the slots
    ``(WON, CLOSED, TARGET, TO_MOVE, RESULT)`` of its position array; ``playouts``,
    the playout policy. ``st`` (a position) and ``path`` (longer than any game) are
    work space. (Python passes more than 30 arguments as one tuple, which numba
    would type as function pointers: hence the tuples of the other arguments.)

    ``tree`` is :meth:`~sansu.ai.kernels.tree.Tree.arrays`. ``top`` is the tree node
    of ``root`` (0 for a new tree; deeper when a tree is reused after two moves);
    ``draw`` is what a draw is worth to the player to move at ``root`` (½: neutral).
    Stops early once the solver has proven it.

    ``value_net`` is ``(w1, b1, w2, b2, mix, weight)``: a value network's weights,
    ``mix`` its share of a leaf's value (0: playouts alone, as without a network;
    1: the network alone) and ``weight`` how many visits of the new leaf alone its
    value counts as, besides (0: none; see :func:`~sansu.ai.kernels.tree.leaf_value`).
    ``policy_net`` is ``(share, pw1, pb1, pw2, pb2, c_prior, fpu)``: the tree's
    priors and a policy network's weights and settings (``c_prior`` 0: none).
    """
    won, closed, target, to_move, result = layout
    first, count, move, visits, value, proven, mover, meta = tree
    w1, b1, w2, b2, mix, weight = value_net
    share, pw1, pb1, pw2, pb2, c_prior, fpu = policy_net
    moves = np.empty(81, dtype=np.int16)
    group = policy & GROUP
    biased = policy & PRIOR
    me = root[to_move]
    active = np.empty(MAX_ACTIVE, dtype=np.int64)
    cells = np.empty(81, dtype=np.int16)
    odds = np.empty(81, dtype=np.float32)
    by_code = np.empty(81, dtype=np.float32)
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
                    if mix > 0.0 or weight > 0:
                        r = judge(st, w1, b1, w2, b2, moves, active)
                        reward0 = leaf_value(visits, value, mover, node, r, mix, weight)
                    if reward0 < 0.0 or mix < 1.0:
                        winner = playout(st, meta, playouts)
                        if reward0 >= 0.0:
                            reward0 += (1.0 - mix) * reward_of(winner)
                    break
                n = choices(st, moves) if group and node != top else legal(st, moves)
                if playouts & 3 >= PLAYOUT_WINS:
                    # A winning move settles the node: no other move needs a child.
                    found = winning_move(st, st[to_move])
                    if found >= 0:
                        moves[0] = found
                        n = 1
                if not add_children(
                    first, count, move, visits, value, proven, mover, meta, node, moves, n,
                    st[to_move],
                ):  # fmt: skip
                    winner = playout(st, meta, playouts)
                    break
                if biased:
                    for c in range(first[node], first[node] + count[node]):
                        value[c] = prior(st, move[c])
                if c_prior > 0.0 and count[node] > 1:
                    k = legal(st, cells)
                    set_shares(
                        st, won, closed, target, to_move, cells, k, first[node], count[node],
                        move, share, pw1, pb1, pw2, pb2, active, odds, by_code,
                    )  # fmt: skip
                elif c_prior > 0.0:
                    share[first[node]] = 1.0
            if c_prior > 0.0:
                child = select_prior(
                    first, count, visits, value, proven, mover, share, node, c_uct, c_prior, fpu
                )
            else:
                child = select_child(first, count, visits, value, proven, node, c_uct)
            code = move[child]
            if code >= MAX_MOVES:
                choose_section(st, code - MAX_MOVES)
            else:
                play(st, code)
            path[depth] = child
            depth += 1
            node = child
            if st[result] != ONGOING:
                winner = st[result]
                who = mover[child]
                proven[child] = WIN if winner == who else (DRAW if winner == DRAWN else LOSS)
                break
        if reward0 >= 0.0:
            backup_reward(first, count, visits, value, proven, mover, path, depth, reward0)
        else:
            backup(first, count, visits, value, proven, mover, path, depth, winner, me, draw)
        done += 1
    return done
