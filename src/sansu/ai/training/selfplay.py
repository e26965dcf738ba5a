"""Games of the compiled search against itself, as training data, and matches between networks.

Both run in worker processes (or Ray tasks), so every function here takes
and returns plain picklable data. Everything is seeded: the same task gives
the same games, wherever it runs.

A position is stored as its value-network features, in each of the 8
symmetries of the board (rotations and reflections act on the sections and,
alike, on the cells inside them; both games' rules are symmetric so), with
the final result for the player to move and the search's own value of it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from sansu.ai.network import PolicyNet, ValueNet

SEARCH_POLICY = {"uttt": 6, "sansumoku": 1}
"""The playout policy of the shipped levels from ``medium`` up (see :mod:`sansu.ai.levels`)."""
C_UCT = 0.5
"""The exploration of the search with playouts alone (a network's search has its own)."""


def _square_symmetries() -> list[list[int]]:
    """The 8 symmetries of a 3×3 grid as permutations of its positions 0–8."""
    out = []
    for k in range(8):
        perm = []
        for p in range(9):
            r, c = divmod(p, 3)
            for _ in range(k % 4):
                r, c = c, 2 - r
            if k >= 4:
                c = 2 - c
            perm.append(3 * r + c)
        out.append(perm)
    return out


def feature_symmetries() -> np.ndarray:
    """``8 × N_FEATURES`` permutations of the features, one per symmetry of the board."""
    from sansu.ai.kernels import valuenet as V

    perms = []
    for g in _square_symmetries():
        perm = np.arange(V.N_FEATURES)
        for s in range(9):
            for base in V.SECTION_BLOCKS:
                perm[base + s] = base + g[s]
            for p in range(9):
                for base in V.CELL_BLOCKS:
                    perm[base + 9 * s + p] = base + 9 * g[s] + g[p]
        perms.append(perm)
    return np.array(perms)


def searcher(
    game_id: str,
    net: ValueNet | PolicyNet | None,
    mix: float,
    c_uct: float = C_UCT,
    level: dict[str, Any] | None = None,
    bestfirst: bool = False,
) -> Any:
    """The compiled search of the training pipeline: the value network's (exploring by
    ``c_uct``), or playouts alone; or, given ``level`` (a policy network's run), ``max``'s
    search with the shipped value network and ``net`` as its policy network (if any); or,
    with ``bestfirst``, the best-first search on ``net`` (the shipped one if ``None``)."""
    from sansu.ai.compiled import CompiledSearch

    if bestfirst:
        from sansu.ai.bestfirst import BestFirstSearch
        from sansu.ai.network import shipped

        return BestFirstSearch(game_id, net if net is not None else shipped(game_id), reuse=False)

    if level is not None:
        from sansu.ai.network import shipped

        return CompiledSearch(
            game_id,
            c_uct=level["c_uct"],
            policy=level["playout"],
            net=shipped(game_id),
            mix=level["net"],
            net_visits=level["net_visits"],
            policy_net=net,
            c_prior=level["prior"] if net is not None else 0.0,
            fpu=level["fpu"],
        )
    return CompiledSearch(
        game_id,
        c_uct=c_uct if net is not None else C_UCT,
        policy=SEARCH_POLICY[game_id],
        net=net,
        mix=mix if net is not None else 0.0,
    )


def visit_shares(k: Any, game: Any, candidates: Any, fake: int) -> np.ndarray:
    """What a policy network learns at a position: each root move's share of the search's
    visits (its own, without the ``fake`` visits its network value counted as)."""
    out = np.zeros(k.MAX_MOVES, np.float32)
    for c in candidates:
        out[k.code_of(game, c.move)] = max(c.visits - fake, 0)
    total = out.sum()
    if total <= 0:
        for c in candidates:
            out[k.code_of(game, c.move)] = c.visits
        total = out.sum()
    return out / max(total, 1.0)


def self_play(task: dict[str, Any]) -> dict[str, np.ndarray]:
    """Play ``task["count"]`` games; their positions' features, results and search values.

    ``task``: ``game``, ``seed``, ``count``, ``simulations`` per move,
    ``explore`` (the first plies are drawn with odds ∝ visits), ``net`` (a
    :class:`ValueNet` or ``None``), ``mix``, ``c_uct`` and ``children``: the
    root moves searched at least that many times, other than the best, add the
    positions they lead to, valued by the search (their "result" is that value
    too, since the game did not go there; 0: none).

    With ``level`` (``max``'s settings, see :func:`searcher`) ``net`` is a
    policy network or ``None``, and the answer also holds ``v``: each position's
    root visit shares (positions the search settled, or with one move, left out).
    """
    from sansu.ai.compiled import kernel
    from sansu.ai.kernels.valuenet import MAX_ACTIVE, dense
    from sansu.core.registry import load_game

    game_id = task["game"]
    game = load_game(game_id)
    k = kernel(game_id)
    children = task.get("children", 0)
    level = task.get("level")
    active = np.empty(MAX_ACTIVE, dtype=np.int64)
    rows, results, values, shares = [], [], [], []

    def add(state: Any, value: float) -> None:
        rows.append(dense(active, k.features(k.from_state(state), active)))
        values.append(value)

    for index in range(task["count"]):
        rng = random.Random(task["seed"] * 1_000_003 + index)
        search = searcher(
            game_id, task["net"], task["mix"], task.get("c_uct", C_UCT), level,
            task.get("bestfirst", False),
        )  # fmt: skip
        state = game.initial_state()
        movers: list[int | None] = []
        plies = 0
        while state.result is None:
            stats = search.run(state, simulations=task["simulations"], seed=rng.getrandbits(63))
            best = stats.candidates[0]
            if level is None or (best.proven is None and len(stats.candidates) > 1):
                add(state, 2.0 * best.reward - 1.0)
                movers.append(state.to_move)
                if level is not None:
                    shares.append(visit_shares(k, game, stats.candidates, level["net_visits"]))
            for other in stats.candidates[1:] if children else ():
                if other.visits < children:
                    continue
                after = state.play(other.move)
                if after.result is None:
                    add(after, 1.0 - 2.0 * other.reward)
                    movers.append(None)
            move = best.move
            plies += 1
            if plies <= task["explore"] and best.proven is None:
                pool = [c for c in stats.candidates if c.visits > 0]
                move = rng.choices(pool, weights=[c.visits for c in pool])[0].move
            state = state.play(move)
        winners = state.result.winners
        first = len(results)
        for i, m in enumerate(movers):
            outcome = 0.0 if not winners else 1.0 if m in winners else -1.0
            results.append(values[first + i] if m is None else outcome)
    x = np.array(rows, dtype=np.uint8).reshape(-1, rows[0].shape[0] if rows else 0)
    perms = feature_symmetries()
    out = {
        "x": np.concatenate([x[:, perm] for perm in perms]),
        "z": np.tile(np.array(results, np.float32), len(perms)),
        "q": np.tile(np.array(values, np.float32), len(perms)),
    }
    if level is not None:
        from sansu.ai.kernels.valuenet import LEGAL_AT

        v = np.array(shares, np.float32).reshape(-1, k.MAX_MOVES)
        cells = [perm[LEGAL_AT : LEGAL_AT + k.MAX_MOVES] - LEGAL_AT for perm in perms]
        out["v"] = np.concatenate([v[:, c] for c in cells])
    return out


def match_game(task: dict[str, Any]) -> float:
    """One game of ``task["a"]`` against ``task["b"]`` (networks or ``None``; with
    ``task["level"]``, policy networks in ``max``'s search); ``a``'s score.

    ``a`` moves first when ``task["index"]`` is even. The first
    ``task["opening"]`` plies are uniformly random (seeded) so that the games
    of a match differ.
    """
    from sansu.core.registry import load_game

    game_id = task["game"]
    rng = random.Random(task["seed"] * 1_000_003 + task["index"])
    a_seat = task["index"] % 2
    searches = [None, None]
    c_uct = task.get("c_uct", C_UCT)
    level = task.get("level")
    best = task.get("bestfirst", False)
    searches[a_seat] = searcher(game_id, task["a"], task["mix"], c_uct, level, best)
    searches[1 - a_seat] = searcher(game_id, task["b"], task["mix"], c_uct, level, best)
    state = load_game(game_id).initial_state()
    plies = 0
    while state.result is None:
        if plies < task["opening"]:
            move = rng.choice(state.legal_moves())
        else:
            search = searches[state.to_move]
            seed = rng.getrandbits(63)
            move = search.run(state, simulations=task["simulations"], seed=seed).candidates[0].move
        state = state.play(move)
        plies += 1
    if state.result.draw or not state.result.winners:
        return 0.5
    return 1.0 if a_seat in state.result.winners else 0.0
