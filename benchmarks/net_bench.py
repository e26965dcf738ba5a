"""The value network: search speed with it, and its ``max`` against the ``max`` before it.

Sections (each measured in this run, on this machine):

* ``speed``: simulations per second at the initial position of Ultimate
  Tic-Tac-Toe and Sansumoku for ``max``'s search with playouts alone
  (``max0``), the shipped ``max`` (a playout and a network evaluation a
  leaf), the network alone (``netmax``: a network evaluation counts as a
  simulation) and half and half (``netmix``), and the best-first search
  (``bestfirst``: a simulation expands one node and values each of its some
  eight children by the network); median of interleaved rounds, and the
  ratios to ``max0``.
* ``match``: the shipped ``max`` (and, with ``--players``, ``netmax`` or
  ``netmix``) against ``max0`` (``max`` as it was before the network, kept as
  a benchmark player) at equal time per move, colours alternating; the score
  with its 95% Wilson interval and the Elo difference. The target:
  ≥ 70% over at least 200 games a game.
  ``--simulations N`` plays at equal simulations instead (reproducible, and
  where the network's gain shows at small budgets; the target is at equal time).

Without shipped weights for a game, ``speed`` times a random network of the
shipped size (the speed does not depend on the weights) and ``match`` says
there is nothing to play.

Usage: ``python benchmarks/net_bench.py [--games N] [--time-ms T] [--jobs J]
[--only speed,match] [--players max,netmax] [--for uttt,sansumoku] [--simulations N]``.
The full match is ``--only match --games 200 --jobs 2 --time-ms 100`` (some
ten minutes per game and player on two cores).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence

import sansu
from sansu.ai.arena import run_series, summarise, tasks
from sansu.ai.levels import LEVELS, benchmark_level, level_for
from sansu.ai.network import NET_GAMES, ValueNet, shipped
from sansu.ai.player import compiled_search

SECTIONS = ("speed", "match")
MATCH_TARGET = 0.70


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def rate(game_id: str, name: str, net: ValueNet, simulations: int) -> float:
    level = level_for(game_id, name) if name in LEVELS else benchmark_level(game_id, name)
    search = compiled_search(game_id, level, net=net)
    state = sansu.load_game(game_id).initial_state()
    start = time.perf_counter()
    stats = search.run(state, simulations=simulations, seed=1)
    return stats.simulations / (time.perf_counter() - start)


def speed(game_ids: Sequence[str], rounds: int = 5, simulations: int = 200_000) -> None:
    names = ("max0", "max", "netmax", "netmix", "bestfirst")
    for game_id in game_ids:
        net = shipped(game_id)
        note = "shipped network" if net is not None else "random network of 128 hidden units"
        net = net or ValueNet.initial(game_id, 128, 0)
        print(f"## {game_id}: simulations per second at the initial position ({note}) — {load()}")
        for name in names:
            rate(game_id, name, net, 2000)  # load the compiled code
        rates: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(rounds):
            for name in names:
                rates[name].append(rate(game_id, name, net, simulations))
        base = statistics.median(rates["max0"])
        for name in names:
            median = statistics.median(rates[name])
            print(f"  {name:9} {median:12,.0f}/s   ×{median / base:.2f} of max0")


def match(
    game_ids: Sequence[str],
    players: Sequence[str],
    games: int,
    time_ms: int,
    jobs: int,
    seed: int,
    simulations: int | None = None,
) -> None:
    from tqdm import tqdm

    for game_id in game_ids:
        if shipped(game_id) is None:
            print(f"## {game_id}: no network is shipped: no match")
            continue
        for name in players:
            budget = f"{simulations:,} simulations" if simulations else f"{time_ms} ms"
            print(f"## {game_id}: {name} against max0, {budget} a move, {games} games — {load()}")

            def bar(it, total, desc=f"{game_id} {name} vs max0"):
                return tqdm(it, total=total, desc=desc, file=sys.stderr, disable=None)

            budget_args = {"simulations": simulations} if simulations else {"time_ms": time_ms}
            todo = tasks(game_id, {}, name, "max0", games, seed=seed, **budget_args)
            s = summarise(name, "max0", run_series(todo, jobs=jobs, progress=bar))
            met = s.rate >= MATCH_TARGET and games >= 200 and not simulations
            verdict = "met" if met else ("not met" if not simulations else "(equal time only)")
            print(f"{s.line()}   target ≥ {100 * MATCH_TARGET:.0f}% over ≥ 200 games: {verdict}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per match")
    parser.add_argument("--time-ms", type=int, default=100, help="time per move in the matches")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the matches")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--simulations", type=int, default=None, help="equal simulations a move instead of time"
    )
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections, comma-separated")
    parser.add_argument("--players", default="max", help="who plays max0 (max, netmax, netmix)")
    parser.add_argument("--for", dest="games_for", default=",".join(NET_GAMES), help="games")
    args = parser.parse_args(list(argv) if argv is not None else [])
    only = set(args.only.split(","))
    if only - set(SECTIONS):
        parser.error(f"unknown sections {', '.join(sorted(only - set(SECTIONS)))}")
    game_ids = args.games_for.split(",")
    if "speed" in only:
        speed(game_ids)
        print()
    if "match" in only:
        match(
            game_ids,
            args.players.split(","),
            args.games,
            args.time_ms,
            args.jobs,
            args.seed,
            args.simulations,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
