"""Monte-Carlo tree search over the game protocol: any game, any number of players.

UCT with max^n backups: every node keeps, per player, the sum of rewards of
the simulations through it, and each player chooses by their own reward.
A win is worth 1 to each winner (shared by ``k`` winners: ``1/k`` each, or 1
to every member of a winning team), a loss 0, a draw ``1/n``.

A solver settles nodes exactly where it can: a finished game is proven; a
node is proven as soon as one child gives its mover the best reward there
is (1), or once every child is proven (the mover takes the best). Proven
children are not explored again and proven-lost ones are avoided.

With ``widening`` (progressive widening) a node with many moves gets a
new child only every so often (at most ``widening * sqrt(visits)``
children), so that a small budget is spent on a few moves searched well
rather than on every move searched once; the moves are tried in random
order.

Games plug in through an :class:`~sansu.ai.adapters.Adapter`, which says which
moves to consider, how to play out a position, how to judge a cut-off
playout, and which positions it can settle exactly. The default adapter
uses only the protocol (``legal_moves``, ``play``, ``result``).

Everything random comes from one ``random.Random(seed)``, so a search with a
simulation budget (and no time limit) repeats exactly.
"""

from __future__ import annotations

import gc
import math
import random
import time

from sansu.ai.adapters import Adapter
from sansu.ai.analysis import Candidate, RootStats
from sansu.ai.rewards import Rewards, rewards_of
from sansu.core.protocol import Move, State

__all__ = ["MCTS", "Node", "Rewards", "rewards_of"]


class Node:
    """A position in the tree; ``totals[p]`` sums player ``p``'s rewards through it."""

    __slots__ = ("children", "move", "mover", "proven", "state", "totals", "untried", "visits")

    def __init__(self, move: Move | None, state: State, players: int) -> None:
        self.move = move
        self.state = state
        self.mover = state.to_move
        self.children: list[Node] = []
        self.untried: list[Move] | None = None
        self.visits = 0
        self.totals = [0.0] * players
        self.proven: Rewards | None = None


class MCTS:
    """Generic UCT with a max^n solver; one instance can run many searches."""

    def __init__(
        self,
        adapter: Adapter,
        *,
        c_uct: float = 0.8,
        playout_limit: int = 400,
        widening: float = 0.0,
    ) -> None:
        self.adapter = adapter
        self.c_uct = c_uct
        self.playout_limit = playout_limit
        self.widening = widening
        game = adapter.game
        self.players = game.num_players
        self.teams = getattr(game, "teams", None)
        self._nodes = 0
        self._free_cost = 4e-6
        """Seconds to free one node of the tree, as last measured."""

    # -- the search ------------------------------------------------------------

    def run(
        self,
        state: State,
        *,
        time_ms: float | None = None,
        simulations: int | None = None,
        seed: int = 0,
    ) -> RootStats:
        """Search ``state`` until the budget (time, simulations, or both) runs out."""
        if state.result is not None:
            raise ValueError("the game is over: there is no move to choose")
        start = time.perf_counter()
        rng = random.Random(seed)
        state = self.adapter.prepare(state, rng)
        self._nodes = 0
        root = self._node(None, state)
        deadline = None if time_ms is None else start + time_ms / 1000.0
        limit = simulations if simulations is not None else (1 << 62)
        done = 0
        # The tree holds no cycles, so reference counting frees it; the cyclic
        # collector would only pause (up to 0.1 s) to scan it: it is off meanwhile,
        # and the tree is freed before it is back on, within the budget.
        collecting = gc.isenabled()
        gc.disable()
        try:
            while done < limit and root.proven is None:
                if deadline is not None and done:
                    # Stop when one more simulation of the average length, and then
                    # freeing the tree, would end too late.
                    now = time.perf_counter()
                    if now + (now - start) / done + self._nodes * self._free_cost > deadline:
                        break
                self._simulate(root, rng)
                done += 1
            stats = self._stats(root, done)
            freeing = time.perf_counter()
            del root
            if self._nodes >= 1_000:
                cost = (time.perf_counter() - freeing) / self._nodes
                self._free_cost = max(cost, (self._free_cost + cost) / 2)
            return stats
        finally:
            if collecting:
                gc.enable()

    def _node(self, move: Move | None, state: State) -> Node:
        self._nodes += 1
        node = Node(move, state, self.players)
        if state.result is not None:
            node.proven = rewards_of(state.result, self.players, self.teams)
        else:
            exact = self.adapter.exact(state)
            if exact is not None:
                node.proven = exact
        return node

    def _simulate(self, root: Node, rng: random.Random) -> None:
        path = [root]
        node = root
        while node.proven is None:
            if node.untried is None:
                moves = list(self.adapter.candidates(node.state))
                rng.shuffle(moves)
                node.untried = moves
            if node.untried and (
                not self.widening or len(node.children) < self.widening * math.sqrt(node.visits + 1)
            ):
                move = node.untried.pop()
                child = self._node(move, node.state.play(move))
                node.children.append(child)
                path.append(child)
                node = child
                break
            if not node.children:  # no candidate at all: judge the position as it stands
                break
            node = self._select(node)
            path.append(node)
        rewards = node.proven if node.proven is not None else self._playout(node.state, rng)
        self._backup(path, rewards)

    def _select(self, node: Node) -> Node:
        mover = node.mover
        assert mover is not None
        log_n = math.log(node.visits) if node.visits > 1 else 0.0
        c = self.c_uct
        best = node.children[0]
        best_score = -math.inf
        for child in node.children:
            if child.proven is not None:
                score = child.proven[mover]
                if score >= 1.0:
                    return child
                if score <= 0.0:
                    score = -1.0  # lost: only if nothing else is left
            else:
                v = child.visits
                score = child.totals[mover] / v + c * math.sqrt(log_n / v)
            if score > best_score:
                best_score = score
                best = child
        return best

    def _playout(self, state: State, rng: random.Random) -> Rewards:
        return self.adapter.playout(state, rng, self.playout_limit)

    def _backup(self, path: list[Node], rewards: Rewards) -> None:
        for k in range(len(path) - 1, -1, -1):
            node = path[k]
            node.visits += 1
            totals = node.totals
            for p, r in enumerate(rewards):
                totals[p] += r
            if k and node.proven is not None:
                self._settle(path[k - 1], node)

    def _settle(self, parent: Node, child: Node) -> None:
        if parent.proven is not None or parent.mover is None:
            return
        mover = parent.mover
        assert child.proven is not None
        if child.proven[mover] >= 1.0:
            parent.proven = child.proven
            return
        if parent.untried or any(c.proven is None for c in parent.children):
            return
        if parent.children:
            parent.proven = max(parent.children, key=lambda c: c.proven[mover]).proven  # type: ignore[index]

    # -- reading the result -------------------------------------------------------

    def _stats(self, root: Node, simulations: int) -> RootStats:
        mover = root.mover
        assert mover is not None
        candidates = []
        for child in root.children:
            reward = child.totals[mover] / child.visits if child.visits else 0.0
            proven = None if child.proven is None else child.proven[mover]
            if proven is not None:
                reward = proven
            candidates.append(Candidate(child.move, child.visits, reward, proven))
        candidates.sort(key=_rank, reverse=True)
        pv: list[str] = []
        node = root
        while node.children and len(pv) < 12:
            m = node.mover
            if m is None:
                break
            node = max(
                node.children,
                key=lambda c, m=m: _rank(
                    Candidate(c.move, c.visits, 0.0, None if c.proven is None else c.proven[m])
                ),
            )
            pv.append(str(node.move))
        return RootStats(
            candidates=candidates,
            pv=pv,
            simulations=simulations,
            proven=None if root.proven is None else root.proven[mover],
            nodes=self._nodes,
        )


def _rank(c: Candidate) -> tuple[int, float, float]:
    """Proven wins first, proven losses last, otherwise by visits then reward."""
    if c.proven is not None:
        if c.proven >= 1.0:
            return (2, c.proven, c.visits)
        if c.proven <= 0.0:
            return (0, c.visits, c.reward)
    return (1, c.visits, c.reward)
