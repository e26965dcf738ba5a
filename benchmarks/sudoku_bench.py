"""Sudoku solver and generator speed against the targets of the toolkit.

For each puzzle set in ``data/sudoku/`` (hard puzzles, one per line): the
median over puzzles of the time of one ``solve`` and of one
``count_solutions(limit=2)``, each puzzle's time being the median of a few
calls, single-threaded, after a warm-up pass that also compiles the
kernels. Then classic unique puzzles generated per second (symmetric, no
difficulty), median of a few rounds.

Usage: ``.venv/bin/python benchmarks/sudoku_bench.py [--repeat N] [--seconds S] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sansu.sudoku import count_solutions, generate, parse_grid, solve

DATA = Path(__file__).resolve().parent / "data" / "sudoku"
SOLVE_TARGET_US = 250.0
COUNT_TARGET_US = 250.0
GENERATE_TARGET_PER_S = 50.0


def load(path: Path) -> list[tuple[int, ...]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [parse_grid(line) for line in lines if line.strip() and not line.startswith("#")]


def per_puzzle_us(func: Callable[[tuple[int, ...]], object], puzzles, repeat: int) -> list[float]:
    """Each puzzle's median time of ``repeat`` calls, in microseconds."""
    timings = []
    clock = time.perf_counter
    for puzzle in puzzles:
        runs = []
        for _ in range(repeat):
            start = clock()
            func(puzzle)
            runs.append(clock() - start)
        timings.append(statistics.median(runs) * 1e6)
    return timings


def generator_rate(seconds: float, rounds: int = 3) -> float:
    """Median puzzles per second over ``rounds`` rounds of about ``seconds`` each."""
    generate(10**6)
    seed = 0
    rates = []
    for _ in range(rounds):
        made = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            generate(seed)
            seed += 1
            made += 1
        rates.append(made / elapsed)
    return statistics.median(rates)


def verdict(value: float, target: float, at_most: bool) -> str:
    ratio = value / target
    ok = ratio <= 1.0 if at_most else ratio >= 1.0
    return f"ratio {ratio:5.2f}  {'ok' if ok else 'MISSED'}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed calls per puzzle")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of a generator round")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args([] if argv is None else argv)

    results: dict[str, object] = {}
    lines = []
    for path in sorted(DATA.glob("*.txt")):
        puzzles = load(path)
        for puzzle in puzzles:  # warm-up (and compilation on a first run)
            solve(puzzle)
            count_solutions(puzzle, limit=2)
        solve_us = statistics.median(per_puzzle_us(solve, puzzles, args.repeat))
        count_us = statistics.median(
            per_puzzle_us(lambda p: count_solutions(p, limit=2), puzzles, args.repeat)
        )
        results[path.stem] = {"puzzles": len(puzzles), "solve_us": solve_us, "count2_us": count_us}
        lines.append(
            f"{path.stem:<22} solve   median {solve_us:8.1f} µs   target ≤ {SOLVE_TARGET_US:.0f} µs"
            f"   {verdict(solve_us, SOLVE_TARGET_US, True)}"
        )
        lines.append(
            f"{'':<22} count-2 median {count_us:8.1f} µs   target ≤ {COUNT_TARGET_US:.0f} µs"
            f"   {verdict(count_us, COUNT_TARGET_US, True)}"
        )
    per_s = generator_rate(args.seconds)
    results["generate_per_s"] = per_s
    lines.append(
        f"{'generator':<22} unique  {per_s:8.1f} /s   target ≥ {GENERATE_TARGET_PER_S:.0f} /s"
        f"    {verdict(per_s, GENERATE_TARGET_PER_S, False)}"
    )
    if args.json:
        print(json.dumps(results))
    else:
        print(
            "Sudoku toolkit (single core, after warm-up; each puzzle's median of"
            f" {args.repeat} calls, median over the set)"
        )
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
