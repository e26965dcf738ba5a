"""Positions for fitting 35's leaf evaluator: self-play of the playout search on many sizes.

Each game is played by the compiled playout search (``max0``'s settings) at a
small simulation budget on a board drawn from :data:`SIZES`; its first moves
are drawn at random among the searched ones (odds by visits) so that games
differ. Every position before the end gives one row of features (as the
compiled evaluator sees them) labelled with the mover's final reward: 1 won,
½ drawn, 0 lost. Reproducible from the seed; games run on a process pool.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

SIZES = ((5, 5), (6, 6), (6, 8), (7, 7), (8, 8), (8, 10), (9, 9), (10, 10), (12, 12))
"""Board sizes of the fitting games (rows, columns): square and not, small to largest."""
OPENING_PLIES = 6
"""Plies at the start of a game whose move is drawn at random (odds by visits)."""


def play_game(seed: int, simulations: int) -> tuple[np.ndarray, np.ndarray]:
    """One self-play game: the features of its positions and the mover's final rewards."""
    from sansu.ai.compiled import CompiledSearch, kernel
    from sansu.ai.kernels.thirtyfive_eval import N_FEATURES, features
    from sansu.core.registry import load_game

    rng = random.Random(seed)
    rows, cols = rng.choice(SIZES)
    game = load_game("thirtyfive", rows=rows, cols=cols)
    k = kernel("thirtyfive")
    search = CompiledSearch("thirtyfive", c_uct=0.5, policy=1)
    state = game.initial_state()
    rows_x, movers = [], []
    while state.result is None:
        x = np.empty(N_FEATURES)
        features(k.from_state(state), x)
        rows_x.append(x)
        movers.append(state.to_move)
        stats = search.run(state, simulations=simulations, seed=rng.getrandbits(62))
        pool = [c for c in stats.candidates if c.visits > 0] or stats.candidates
        if state.ply < OPENING_PLIES:
            move = rng.choices(pool, weights=[c.visits for c in pool])[0].move
        else:
            move = stats.candidates[0].move
        state = state.play(move)
    result = state.result
    rewards = [
        0.5 if result.draw else (1.0 if mover in result.winners else 0.0) for mover in movers
    ]
    return np.array(rows_x), np.array(rewards)


def _task(args: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    return play_game(*args)


def generate(
    games: int,
    *,
    simulations: int = 1_000,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[Iterable[Any], int], Iterable[Any]] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``games`` self-play games: features, rewards and each row's game number."""
    if games <= 0 or simulations <= 0 or jobs <= 0:
        raise ValueError("games, simulations and jobs must be positive")
    tasks = [(seed * 1_000_003 + i, simulations) for i in range(games)]
    if jobs == 1:
        results: Iterable[Any] = map(_task, tasks)
    else:
        pool = ProcessPoolExecutor(jobs)
        results = pool.map(_task, tasks)
    if progress is not None:
        results = progress(results, games)
    xs, ys, gs = [], [], []
    try:
        for i, (x, y) in enumerate(results):
            xs.append(x)
            ys.append(y)
            gs.append(np.full(len(y), i))
    finally:
        if jobs != 1:
            pool.shutdown()
    return np.vstack(xs), np.concatenate(ys), np.concatenate(gs)
