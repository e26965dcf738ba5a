"""Reference opponents that the levels are measured against: flat Monte Carlo and random.

Flat Monte Carlo gives every root move the same share of random playouts
and plays the one with the best average: no tree, no solver. It uses the
same playouts as the search (compiled where the game has a kernel), so a
match at equal time measures what the tree adds.
"""

from __future__ import annotations

import random
import time

from sansu.ai.analysis import Analysis, Candidate
from sansu.core.protocol import Game, State


class FlatMonteCarlo:
    """Equal playouts for every move, best average wins; same interface as a level."""

    level = "flat"

    def __init__(self, game: Game, *, seed: int | None = None, time_ms: int = 1000) -> None:
        self.game = game
        self.seed = seed
        self.time_ms = time_ms
        self._rng = random.Random(seed)

    def choose(
        self, state: State, *, time_ms: int | None = None, simulations: int | None = None
    ) -> Analysis:
        from sansu.ai.compiled import KERNELS, CompiledSearch

        start = time.perf_counter()
        if time_ms is None and simulations is None:
            time_ms = self.time_ms
        seed = self._rng.getrandbits(63)
        budget = None if time_ms is None else max(1.0, time_ms - 4.0)
        if self.game.id in KERNELS:
            stats = CompiledSearch(self.game.id, policy=0).flat(
                state, time_ms=budget, simulations=simulations, seed=seed
            )
            best = stats.candidates[0]
            done = stats.simulations
        else:
            best, done = self._flat(state, budget, simulations, random.Random(seed))
        return Analysis(
            move=best.move,
            value=2 * best.reward - 1,
            pv=[str(best.move)],
            simulations=done,
            elapsed_ms=(time.perf_counter() - start) * 1000,
            level=self.level,
        )

    def _flat(
        self, state: State, time_ms: float | None, simulations: int | None, rng: random.Random
    ) -> tuple[Candidate, int]:
        from sansu.ai.adapters import adapter_for

        adapter = adapter_for(self.game)
        state = adapter.prepare(state, rng)
        forced = adapter.forced(state, rng)
        if forced is not None:
            return Candidate(forced, 0, 0.5), 0
        moves = list(adapter.candidates(state))
        mover = state.to_move
        assert mover is not None
        totals = [0.0] * len(moves)
        counts = [0] * len(moves)
        deadline = None if time_ms is None else time.perf_counter() + time_ms / 1000
        limit = simulations if simulations is not None else 1 << 62
        done = 0
        while done < limit:
            k = done % len(moves)
            rewards = adapter.playout(state.play(moves[k]), rng, 400)
            totals[k] += rewards[mover]
            counts[k] += 1
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        best = max(range(len(moves)), key=lambda i: totals[i] / counts[i] if counts[i] else -1)
        return Candidate(moves[best], counts[best], totals[best] / max(counts[best], 1)), done


class RandomPlayer:
    """Uniformly random legal moves (never the host's ``timeout``)."""

    level = "random"

    def __init__(self, game: Game, *, seed: int | None = None) -> None:
        self.game = game
        self.time_ms = 0
        self._rng = random.Random(seed)

    def choose(
        self, state: State, *, time_ms: int | None = None, simulations: int | None = None
    ) -> Analysis:
        moves = [m for m in state.legal_moves() if str(m) != "timeout"]
        move = self._rng.choice(moves)
        return Analysis(move=move, value=0.0, pv=[str(move)], simulations=0, elapsed_ms=0.0,
                        level=self.level)  # fmt: skip
