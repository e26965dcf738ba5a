"""Computer players: search speed, matches against references, and a round-robin of the levels.

Sections (each measured in this run, on this machine):

* ``speed``: simulations per second at the initial position of Ultimate
  Tic-Tac-Toe, ours (compiled UCT + solver: uniform playouts, ``max``'s, the
  network alone's (``netmax``), and ``max0``'s, the ``max`` before the value
  network and the faster playouts) against OpenSpiel's C++ ``MCTSBot``
  (random-rollout evaluator, uct_c=2); median of several interleaved rounds,
  and the ratio (the target: ≥ 5×, counting network evaluations as
  simulations: ``max`` makes a playout and a network evaluation a simulation).
  Also Sansumoku's rate. Both searches run in this process, timed in CPU
  seconds (``time.process_time``), so that other work on a shared machine
  slows neither's figure.
* ``openspiel``: our ``max`` against OpenSpiel's ``MCTSBot`` in Ultimate
  Tic-Tac-Toe at equal time per move, colours alternating. OpenSpiel splits
  a free move (any open section) into two decisions, section then cell; by
  default its bot gets half the move's time for each (``--openspiel-split
  full``: the whole time for each, twice ours).
* ``flat``: Sansumoku and 35 (``--flat-for GAMES`` chooses) ``max`` against
  flat Monte Carlo given the same time per move.
* ``medium``: Sumodoku and Sudoku Challenge ``max`` against ``medium``
  (``--medium-ms`` for max, a third of it for medium).
* ``levels``: a round-robin of the five levels per game (``sansu match``'s
  machinery); the higher level's score with a 95% Wilson interval.

Every match also reports ``max``'s move times against its budget (the
target: never over by more than 50 ms); the OpenSpiel match reports each
worker process's memory after its first and its last game.

Two cores shared with other work make timings noisy: figures are medians and
the load average is printed with them.

Usage: ``python benchmarks/ai_bench.py [--games N] [--time-ms T] [--jobs J]
[--rr-games N] [--only speed,openspiel,flat,medium,levels] [--all-games]
[--rr-for GAMES] [--flat-for GAMES] [--medium-for GAMES] [--max SETTINGS]``.
The full OpenSpiel match is ``--only openspiel --games 200 --jobs 2``
(about 16 minutes on two cores).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

import sansu
from sansu.ai import LEVELS
from sansu.ai.arena import Outcome, run_series, summarise, tasks, wilson

SECTIONS = ("speed", "openspiel", "flat", "medium", "levels")
SPEED_TARGET = 5.0
OPENSPIEL_TARGET = 0.90
FLAT_TARGET = 0.95
MEDIUM_TARGET = 0.90
OVER_BUDGET_MS = 50


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def ci_text(score: float, n: int) -> str:
    low, high = wilson(score, n)
    return f"{100 * score / n:5.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}%)"


# -- speed -------------------------------------------------------------------------


def our_rate(game_id: str, settings: Any, simulations: int) -> float:
    """Simulations per CPU second of a search with a level's (or an int policy's) settings."""
    return our_rates(game_id, settings, simulations)[0]


def our_rates(game_id: str, settings: Any, simulations: int) -> tuple[float, float]:
    """:func:`our_rate`, and the tree's nodes made per CPU second in the same run (a
    best-first search values each by the network as it makes it)."""
    from sansu.ai.compiled import CompiledSearch
    from sansu.ai.player import compiled_search

    if isinstance(settings, int):
        search = CompiledSearch(game_id, policy=settings)
    else:
        search = compiled_search(game_id, settings)
    state = sansu.load_game(game_id).initial_state()
    start = time.process_time()
    stats = search.run(state, simulations=simulations, seed=1)
    seconds = time.process_time() - start
    return stats.simulations / seconds, stats.nodes / seconds


def openspiel_rate(simulations: int) -> float | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    bot = pyspiel.MCTSBot(
        game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, simulations, 1000, True, 1, False
    )
    state = game.new_initial_state()
    start = time.process_time()
    bot.step(state)
    return simulations / (time.process_time() - start)


def speed(rounds: int = 7) -> dict[str, Any]:
    from sansu.ai.compiled import warm_up

    print("## Simulations per second at the initial position (median of interleaved rounds)")
    print(load())
    warm_up("uttt")
    warm_up("sansumoku")
    from sansu.ai.levels import benchmark_level, level_for

    uttt_max, netmax = level_for("uttt", "max"), benchmark_level("uttt", "netmax")
    both = uttt_max.net_visits > 0 or uttt_max.net > 0
    best_first = uttt_max.bestfirst
    rates: dict[str, list[float]] = {
        "openspiel": [], "uniform": [], "wins": [], "evals": [], "netmax": [], "max0": [],
        "sansumoku": [],
    }  # fmt: skip
    for _ in range(rounds):
        ref = openspiel_rate(20_000)
        if ref is not None:
            rates["openspiel"].append(ref)
        rates["uniform"].append(our_rate("uttt", 0, 200_000))
        if best_first:  # an expansion values some 8 to 81 children: fewer, to the same time
            sims, made = our_rates("uttt", uttt_max, 20_000)
            rates["wins"].append(sims)
            rates["evals"].append(made)
        else:
            rates["wins"].append(our_rate("uttt", uttt_max, 200_000))
        rates["netmax"].append(our_rate("uttt", netmax, 200_000))
        rates["max0"].append(our_rate("uttt", benchmark_level("uttt", "max0"), 200_000))
        rates["sansumoku"].append(our_rate("sansumoku", level_for("sansumoku", "max"), 200_000))
    med = {k: statistics.median(v) for k, v in rates.items() if v}
    rows = [
        ("OpenSpiel MCTSBot, UTTT (C++, random rollouts, uct_c=2)", "openspiel"),
        ("sansu UTTT, uniform playouts", "uniform"),
        ("sansu UTTT, max (see the levels)", "wins"),
        ("sansu UTTT, netmax (the network alone values leaves)", "netmax"),
        ("sansu UTTT, as max0 searches (the max of before)", "max0"),
        ("sansu Sansumoku (max)", "sansumoku"),
    ]
    for label, key in rows:
        if key not in med:
            print(f"{label:58} not measured (pip install open_spiel)")
            continue
        line = f"{label:58} {med[key]:10,.0f} sims/s"
        if "openspiel" in med and key in ("uniform", "wins", "netmax", "max0"):
            ratio = med[key] / med["openspiel"]
            line += f"   {ratio:4.1f}× OpenSpiel"
            if key == "max0":
                line += f" (max: ×{med['wins'] / med['max0']:.2f} of this)"
            elif key == "wins" and both:
                line += " (a playout and a network evaluation each)"
            elif key == "wins" and best_first:
                line += " (best-first: each expands a node, its children valued by the network)"
            else:
                verdict = "met" if ratio >= SPEED_TARGET else "MISSED"
                line += f" (target ≥ {SPEED_TARGET:.0f}×: {verdict})"
        print(line)
        if key == "wins" and (both or best_first) and "openspiel" in med:
            # A playout search's simulation values its leaf by a playout and by the
            # network; a best-first one values every child of the node it expands.
            made = med["evals"] if best_first else 2 * med[key]
            evals = made / med["openspiel"]
            verdict = "met" if evals >= SPEED_TARGET else "MISSED"
            print(f"{'  counting its network evaluations as simulations':58} "
                  f"{made:10,.0f} /s     {evals:4.1f}× OpenSpiel "
                  f"(the target's count; target ≥ {SPEED_TARGET:.0f}×: {verdict})")  # fmt: skip
    print(load())
    return med


# -- against OpenSpiel ---------------------------------------------------------------


def max_player(game: Any, overrides: str, seed: int) -> Any:
    """``max`` of ``game``, with settings changed by ``overrides`` ("playout=1,draw=0.4")."""
    from sansu.ai.levels import level_for, with_settings
    from sansu.ai.player import ComputerPlayer

    try:
        settings = with_settings(level_for(game.id, "max"), overrides)
    except ValueError as error:
        raise SystemExit(f"--max: {error}") from None
    return ComputerPlayer(game, settings, seed=seed)


def openspiel_game(task: dict[str, Any]) -> dict[str, Any]:
    """One game of our ``max`` against OpenSpiel's MCTSBot; our score and our move times."""
    import pyspiel

    index, time_ms, seed = task["index"], task["time_ms"], task["seed"]
    ours = 0 if index % 2 == 0 else 1
    game = sansu.load_game("uttt")
    player = max_player(game, task.get("max", ""), seed=seed * 7919 + index)
    player.warm_up()
    spiel = pyspiel.load_game("ultimate_tic_tac_toe")

    def make_bot(seconds: float, salt: int) -> Any:
        return pyspiel.MCTSBot(
            spiel,
            pyspiel.RandomRolloutEvaluator(1, seed * 104729 + index + salt),
            2.0,
            10**9,
            1000,
            True,
            seed * 31 + index + salt,
            False,
            pyspiel.ChildSelectionPolicy.UCT,
            seconds,
        )

    # A free move is two decisions for OpenSpiel (section, then cell): "even" splits the
    # move's time between them, "full" gives each the whole time (twice ours).
    half = time_ms / 1000.0 / (2 if task["split"] == "even" else 1)
    bot, free_bot = make_bot(time_ms / 1000.0, 0), make_bot(half, 7)
    state = game.initial_state()
    spiel_state = spiel.new_initial_state()
    times: list[float] = []
    while state.result is None:
        free = state.last_move is None or state.is_closed(state.last_move.position)
        if state.to_move == ours:
            start = time.perf_counter()
            move = player.choose(state, time_ms=time_ms).move
            times.append((time.perf_counter() - start) * 1000)
            if free:
                spiel_state.apply_action(move.section)
            spiel_state.apply_action(move.position)
        else:
            if free:
                section = free_bot.step(spiel_state)
                spiel_state.apply_action(section)
                position = free_bot.step(spiel_state)
            else:
                section = state.last_move.position
                position = bot.step(spiel_state)
            spiel_state.apply_action(position)
            move = next(
                m for m in state.legal_moves() if m.section == section and m.position == position
            )
        state = state.play(move)
        assert spiel_state.is_terminal() == (state.result is not None)
    returns = spiel_state.returns()
    if state.result.draw:
        score = 0.5
        assert returns[0] == returns[1]
    else:
        score = 1.0 if state.result.winners == (ours,) else 0.0
        assert returns[state.result.winners[0]] > 0
    return {"index": index, "score": score, "times": times, "plies": state.ply, **memory()}


def against_openspiel(
    games: int, time_ms: int, jobs: int, seed: int, split: str = "even", overrides: str = ""
) -> dict[str, Any] | None:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel not installed: no match (pip install open_spiel)")
        return None
    how = "split over its two decisions" if split == "even" else "for each of its two decisions"
    print(f"## UTTT: max against OpenSpiel MCTSBot, {time_ms} ms per move, {games} games")
    print(f"(a free move: OpenSpiel gets the {time_ms} ms {how})")
    print(load())
    if overrides:
        print(f"(max's settings changed: {overrides})")
    todo = [
        {"index": i, "time_ms": time_ms, "seed": seed, "split": split, "max": overrides}
        for i in range(games)
    ]
    results = _parallel(openspiel_game, todo, jobs, "max vs openspiel")
    score = sum(r["score"] for r in results)
    wins = sum(r["score"] == 1.0 for r in results)
    draws = sum(r["score"] == 0.5 for r in results)
    times = [t for r in results for t in r["times"]]
    verdict = "met" if score / games >= OPENSPIEL_TARGET else "MISSED"
    print(
        f"max vs OpenSpiel: +{wins} ={draws} -{games - wins - draws}, score {ci_text(score, games)}"
        f"   target ≥ {100 * OPENSPIEL_TARGET:.0f}%: {verdict}"
    )
    as_first = [r["score"] for r in results if r["index"] % 2 == 0]
    as_second = [r["score"] for r in results if r["index"] % 2 == 1]
    print(
        f"  moving first {sum(as_first)}/{len(as_first)}, second {sum(as_second)}/{len(as_second)}"
    )
    print(f"  {timing_text(times, time_ms)}")
    print(f"  {memory_text(results)}")
    print(load())
    return {"score": score, "games": games, "times": times}


def memory() -> dict[str, Any]:
    """This process's id, resident memory now and at its peak (MB), and when it was read."""
    with open("/proc/self/statm") as f:
        resident = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"pid": os.getpid(), "rss_mb": resident, "peak_mb": peak, "at": time.monotonic()}


def memory_text(results: Sequence[dict[str, Any]]) -> str:
    """Per worker process (each plays many games in turn): its memory after its first
    game and after its last, which shows whether memory grows over a long match."""
    by_worker: dict[int, list[dict[str, Any]]] = {}
    for r in results:
        by_worker.setdefault(r["pid"], []).append(r)
    parts = []
    for rows in by_worker.values():
        rows.sort(key=lambda r: r["at"])
        first, last = rows[0], rows[-1]
        parts.append(
            f"{len(rows)} games: {first['rss_mb']:.0f} MB after the first,"
            f" {last['rss_mb']:.0f} MB after the last (peak {last['peak_mb']:.0f} MB)"
        )
    return "memory per worker process — " + "; ".join(parts)


def timing_text(times: Sequence[float], budget: float) -> str:
    """Median, 99th percentile and worst time of a move, and how many went over budget + 50."""
    if not times:
        return "no timed moves"
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    over = sum(t > budget + OVER_BUDGET_MS for t in times)
    return (
        f"max's move times: median {statistics.median(times):.0f} ms, 99th percentile"
        f" {p99:.0f} ms, worst {ordered[-1]:.0f} ms (budget {budget:.0f} ms);"
        f" {over} of {len(times)} moves over budget + {OVER_BUDGET_MS} ms"
    )


def _parallel(func: Any, todo: list[dict[str, Any]], jobs: int, desc: str) -> list[Any]:
    from tqdm import tqdm

    if jobs <= 1:
        return [func(t) for t in tqdm(todo, desc=desc, file=sys.stderr, disable=None)]
    import multiprocessing

    # Workers live through the whole match, so their memory shows any growth.
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        it = pool.imap_unordered(func, todo)
        return list(tqdm(it, total=len(todo), desc=desc, file=sys.stderr, disable=None))


# -- flat Monte Carlo and levels -------------------------------------------------------------


def series(
    game_id: str, a: str, b: str, games: int, time_ms: Any, jobs: int, seed: int
) -> list[Outcome]:
    from tqdm import tqdm

    def bar(it: Any, total: int) -> Any:
        return tqdm(it, total=total, desc=f"{game_id} {a} vs {b}", file=sys.stderr, disable=None)

    return run_series(
        tasks(game_id, {}, a, b, games, seed=seed, time_ms=time_ms), jobs=jobs, progress=bar
    )


def against_flat(game_ids: Sequence[str], games: int, time_ms: int, jobs: int, seed: int) -> None:
    for game_id in game_ids:
        print(
            f"## {game_id}: max against flat Monte Carlo, {time_ms} ms per move each, {games} games"
        )
        outcomes = series(game_id, "max", "flat", games, time_ms, jobs, seed)
        s = summarise("max", "flat", outcomes)
        verdict = "met" if s.rate >= FLAT_TARGET else "MISSED"
        print(f"{s.line()}   target ≥ {100 * FLAT_TARGET:.0f}%: {verdict}")
        times = [t for o in outcomes for t in o.times_ms.get("max", [])]
        print(f"  {timing_text(times, time_ms)}")


def against_medium(game_ids: Sequence[str], games: int, max_ms: int, jobs: int, seed: int) -> None:
    """``max`` against ``medium`` where the search runs through the protocol.

    At the levels' own budgets (3 s and 1 s a move) a series takes hours, so
    both are scaled down alike: ``max`` gets ``max_ms`` and ``medium`` a third.
    """
    times = {"max": max_ms, "medium": max_ms // 3}
    for game_id in game_ids:
        print(
            f"## {game_id}: max ({max_ms} ms a move) against medium ({max_ms // 3} ms), "
            f"{games} games — {load()}"
        )
        outcomes = series(game_id, "max", "medium", games, times, jobs, seed)
        s = summarise("max", "medium", outcomes)
        verdict = "met" if s.rate >= MEDIUM_TARGET else "MISSED"
        print(f"{s.line()}   target ≥ {100 * MEDIUM_TARGET:.0f}%: {verdict}")
        # the same ending with different scores counts once
        reasons = Counter(re.sub(r", \d+(–\d+)+$", "", o.reason) for o in outcomes)
        print("  how the games ended: " + "; ".join(f"{n}× {r}" for r, n in reasons.items()))
        times_max = [t for o in outcomes for t in o.times_ms.get("max", [])]
        print(f"  {timing_text(times_max, max_ms)}")


def round_robin(game_ids: Sequence[str], games: int, max_ms: int, jobs: int, seed: int) -> None:
    """Every pair of levels, each at its own budget except for the times set here.

    Ultimate Tic-Tac-Toe and Sansumoku: only ``max`` is held to ``max_ms``.
    The other games would take hours at the levels' default times (seconds
    a move), so ``medium``, ``hard`` and ``max`` get ``max_ms`` / 4, / 2 and
    ``max_ms``, which keeps their order.
    """
    for game_id in game_ids:
        if game_id in ("uttt", "sansumoku"):
            times = {"max": max_ms}
        else:
            times = {"medium": max_ms // 4, "hard": max_ms // 2, "max": max_ms}
        print(f"## {game_id}: round-robin of the levels, {games} games a pair")
        budgets = ", ".join(f"{name} {ms} ms" for name, ms in times.items())
        print(f"(levels at their own budgets, but time per move: {budgets}) — {load()}")
        table: dict[tuple[str, str], str] = {}
        for i, low in enumerate(LEVELS):
            for high in LEVELS[i + 1 :]:
                outcomes = series(game_id, high, low, games, times, jobs, seed)
                s = summarise(high, low, outcomes)
                table[(high, low)] = ci_text(s.score, s.games)
        outcomes = series(game_id, "beginner", "random", games, times, jobs, seed)
        random_line = summarise("beginner", "random", outcomes).line()
        width = 30
        print(f"{'row vs column: row score':26}" + "".join(f"{lv:>{width}}" for lv in LEVELS[:-1]))
        for high in LEVELS[1:]:
            cells = [table.get((high, low), "") for low in LEVELS[:-1]]
            print(f"{high:26}" + "".join(f"{c:>{width}}" for c in cells))
        print(f"and beginner is no random player: {random_line}")


# -- main ---------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games against OpenSpiel and flat MC")
    parser.add_argument("--time-ms", type=int, default=200, help="time per move in those matches")
    parser.add_argument("--rr-games", type=int, default=6, help="games per pair of levels")
    parser.add_argument(
        "--rr-max-ms", type=int, default=500, help="max's time per move in the round-robin"
    )
    parser.add_argument(
        "--medium-ms", type=int, default=900, help="max's time per move against medium"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes for the matches")
    parser.add_argument(
        "--openspiel-split",
        choices=("even", "full"),
        default="even",
        help="OpenSpiel's time on a free move (two decisions): split evenly, or full for each",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--max", default="", help="against OpenSpiel, change max's settings: playout=1,draw=0.4"
    )
    parser.add_argument("--only", default=",".join(SECTIONS), help="sections, comma-separated")
    parser.add_argument(
        "--all-games",
        action="store_true",
        help="also 35, Sumodoku and Sudoku Challenge in the round-robin",
    )
    parser.add_argument(
        "--rr-for", default=None, help="the games of the round-robin, comma-separated"
    )
    parser.add_argument(
        "--flat-for",
        default="sansumoku,thirtyfive",
        help="the games of max against flat MC, comma-separated",
    )
    parser.add_argument(
        "--medium-for",
        default="sumodoku,challenge",
        help="the games of max against medium, comma-separated",
    )
    args = parser.parse_args(list(argv) if argv is not None else [])
    only = set(args.only.split(","))
    unknown = only - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {', '.join(sorted(unknown))} (sections: {SECTIONS})")
    sectioned = ["uttt", "sansumoku"]
    others = ["thirtyfive", "sumodoku", "challenge"] if args.all_games else []
    if "speed" in only:
        speed()
        print()
    if "openspiel" in only:
        against_openspiel(
            args.games, args.time_ms, args.jobs, args.seed, args.openspiel_split, args.max
        )
        print()
    if "flat" in only:
        against_flat(args.flat_for.split(","), args.games, args.time_ms, args.jobs, args.seed)
        print()
    if "medium" in only:
        against_medium(args.medium_for.split(","), args.games, args.medium_ms, args.jobs, args.seed)
        print()
    if "levels" in only:
        chosen = args.rr_for.split(",") if args.rr_for else sectioned + others
        round_robin(chosen, args.rr_games, args.rr_max_ms, args.jobs, args.seed)


if __name__ == "__main__":
    main(sys.argv[1:])
