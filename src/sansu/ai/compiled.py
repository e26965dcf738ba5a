"""Driving a compiled game kernel: budgets, the clock, and reading the tree back.

A kernel (:mod:`sansu.ai.kernels.uttt`, :mod:`sansu.ai.kernels.sansumoku`)
runs simulations in compiled code; this module calls it in chunks of a few
milliseconds so that a time budget is kept to within a chunk, and turns the
root of the tree into :class:`~sansu.ai.analysis.RootStats`.

Kernels are imported lazily: importing :mod:`sansu.ai` stays cheap, and a
worker process pays for loading the compiled code (from numba's on-disk
cache) only when it first searches.
"""

from __future__ import annotations

import importlib
import time
from types import ModuleType
from typing import Any

import numpy as np

from sansu.ai.analysis import Candidate, RootStats
from sansu.core.protocol import State

KERNELS = {
    "uttt": "sansu.ai.kernels.uttt",
    "sansumoku": "sansu.ai.kernels.sansumoku",
    "thirtyfive": "sansu.ai.kernels.thirtyfive",
}
"""Games that have a compiled kernel, by game id."""

MAX_NODES = 6_000_000
"""Upper bound on a tree's nodes (about 130 MB); a full tree keeps searching without growing."""
NODES_PER_SIMULATION = 4
CHUNK_SECONDS = 0.004
"""Time between two looks at the clock during a timed search."""
FAST_RATE = 1_500_000
"""Simulations per second no kernel exceeds: sizes the tree of a timed search."""
MAX_NET_VISITS = 10_000
"""Most visits a network's value of a leaf may count as (far beyond any use: a bad setting)."""


def kernel(game_id: str) -> ModuleType:
    """The compiled kernel module of ``game_id`` (imported on first use)."""
    return importlib.import_module(KERNELS[game_id])


def warm_up(game_id: str) -> None:
    """Load (or compile) the kernel of ``game_id`` now rather than during the first move."""
    from sansu.ai.kernels.tree import Tree
    from sansu.core.registry import load_game

    k = kernel(game_id)
    root = k.from_state(load_game(game_id).initial_state())
    tree = Tree(4096, 0)
    tree.mover[0] = 1 - int(root[k.TO_MOVE])
    for policy in (0, 1):
        k.search(root, *tree.arrays(), 2, 1.0, policy, 0, 0.5, *net_arguments(game_id, None))
        totals, counts = np.zeros(k.MAX_MOVES), np.zeros(k.MAX_MOVES, dtype=np.int64)
        k.flat_search(root, totals, counts, tree.meta, 1, policy)


def net_arguments(
    game_id: str,
    net: Any,
    mix: float = 0.0,
    visits: int = 0,
    *,
    share: np.ndarray | None = None,
    policy_net: Any = None,
    c_prior: float = 0.0,
    fpu: float = 0.0,
) -> tuple[Any, ...]:
    """The trailing arguments of a kernel's search: a value network's weights, its share of
    what a leaf backs up, and how many visits of the leaf alone its value counts as; then
    the tree's ``share`` array, a policy network's weights, the weight of its priors and the
    first-play urgency (35: its fitted leaf evaluator's weights and share,
    :mod:`sansu.ai.thirtyfive_eval`)."""
    from sansu.ai.network import NET_GAMES, NO_NET, NO_POLICY

    if game_id == "thirtyfive":
        from sansu.ai.thirtyfive_eval import NO_EVALUATOR

        if net is None or mix <= 0.0:
            return (*NO_EVALUATOR, 0.0)
        return (*net.arrays(), float(mix))
    if game_id not in NET_GAMES:
        return ()
    if net is None or (mix <= 0.0 and visits <= 0):
        values: tuple[Any, ...] = (*NO_NET, 0.0, 0)
    else:
        values = (*net.kernel_arrays(), float(mix), int(visits))
    if policy_net is None or c_prior <= 0.0 or share is None:
        return (*values, np.empty(1, np.float32), *NO_POLICY, 0.0, 0.0)
    return (*values, share, *policy_net.kernel_arrays(), float(c_prior), float(fpu))


def same_position(k: ModuleType, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two kernel arrays hold the same position (same pieces, same legal moves)."""
    if not np.array_equal(a[: k.KEY_SLOTS], b[: k.KEY_SLOTS]) or a[k.TO_MOVE] != b[k.TO_MOVE]:
        return False
    ma = np.empty(k.MAX_MOVES, dtype=np.int16)
    mb = np.empty(k.MAX_MOVES, dtype=np.int16)
    na, nb = k.legal(a, ma), k.legal(b, mb)
    return na == nb and set(ma[:na].tolist()) == set(mb[:nb].tolist())


class CompiledSearch:
    """UCT with the proven win/loss solver, run inside a game kernel.

    With ``reuse`` the tree is kept after a search; when the next search is
    for the position two moves later (this player's move and the reply), it
    goes on from that part of the old tree instead of starting afresh.

    With a value network ``net``, a new leaf's value is ``mix`` times the
    network's plus ``1 - mix`` times a playout's, and the network's value
    also counts as ``net_visits`` visits of that leaf alone (see the kernels).

    With a policy network ``policy_net`` and ``c_prior`` above 0, children are
    chosen by PUCT on the network's odds of them (see
    :func:`~sansu.ai.kernels.tree.select_prior`), an unvisited one valued at
    its parent's mean less ``fpu``.

    With ``endgame`` above 0 (Ultimate Tic-Tac-Toe), a position with at most that
    many empty cells in open sections is first solved exactly (:mod:`sansu.ai.endgame`).
    """

    def __init__(
        self,
        game_id: str,
        *,
        c_uct: float = 0.8,
        policy: int = 1,
        reuse: bool = False,
        draw: float = 0.5,
        net: Any = None,
        mix: float = 0.0,
        net_visits: int = 0,
        policy_net: Any = None,
        c_prior: float = 0.0,
        fpu: float = 0.0,
        endgame: int = 0,
    ) -> None:
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"mix must be between 0 and 1, not {mix}")
        whole = isinstance(net_visits, int) and not isinstance(net_visits, bool)
        if not whole or not 0 <= net_visits <= MAX_NET_VISITS:
            raise ValueError(
                f"net_visits must be a whole number from 0 to {MAX_NET_VISITS}, not {net_visits}"
            )
        from sansu.ai.network import NET_GAMES

        if net_visits > 0 and game_id not in NET_GAMES:
            raise ValueError("net_visits is for Ultimate Tic-Tac-Toe and Sansumoku")
        if (mix > 0.0 or net_visits > 0) and net is None:
            raise ValueError("a search with mix or net_visits above 0 needs a value network")
        if c_prior < 0.0 or not 0.0 <= fpu <= 1.0:
            raise ValueError(f"c_prior must not be negative and fpu in [0, 1] ({c_prior}, {fpu})")
        if c_prior > 0.0 and (policy_net is None or game_id not in NET_GAMES):
            raise ValueError(
                "a search with c_prior above 0 needs a policy network (UTTT or Sansumoku)"
            )
        self.game_id = game_id
        self.c_uct = c_uct
        self.policy = policy
        self.reuse = reuse
        self.draw = draw
        self.net = net
        self.mix = mix
        self.net_visits = net_visits
        self.policy_net = policy_net
        self.c_prior = c_prior
        self.fpu = fpu
        if endgame and game_id != "uttt":
            raise ValueError("the exact endgame is for Ultimate Tic-Tac-Toe")
        from sansu.ai.endgame import Endgame

        self.endgame = Endgame(endgame)
        self._kept: tuple[Any, np.ndarray, int] | None = None

    def run(
        self,
        state: State,
        *,
        time_ms: float | None = None,
        simulations: int | None = None,
        seed: int = 0,
    ) -> RootStats:
        """Search ``state`` within the budget: a time, a number of simulations, or both."""
        from sansu.ai.kernels.rng import seed_state
        from sansu.ai.kernels.tree import Tree

        if state.result is not None:
            raise ValueError("the game is over: there is no move to choose")
        if time_ms is None and simulations is None:
            raise ValueError("a search needs a time or a simulation budget")
        k = kernel(self.game_id)
        start = time.perf_counter()
        root = k.from_state(state)
        solved = self.endgame.solve(root, self.endgame.budget(time_ms, simulations))
        if solved is not None and solved.score != 0:
            self._kept = None
            return decided(k, state.game, solved)
        if time_ms is not None:
            time_ms = max(1.0, time_ms - 1000.0 * (time.perf_counter() - start))
            start = time.perf_counter()
        expected = simulations if simulations is not None else 1 + int(time_ms * FAST_RATE / 1000)
        if time_ms is not None and simulations is not None:
            expected = min(expected, 1 + int(time_ms * FAST_RATE / 1000))
        found = self._reusable(k, root, state, NODES_PER_SIMULATION * expected)
        if found is None:
            room = NODES_PER_SIMULATION * expected * (3 if self.reuse else 1)
            tree, top = Tree(min(MAX_NODES, 1024 + room), seed), 0
            tree.mover[0] = 1 - int(root[k.TO_MOVE])
        else:
            tree, top = found
            tree.meta[0] = np.uint64(seed_state(seed))
        self._kept = None
        arrays = tree.arrays()
        extra = net_arguments(
            self.game_id, self.net, self.mix, self.net_visits, share=tree.share,
            policy_net=self.policy_net, c_prior=self.c_prior, fpu=self.fpu,
        )  # fmt: skip
        limit = simulations if simulations is not None else 1 << 62
        done = 0
        if solved is not None:
            # A drawn root: the search chooses among the moves that keep the draw.
            done = k.search(root, *arrays, 1, self.c_uct, self.policy, top, self.draw, *extra)
            _mark_lost(tree, top, solved.losing)
        if time_ms is None:
            rest = limit - done
            done += k.search(root, *arrays, rest, self.c_uct, self.policy, top, self.draw, *extra)
        else:
            deadline = start + time_ms / 1000.0
            chunk = 16
            while done < limit:
                t0 = time.perf_counter()
                want = min(chunk, limit - done)
                ran = k.search(root, *arrays, want, self.c_uct, self.policy, top, self.draw, *extra)
                done += ran
                now = time.perf_counter()
                if ran < want or now >= deadline:
                    break
                rate = ran / max(now - t0, 1e-6)
                slot = min(CHUNK_SECONDS, deadline - now)
                chunk = max(8, min(int(rate * slot), 4 * chunk + 8))
        if self.reuse:
            self._kept = (tree, root, top)
        return self._stats(k, state.game, tree, done, top)

    def _reusable(self, k: ModuleType, root: np.ndarray, state: State, room: int) -> Any:
        """``(tree, node)`` of the kept tree where ``root`` is, two moves on; else ``None``."""
        if self._kept is None or not self.reuse:
            return None
        tree, old_root, old_top = self._kept
        reply = k.code_of(state.game, state.last_move)
        if reply is None or tree.nodes + room > tree.capacity:
            return None
        for c in tree.children(old_top):
            for g in self._replies(k, tree, c):
                if int(tree.move[g]) != reply:
                    continue
                position = old_root.copy()
                k.play(position, int(tree.move[c]))
                k.play(position, reply)
                kids = tree.children(g)
                # A root's children must be moves, not a free move's section choices.
                if (
                    same_position(k, position, root)
                    and kids
                    and all(int(tree.move[x]) < k.MAX_MOVES for x in kids)
                ):
                    return tree, g
        return None

    @staticmethod
    def _replies(k: ModuleType, tree: Any, node: int) -> list[int]:
        """The nodes of the moves after ``node``, looking through section choices."""
        found = []
        for g in tree.children(node):
            if int(tree.move[g]) >= k.MAX_MOVES:
                found.extend(tree.children(g))
            else:
                found.append(g)
        return found

    def flat(
        self, state: State, *, time_ms: float | None, simulations: int | None, seed: int
    ) -> RootStats:
        """Flat Monte Carlo with the same playouts: every root move gets an equal share."""
        from sansu.ai.kernels.tree import Tree

        k = kernel(self.game_id)
        start = time.perf_counter()
        root = k.from_state(state)
        totals = np.zeros(k.MAX_MOVES)
        counts = np.zeros(k.MAX_MOVES, dtype=np.int64)
        meta = Tree(1, seed).meta
        moves = np.empty(k.MAX_MOVES, dtype=np.int16)
        n = k.legal(root, moves)
        limit = simulations if simulations is not None else 1 << 62
        done = 0
        deadline = None if time_ms is None else start + time_ms / 1000.0
        while done < limit:
            # Whole rounds over the root moves keep the shares equal.
            want = min(limit - done, n * max(1, 256 // n))
            k.flat_search(root, totals, counts, meta, want, self.policy)
            done += want
            if deadline is not None and time.perf_counter() >= deadline:
                break
        candidates = [
            Candidate(
                k.move_of(state.game, int(moves[i])),
                int(counts[i]),
                float(totals[i] / max(counts[i], 1)),
            )
            for i in range(n)
        ]
        candidates.sort(key=lambda c: c.reward, reverse=True)
        return RootStats(candidates, [str(candidates[0].move)], done)

    def _stats(self, k: ModuleType, game: Any, tree: Any, simulations: int, top: int) -> RootStats:
        from sansu.ai.kernels.tree import DRAW, LOSS, WIN

        exact = {WIN: 1.0, LOSS: 0.0, DRAW: 0.5}
        candidates = []
        for c in tree.children(top):
            visits = int(tree.visits[c])
            reward = float(tree.value[c] / visits) if visits else 0.0
            proven = exact.get(int(tree.proven[c]))
            candidates.append(
                Candidate(
                    k.move_of(game, int(tree.move[c])),
                    visits,
                    reward if proven is None else proven,
                    proven,
                )
            )
        candidates.sort(key=_rank, reverse=True)
        pv = []
        node = top
        while len(pv) < 16:
            kids = tree.children(node)
            if not kids:
                break
            node = max(kids, key=lambda c: _rank_node(tree, c))
            if tree.visits[node] == 0 and int(tree.proven[node]) == 0:
                break
            code = int(tree.move[node])
            if code < k.MAX_MOVES:  # not a section choice (half of a free move)
                pv.append(str(k.move_of(game, code)))
        root_proven = {WIN: 0.0, LOSS: 1.0, DRAW: 0.5}.get(int(tree.proven[top]))
        return RootStats(candidates, pv, simulations, root_proven, tree.nodes)


def decided(k: ModuleType, game: Any, solved: Any) -> RootStats:
    """The root stats of a solved won or lost position: its best move alone, proven."""
    value = 1.0 if solved.score > 0 else 0.0
    move = k.move_of(game, solved.moves[0])
    return RootStats(
        [Candidate(move, 0, value, value)],
        [str(move)],
        0,
        value,
        solved.nodes,
        {"endgame": solved.score},
    )


def _mark_lost(tree: Any, top: int, losing: set[int]) -> None:
    """Mark the root's children of the moves ``losing`` as proven lost."""
    from sansu.ai.kernels.tree import LOSS

    for c in tree.children(top):
        if int(tree.move[c]) in losing:
            tree.proven[c] = LOSS


def _rank(c: Candidate) -> tuple[int, float, float]:
    if c.proven is not None:
        if c.proven >= 1.0:
            return (2, 0.0, 0.0)
        if c.proven <= 0.0:
            return (0, c.visits, c.reward)
    return (1, c.visits, c.reward)


def _rank_node(tree: Any, c: int) -> tuple[int, float]:
    from sansu.ai.kernels.tree import LOSS, WIN

    p = int(tree.proven[c])
    if p == WIN:
        return (2, 0.0)
    if p == LOSS:
        return (0, float(tree.visits[c]))
    return (1, float(tree.visits[c]))
