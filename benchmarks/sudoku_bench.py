"""Sudoku solving, counting and generating, each beside QQwing measured in the same run.

For each puzzle set in ``data/sudoku/`` (``#`` lines are comments) the
benchmark times, in alternating rounds (one round of ours, then one of the
reference, and so on), the whole set solved and counted to two solutions:
ours in one batch call (``solve_many``, ``count_many``) and one call per
puzzle (``solve``, ``count_solutions``), and QQwing (the Debian package
``qqwing``, a subprocess reading the same puzzles; its own timer, which
leaves out the start of the process). Then puzzles generated per second:
plain (unique, symmetric) and at the easy and expert levels, ours against
QQwing's generator at the level of the same name (the two rate puzzles each
their own way). Every line gives puzzles per second as the median, mean and
worst of the rounds (a round of ours repeats the set for at least 0.2 s),
and ours / QQwing as the median of the per-round ratios. The search's
work per puzzle (configurations tried) is printed too: unlike the rates it
does not depend on the machine or its load.

tdoku, the fastest public solver (C++ with SIMD), is not run here: its
figures measured on this machine kind are printed as the published anchor.

Usage: ``.venv/bin/python benchmarks/sudoku_bench.py [--rounds N] [--seconds S]
[--sets NAME ...] [--json]``; ``scripts/bench sudoku`` installs QQwing first.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from sansu.sudoku import (
    CLASSIC,
    count_many,
    count_solutions,
    generate,
    parse_grid,
    solve,
    solve_many,
)
from sansu.sudoku.solver import run_many

DATA = Path(__file__).resolve().parent / "data" / "sudoku"
TDOKU_ANCHOR = {
    "hard20 solve": 46_700.0,
    "hard20 count-2": 18_300.0,
    "1,000-puzzle mix solve": 55_000.0,
}
"""tdoku's puzzles per second on this machine kind (the mix is not this repository's mix1000)."""
TARGETS = {("hard20", "count-2"): 9_000.0, ("mix1000", "solve"): 27_000.0}
"""Our batch rates that the toolkit aims for (puzzles per second)."""
QQWING_TIME = re.compile(r"(\d+) puzzles (?:solved|generated) in ([0-9.e+-]+) seconds")


def load(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def qqwing(arguments: list[str], stdin: str = "") -> float:
    """Puzzles per second of one QQwing run, by QQwing's own timer."""
    done = subprocess.run(
        ["qqwing", *arguments, "--one-line", "--timer"],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
    )
    found = QQWING_TIME.search(done.stdout)
    if found is None:
        raise RuntimeError(f"no timing in QQwing's output: {done.stdout[-200:]!r}")
    count, seconds = int(found.group(1)), float(found.group(2))
    return count / max(seconds, 1e-9)


def timed_rate(func: Callable[[], int], at_least: float = 0.2) -> float:
    """Puzzles per second of ``func`` (which returns how many it did), called for ``at_least`` s."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < at_least or done == 0:
        done += func()
    return done / elapsed


def tries_per_puzzle(puzzles: list[str], limit: int) -> float:
    """The configurations the classic search tries per puzzle: the same on every machine."""
    tries = np.zeros(len(puzzles), dtype=np.int64)
    run_many(np.array([parse_grid(p) for p in puzzles], dtype=np.int8), CLASSIC, limit, tries)
    return float(tries.mean())


class Line:
    """Rates of ours (one or more ways) and of the reference, round by round."""

    def __init__(self, label: str, ours: dict[str, Callable[[], float]], reference) -> None:
        self.label = label
        self.ours = ours
        self.reference = reference
        self.rates: dict[str, list[float]] = {name: [] for name in ours}
        self.rates["QQwing"] = []

    def round(self) -> None:
        for name, func in self.ours.items():
            self.rates[name].append(func())
        if self.reference is not None:
            self.rates["QQwing"].append(self.reference())

    def figures(self) -> dict[str, dict[str, float]]:
        out = {}
        reference = self.rates["QQwing"]
        for name, rates in self.rates.items():
            if not rates:
                continue
            entry = {
                "median": statistics.median(rates),
                "mean": statistics.fmean(rates),
                "worst": min(rates),
            }
            if name != "QQwing" and reference:
                entry["vs_qqwing"] = statistics.median(
                    a / b for a, b in zip(rates, reference, strict=True)
                )
            out[name] = entry
        return out


def solver_lines(name: str, puzzles: list[str], with_qqwing: bool) -> list[Line]:
    n = len(puzzles)
    text = "\n".join(puzzles) + "\n"

    def one_by_one(func: Callable[[str], object]) -> Callable[[], float]:
        def run() -> int:
            for puzzle in puzzles:
                func(puzzle)
            return n

        return lambda: timed_rate(run)

    solve_line = Line(
        f"{name} solve",
        {
            "ours batch": lambda: timed_rate(lambda: len(solve_many(puzzles))),
            "ours per call": one_by_one(solve),
        },
        (lambda: qqwing(["--solve"], text)) if with_qqwing else None,
    )
    count_line = Line(
        f"{name} count-2",
        {
            "ours batch": lambda: timed_rate(lambda: len(count_many(puzzles, limit=2))),
            "ours per call": one_by_one(lambda p: count_solutions(p, limit=2)),
        },
        (lambda: qqwing(["--solve", "--count-solutions"], text)) if with_qqwing else None,
    )
    return [solve_line, count_line]


def generator_lines(seconds: float, with_qqwing: bool) -> list[Line]:
    lines = []
    for level in (None, "easy", "expert"):
        state = {"seed": 0, "qq": 5}

        def ours(level: str | None = level, state: dict = state) -> float:
            made = 0
            start = time.perf_counter()
            while (elapsed := time.perf_counter() - start) < seconds or made == 0:
                generate(state["seed"], difficulty=level)
                state["seed"] += 1
                made += 1
            return made / elapsed

        def reference(level: str | None = level, state: dict = state) -> float:
            rate = qqwing(["--generate", str(state["qq"]), "--difficulty", level or "any"])
            state["qq"] = max(5, round(rate * seconds))  # about `seconds` of work next round
            return rate

        label = f"generate {level or 'unique'}"
        lines.append(Line(label, {"ours": ours}, reference if with_qqwing else None))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per line")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of a generator round")
    parser.add_argument("--sets", nargs="*", help="puzzle sets to run (default: all)")
    parser.add_argument("--no-generate", action="store_true", help="skip the generator lines")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args([] if argv is None else argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds more than 0")

    with_qqwing = shutil.which("qqwing") is not None
    paths = sorted(DATA.glob("*.txt"))
    if args.sets:
        paths = [p for p in paths if p.stem in args.sets]
    lines: list[Line] = []
    work: dict[str, float] = {}
    for path in paths:
        puzzles = load(path)
        solve_many(puzzles)  # warm-up: compiles the kernels on a first run
        count_many(puzzles)
        lines += solver_lines(path.stem, puzzles, with_qqwing)
        work[f"{path.stem} solve"] = tries_per_puzzle(puzzles, 1)
        work[f"{path.stem} count-2"] = tries_per_puzzle(puzzles, 2)
    if not args.no_generate:
        generate(10**6, difficulty="easy")
        lines += generator_lines(args.seconds, with_qqwing)
    for _ in range(args.rounds):
        for line in lines:
            line.round()

    results = {line.label: line.figures() for line in lines}
    if args.json:
        print(json.dumps({"lines": results, "tries": work, "tdoku_anchor": TDOKU_ANCHOR}))
    else:
        print(report(results, work, args.rounds, with_qqwing))
    return 0 if with_qqwing else 1


def report(
    results: dict[str, dict[str, dict[str, float]]], work: dict[str, float], rounds: int, qq: bool
) -> str:
    out = [
        f"Sudoku toolkit vs QQwing, puzzles/s, {rounds} alternating rounds (single core):",
        f"{'line':<24} {'who':<14} {'median':>10} {'mean':>10} {'worst':>10} {'vs QQwing':>10}",
    ]
    for label, entries in results.items():
        for who, e in entries.items():
            ratio = f"{e['vs_qqwing']:9.1f}x" if "vs_qqwing" in e else ""
            out.append(
                f"{label:<24} {who:<14} {e['median']:10.1f} {e['mean']:10.1f}"
                f" {e['worst']:10.1f} {ratio:>10}"
            )
    out.append("configurations tried per puzzle by the classic search (the same on any machine):")
    for label, tries in work.items():
        out.append(f"  {label:<24} {tries:10.1f}")
    if not qq:
        out.append("QQwing is not installed (scripts/bench installs it): no reference this run.")
    out.append("tdoku, published anchor on this machine kind (not run here):")
    for label, rate in TDOKU_ANCHOR.items():
        out.append(f"  {label:<24} {rate:10.0f} /s")
    for (name, what), target in TARGETS.items():
        entry = results.get(f"{name} {what}", {}).get("ours batch")
        if entry:
            verdict = "ok" if entry["median"] >= target else "MISSED"
            out.append(
                f"target: {name} {what} ours batch ≥ {target:.0f} /s:"
                f" median {entry['median']:.0f} /s  {verdict}"
            )
    anchor = results.get("hard20 count-2", {}).get("ours batch")
    if anchor:
        ratio = TDOKU_ANCHOR["hard20 count-2"] / anchor["median"]
        out.append(f"hard20 count-2: tdoku's anchor is {ratio:.2f}x ours (target ≤ 2x)")
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
