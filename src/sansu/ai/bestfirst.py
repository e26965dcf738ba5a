"""Best-first search on the value network: the other search of the two sectioned games.

:class:`CompiledSearch` values a leaf by random playouts, with the network's
value as a head start; :class:`BestFirstSearch` has no playouts at all. It
expands one node a simulation, values all of its children by the network and
backs up minimax values (:mod:`sansu.ai.kernels.bestfirst`), as the strongest
public Ultimate Tic-Tac-Toe bots do with their own networks. Its strength is
its network's: the level setting ``bestfirst`` chooses it.

Both searches answer :meth:`run` alike, so a player or a match uses either.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from sansu.ai.analysis import Candidate, RootStats
from sansu.ai.kernels.sectioned import MAX_MOVES
from sansu.core.protocol import State

MAX_NODES = 8_000_000
"""The most nodes a tree grows to (20 bytes each): some 3 seconds of thinking on this
machine; the search stops early when they run out."""
CHUNK = 256
"""Simulations between looks at the clock (about a millisecond), each adding at most
:data:`~sansu.ai.kernels.sectioned.MAX_MOVES` nodes."""


class BestFirstSearch:
    """Best-first minimax search on a value network, run inside a game kernel.

    ``minimax`` is how much a child's minimax value counts in choosing it (the rest is
    its mean value), ``c`` the exploration and ``fpu`` an unexpanded child's bonus
    (see :mod:`sansu.ai.kernels.bestfirst`). With ``reuse`` the tree is kept after a
    search, and the next search, two moves later, goes on from the part of it that the
    game reached. ``endgame`` as in :class:`~sansu.ai.compiled.CompiledSearch`.
    """

    def __init__(
        self,
        game_id: str,
        net: Any,
        *,
        minimax: float = 0.3,
        c: float = 0.41,
        fpu: float = 0.4,
        reuse: bool = True,
        endgame: int = 0,
        max_nodes: int = MAX_NODES,
    ) -> None:
        from sansu.ai.network import NET_GAMES

        if game_id not in NET_GAMES:
            raise ValueError("best-first search is for Ultimate Tic-Tac-Toe and Sansumoku")
        if net is None:
            raise ValueError("best-first search needs a value network")
        if not 0.0 <= minimax <= 1.0 or c < 0.0 or not 0.0 <= fpu <= 1.0:
            raise ValueError(f"minimax and fpu in [0, 1], c not negative ({minimax}, {c}, {fpu})")
        if endgame and game_id != "uttt":
            raise ValueError("the exact endgame is for Ultimate Tic-Tac-Toe")
        from sansu.ai.endgame import Endgame

        self.game_id = game_id
        self.weights = net.kernel_arrays()
        self.minimax = minimax
        self.c = c
        self.fpu = fpu
        self.reuse = reuse
        self.endgame = Endgame(endgame)
        self.max_nodes = max(max_nodes, 2 * CHUNK * MAX_MOVES)
        self._arrays: tuple[np.ndarray, ...] | None = None
        self._spare: tuple[np.ndarray, ...] | None = None
        self._kept: np.ndarray | None = None
        self.reused = 0
        """Nodes the last search took over from the one before (0: it started afresh)."""

    def warm_up(self) -> None:
        """Load (or compile) the search's code now rather than on a move's clock: a search
        of the initial position, and what finding a kept tree's part takes (a move played,
        positions compared, the tree copied)."""
        from sansu.ai.compiled import kernel, same_position
        from sansu.ai.kernels import bestfirst
        from sansu.core.registry import load_game

        state = load_game(self.game_id).initial_state()
        self.run(state, simulations=2)
        k = kernel(self.game_id)
        root = k.from_state(state)
        moves = np.empty(MAX_MOVES, dtype=np.int16)
        k.legal(root, moves)
        after = root.copy()
        k.play(after, int(moves[0]))
        same_position(k, after, root)
        size = len(self._room(1)[0])
        bestfirst.compact(0, self._room(1), _new_tree(size), np.empty(size, dtype=np.int64))
        self._kept = None

    def run(
        self,
        state: State,
        *,
        time_ms: float | None = None,
        simulations: int | None = None,
        seed: int = 0,
    ) -> RootStats:
        """Search ``state`` within the budget: a time, a number of simulations, or both.

        The search draws nothing at random, so ``seed`` changes nothing: the same
        position and budget in simulations give the same tree."""
        from sansu.ai.compiled import decided, kernel

        if state.result is not None:
            raise ValueError("the game is over: there is no move to choose")
        if time_ms is None and simulations is None:
            raise ValueError("a search needs a time or a simulation budget")
        start = time.perf_counter()
        k = kernel(self.game_id)
        root = k.from_state(state)
        solved = self.endgame.solve(root, self.endgame.budget(time_ms, simulations))
        if solved is not None and solved.score != 0:
            self._kept = None
            return decided(k, state.game, solved)
        top = self._reused(k, root, state)
        if top == 0:
            _, count, _, sims, value, total = self._room(1)
            count[0], sims[0], value[0], total[0] = -1, 0.0, 0.5, 0.5
            top = 1
        if solved is not None:  # a drawn root: the search chooses among the drawing moves
            top = self._search(k, root, top, 1)
            _mark_lost(self._room(top), solved.losing)
        limit = simulations if simulations is not None else 1 << 62
        done = 0
        deadline = None if time_ms is None else start + time_ms / 1000.0
        while done < limit:
            want = min(CHUNK, limit - done)
            top = self._search(k, root, top, want)
            done += want
            if deadline is not None and time.perf_counter() >= deadline:
                break
            if self._finished(top):
                break
        self._kept = root if self.reuse else None
        return self._stats(k, state.game, self._room(top), done, top)

    def _search(self, k: Any, root: np.ndarray, top: int, n: int) -> int:
        """``n`` simulations more, the tree first grown to hold them if it may."""
        arrays = self._room(top + n * MAX_MOVES)
        return int(
            k.best_first(root, arrays, top, n, self.minimax, self.c, self.fpu, self.weights)
        )

    def _finished(self, top: int) -> bool:
        """Whether the root is proven or the tree can grow no more."""
        from sansu.ai.kernels.bestfirst import WIN

        arrays = self._room(top)
        full = top + MAX_MOVES > len(arrays[0]) and len(arrays[0]) >= self.max_nodes
        return full or abs(float(arrays[4][0])) >= WIN / 2

    def _room(self, nodes: int) -> tuple[np.ndarray, ...]:
        """The tree, grown (by doubling, up to :attr:`max_nodes`) to hold ``nodes``."""
        have = 0 if self._arrays is None else len(self._arrays[0])
        if have >= min(nodes, self.max_nodes):
            assert self._arrays is not None
            return self._arrays
        size = max(have, 4 * CHUNK * MAX_MOVES)
        while size < nodes and size < self.max_nodes:
            size *= 2
        size = min(size, self.max_nodes)
        grown = _new_tree(size)
        if self._arrays is not None:
            for old, new in zip(self._arrays, grown, strict=True):
                new[:have] = old
        self._arrays = grown
        return grown

    def _reused(self, k: Any, root: np.ndarray, state: State) -> int:
        """The top of the tree after moving the kept tree's part where ``root`` is
        (this player's move and the reply on) to its front; 0 if none is kept."""
        from sansu.ai.compiled import same_position
        from sansu.ai.kernels import bestfirst

        kept, self._kept, self.reused = self._kept, None, 0
        if kept is None or self._arrays is None or state.last_move is None:
            return 0
        reply = k.code_of(state.game, state.last_move)
        first, count, move = self._arrays[:3]
        for c in _children(first, count, 0):
            for g in _children(first, count, c):
                if int(move[g]) != reply or count[g] <= 0:
                    continue
                position = kept.copy()
                k.play(position, int(move[c]))
                k.play(position, reply)
                if not same_position(k, position, root):
                    continue
                size = len(self._arrays[0])
                if self._spare is None or len(self._spare[0]) != size:
                    self._spare = _new_tree(size)
                queue = np.empty(size, dtype=np.int64)
                top = int(bestfirst.compact(g, self._arrays, self._spare, queue))
                self._arrays, self._spare = self._spare, self._arrays
                self.reused = top
                return top
        return 0

    def _stats(
        self, k: Any, game: Any, arrays: tuple, simulations: int, top: int
    ) -> RootStats:
        from sansu.ai.kernels.bestfirst import WIN

        first, count, move, sims, value, _ = arrays

        def proven(c: int) -> float | None:
            v = float(value[c])
            return 1.0 if v >= WIN / 2 else 0.0 if v <= 1.0 - WIN / 2 else None

        def rank(c: int) -> float:
            # the most simulated move, with its value as a tie-break worth one doubling
            s = float(sims[c])
            return float(value[c]) + (math.log2(s) if s > 0 else -WIN / 4)

        ranked = sorted(_children(first, count, 0), key=rank, reverse=True)
        candidates = [
            Candidate(
                k.move_of(game, int(move[c])),
                int(sims[c]),
                min(1.0, max(0.0, float(value[c]))),
                proven(c),
            )
            for c in ranked
        ]
        pv: list[str] = []
        node = 0
        while len(pv) < 16 and count[node] > 0:
            node = max(_children(first, count, node), key=rank)
            pv.append(str(k.move_of(game, int(move[node]))))
            if sims[node] == 0:
                break
        root = proven(0)
        return RootStats(
            candidates, pv, simulations, None if root is None else 1.0 - root, top
        )


def _children(first: np.ndarray, count: np.ndarray, node: int) -> range:
    """The nodes of ``node``'s children (none before it is expanded)."""
    return range(int(first[node]), int(first[node]) + max(int(count[node]), 0))


def _new_tree(size: int) -> tuple[np.ndarray, ...]:
    """``first, count, move, sims, value, total``: the kernel's tree, one row a node."""
    return (
        np.zeros(size, dtype=np.int32), np.zeros(size, dtype=np.int16),
        np.zeros(size, dtype=np.int16), np.zeros(size, dtype=np.float32),
        np.zeros(size, dtype=np.float32), np.zeros(size, dtype=np.float32),
    )  # fmt: skip


def _mark_lost(arrays: tuple, losing: set[int]) -> None:
    """Mark the root's children of the moves ``losing`` as proven lost, and the root's
    value as their minimax again (the kernel's backup trusts it)."""
    from sansu.ai.kernels.bestfirst import WIN

    first, count, move, _, value, total = arrays
    children = _children(first, count, 0)
    for c in children:
        if int(move[c]) in losing:
            value[c] = total[c] = 1.0 - WIN
    value[0] = 1.0 - max(value[c] for c in children)
