"""Speed of the research environments (``./scripts/bench envs``).

1. ``VectorEnv`` random legal play (compiled random actions, compiled step,
   one core), in steps per second at batch 1, 64 and 1024, against
   OpenSpiel's Ultimate Tic-Tac-Toe driven from Python the usual way
   (``apply_action(choice(legal_actions()))``, a new game at each end). The
   two are timed in alternation, round after round, and each line gives the
   median of the per-pair ratios, so the machine's changing load falls on
   both; the rates are medians too, with the best (least disturbed) round
   beside them, since a shared machine slows every round a little or a lot.
   Targets at batch 1024: Ultimate Tic-Tac-Toe ≥ 10 M steps/s,
   Sansumoku ≥ 5 M. (Pgx's tic-tac-toe and connect four are measured in the
   same run by the JAX part below.)
2. PettingZoo: steps per second of a masked random agent loop through
   ``pettingzoo_env`` against the same random play straight on the engine
   (``state.play(choice(state.legal_moves()))``), in alternation; the
   overhead is engine rate / PettingZoo rate (aim: under 2×). The agent's
   turning the mask into a list of actions (``np.flatnonzero(mask).tolist()``,
   which the engine loop does not need) is timed alone on the masks of
   recorded games, and the overhead without it printed beside: what the
   environment itself adds (both loops keep their ``choice``). Last, the same
   loop on an ``AECEnv`` that plays no game at all (:class:`NullEnv`): the
   floor that PettingZoo's protocol sets, whatever the game. Each game's line
   also gives that floor plus the agent's mask handling on the game's masks,
   in the game's engine steps: the least any ``AECEnv`` of the game could
   reach with this agent (the no-game loop's own mask handling, nine actions
   of 81, counted twice: a slight overestimate of the floor).

3. The pure-JAX environments (``sansu.envs.jax``) against Pgx's tic-tac-toe
   and connect four, ``jit`` + ``vmap`` at batch 1024 on the CPU, then on a
   GPU if one is found (``jax_envs.py``; the devices are printed).

Times are the benchmark thread's CPU time (``time.thread_time``), not the
wall clock: on a shared machine other processes then slow a round only
through the caches they share, not by taking the core away (the JAX part,
whose work runs on XLA's threads, gives the process's CPU time and the wall
time).

Usage: ``python benchmarks/envs_bench.py [--rounds N] [--seconds S] [--jax-only]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv

import sansu
from sansu.envs import VectorEnv, pettingzoo_env
from sansu.games import native

BATCHES = (1, 64, 1024)
TARGETS = {("uttt", 1024): 10e6, ("sansumoku", 1024): 5e6}


def steps_per_second(run: Callable[[], int], seconds: float) -> float:
    """Call ``run`` (which returns the steps it made) for about ``seconds`` of CPU time."""
    steps = 0
    start = time.thread_time()
    while (elapsed := time.thread_time() - start) < seconds:
        steps += run()
    return steps / elapsed


def vector_runner(game_id: str, batch: int) -> Callable[[], int]:
    venv = VectorEnv(game_id, batch, seed=1)
    repeat = max(1, 20_000 // batch)

    def run() -> int:
        step, actions = venv.step, venv.random_actions
        for _ in range(repeat):
            step(actions())
        return repeat * batch

    run()
    return run


def openspiel_runner() -> Callable[[], int] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    rng = random.Random(1)
    holder = [game.new_initial_state()]

    def run() -> int:
        state, choice = holder[0], rng.choice
        for _ in range(2000):
            if state.is_terminal():
                state = game.new_initial_state()
            state.apply_action(choice(state.legal_actions()))
        holder[0] = state
        return 2000

    return run


def engine_runner(game_id: str) -> Callable[[], int]:
    game = sansu.load_game(game_id)
    rng = random.Random(1)

    def run() -> int:
        state, steps, choice = game.initial_state(), 0, rng.choice
        while state.result is None:
            state = state.play(choice(state.legal_moves()))
            steps += 1
        return steps

    return run


class NullEnv(AECEnv):
    """PettingZoo's protocol with no game behind it: the floor of any ``AECEnv`` loop.

    Two agents alternate for ``length`` steps; the observation and the mask
    (nine legal actions of 81, as in Ultimate Tic-Tac-Toe) are fixed arrays,
    copied on each ``observe`` as a real environment must. No wrapper, no
    checks: PettingZoo's base class and its agent iterator alone.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "null_v0", "is_parallelizable": False}

    def __init__(self, length: int = 58) -> None:
        super().__init__()
        self.length = length
        self.possible_agents = ["player_0", "player_1"]
        self._observation = np.zeros((2, 81), dtype=np.int8)
        self._mask = np.zeros(81, dtype=np.int8)
        self._mask[:9] = 1

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = "player_0"
        self._steps = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self._observation.copy(), "action_mask": self._mask.copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        if self._steps >= self.length:
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = "player_1" if agent == "player_0" else "player_0"


def pettingzoo_runner(game_id: str, env: AECEnv | None = None) -> Callable[[], int]:
    env = pettingzoo_env(game_id) if env is None else env
    rng = random.Random(1)

    def run() -> int:
        env.reset()
        steps = 0
        for _ in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        return steps

    return run


def mask_runner(game_id: str) -> Callable[[], int]:
    """The agent's mask handling alone, on the masks of a few recorded games."""
    env = pettingzoo_env(game_id)
    rng = random.Random(1)
    masks = []
    for _ in range(5):
        env.reset()
        for _ in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            masks.append(obs["action_mask"])
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))

    def run() -> int:
        for mask in masks:
            np.flatnonzero(mask).tolist()
        return len(masks)

    return run


def alternate(
    ours: Callable[[], int], reference: Callable[[], int] | None, rounds: int, seconds: float
) -> tuple[list[float], float | None, float | None]:
    """The rates of ``ours``, and the median rate of ``reference`` and per-round ratio."""
    rates, refs, ratios = [], [], []
    for _ in range(rounds):
        if reference is not None:
            refs.append(steps_per_second(reference, seconds))
        rates.append(steps_per_second(ours, seconds))
        if reference is not None:
            ratios.append(rates[-1] / refs[-1])
    if reference is None:
        return rates, None, None
    return rates, statistics.median(refs), statistics.median(ratios)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="timed pairs per line")
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one timed round")
    parser.add_argument("--jax-only", action="store_true", help="only the JAX environments")
    args = parser.parse_args([] if argv is None else argv)
    if not args.jax_only:
        _numpy_envs(args)
        print()
    _jax_envs(args)


def _jax_envs(args: argparse.Namespace) -> None:
    try:
        import jax_envs  # a sibling: benchmarks/
    except ImportError as missing:
        print(f"## JAX environments: not run ({missing}; pip install 'sansu[jax]' pgx)")
        return
    jax_envs.main(args.rounds, max(args.seconds, 1.0))


def _numpy_envs(args: argparse.Namespace) -> None:
    reference = openspiel_runner()
    print(
        "## VectorEnv random legal play, steps/s on one core"
        f" ({args.rounds} pairs of {args.seconds:g} s rounds, in alternation with OpenSpiel UTTT)"
    )
    if reference is None:
        print("OpenSpiel not installed: no reference (pip install open_spiel)")
    for game_id in VectorEnv.GAMES:
        for batch in BATCHES:
            rates, ref, ratio = alternate(
                vector_runner(game_id, batch), reference, args.rounds, args.seconds
            )
            rate, best = statistics.median(rates), max(rates)
            line = (
                f"{game_id:10} batch {batch:5}   {rate / 1e6:6.2f} M steps/s"
                f" (best round {best / 1e6:6.2f} M)"
            )
            if ref is not None and ratio is not None:
                line += f"   OpenSpiel UTTT {ref / 1e6:5.2f} M   ratio {ratio:6.1f}×"
            target = TARGETS.get((game_id, batch))
            if target is not None:
                line += (
                    f"   target ≥ {target / 1e6:g} M: median {_verdict(rate >= target)},"
                    f" best round {_verdict(best >= target)}"
                )
            print(line, flush=True)
    print()
    print("## PettingZoo masked random loop against the engine's own random play, steps/s")
    print(native.describe())
    null = statistics.median(
        steps_per_second(pettingzoo_runner("uttt", NullEnv()), args.seconds) for _ in range(3)
    )
    for game_id in sansu.game_ids():
        rates, engine, ratio = alternate(
            pettingzoo_runner(game_id), engine_runner(game_id), args.rounds, args.seconds
        )
        assert engine is not None and ratio is not None
        masks = statistics.median(
            steps_per_second(mask_runner(game_id), args.seconds / 2) for _ in range(3)
        )
        pz = statistics.median(rates)
        # Seconds a step: the PettingZoo loop's less the mask handling's, over the engine loop's.
        own = (1 / pz - 1 / masks) * engine
        floor = (1 / null + 1 / masks) * engine
        print(
            f"{game_id:10}   PettingZoo {pz:9,.0f}   engine {engine:9,.0f}"
            f"   overhead {1 / ratio:5.2f}× (without the agent's mask handling {own:4.2f}×;"
            f" no-game floor plus that handling {floor:4.2f}×)"
            f"   aim < 2×: {_verdict(1 / ratio < 2)}",
            flush=True,
        )
    _floor(engine_runner("uttt"), args.rounds, args.seconds)


def _floor(reference: Callable[[], int], rounds: int, seconds: float) -> None:
    """PettingZoo's own cost: the same loop on :class:`NullEnv`, against the UTTT engine."""
    rates, engine, ratio = alternate(
        pettingzoo_runner("uttt", NullEnv()), reference, rounds, seconds
    )
    assert engine is not None and ratio is not None
    print(
        f"{'no game':10}   PettingZoo {statistics.median(rates):9,.0f}   (the loop above on an"
        f" AECEnv that plays no game: {1 / ratio:3.1f}× the UTTT engine's time a step)",
        flush=True,
    )


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
