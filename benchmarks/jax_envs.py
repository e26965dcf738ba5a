"""Speed of the pure-JAX environments against Pgx's, in one run (part of ``envs_bench.py``).

Each environment plays random legal games at batch 1024, ``jit`` + ``vmap``:
one compiled call makes ``STEPS`` steps (a ``lax.scan`` of a random legal
action, the step, and a new game wherever one ended), the same loop for
sansu's Ultimate Tic-Tac-Toe, Sansumoku and 35 (8 × 8), Pgx's tic-tac-toe
and connect four. The three
are timed in alternation, round after round, and each line gives the median
rate (with the best round beside it), counted in the process's CPU time
(XLA may use both cores) and in wall time. Compile time is not timed.

Then the same on a GPU, if JAX sees one: the devices are printed either way.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import jax

from sansu.envs.jax import make, random_action
from sansu.envs.jax.core import select

BATCH = 1024
STEPS = 64


def _reference(env_id: str) -> Any | None:
    try:
        import pgx
    except ImportError:
        return None
    return pgx.make(env_id)


def runner(env: Any, batch: int, device: Any) -> Callable[[], int]:
    """A call that makes ``STEPS`` steps of ``batch`` random games on ``device``; it returns
    the steps made."""
    init, step = jax.vmap(env.init), jax.vmap(env.step)

    def one(carry: tuple[Any, jax.Array], _: None) -> tuple[tuple[Any, jax.Array], None]:
        state, key = carry
        key, pick, fresh = jax.random.split(key, 3)
        state = step(state, random_action(pick, state.legal_action_mask))
        new = init(jax.random.split(fresh, batch))
        state = select(state.terminated, new, state)
        return (state, key), None

    @jax.jit
    def run(carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
        return jax.lax.scan(one, carry, None, length=STEPS)[0]

    with jax.default_device(device):
        key = jax.random.PRNGKey(0)
        holder = [(init(jax.random.split(key, batch)), key)]
        jax.block_until_ready(run(holder[0]))  # compile

    def call() -> int:
        holder[0] = jax.block_until_ready(run(holder[0]))
        return STEPS * batch

    return call


def rates(run: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Steps per second of CPU time and of wall time, over about ``seconds`` of wall time."""
    steps = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.perf_counter() - wall < seconds:
        steps += run()
    return steps / (time.process_time() - cpu), steps / (time.perf_counter() - wall)


def compare(device: Any, batch: int, rounds: int, seconds: float) -> None:
    """Time sansu's UTTT and Pgx's two games in alternation on ``device``."""
    envs = {
        "sansu uttt": make("uttt"),
        "sansu sansumoku": make("sansumoku"),
        "sansu thirtyfive": make("thirtyfive"),
    }
    for env_id in ("tic_tac_toe", "connect_four"):
        reference = _reference(env_id)
        if reference is None:
            print("Pgx not installed: no reference (pip install pgx)")
            break
        envs[f"pgx {env_id}"] = reference
    runs = {name: runner(env, batch, device) for name, env in envs.items()}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    wall: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            by_cpu, by_wall = rates(run, seconds)
            cpu[name].append(by_cpu)
            wall[name].append(by_wall)
    base = statistics.median(cpu["sansu uttt"])
    for name in runs:
        median = statistics.median(cpu[name])
        print(
            f"{name:20} batch {batch:5}   {median / 1e6:6.2f} M steps per CPU second"
            f" (best round {max(cpu[name]) / 1e6:6.2f} M)"
            f"   {statistics.median(wall[name]) / 1e6:6.2f} M steps/s wall"
            f"   sansu uttt / this (CPU) {base / median:5.2f}×",
            flush=True,
        )


def main(rounds: int = 5, seconds: float = 1.0) -> None:
    print(
        f"## JAX environments, random legal play, jit + vmap ({rounds} rounds of {seconds:g} s,"
        " in alternation)"
    )
    print("devices:", jax.devices())
    compare(jax.devices("cpu")[0], BATCH, rounds, seconds)
    try:
        gpus = jax.devices("gpu")
    except RuntimeError:
        gpus = []
    if not gpus:
        print("GPU: none found, not run")
        return
    print("GPU:", gpus[0])
    for batch in (BATCH, 16 * BATCH):
        compare(gpus[0], batch, rounds, seconds)


if __name__ == "__main__":
    main()
