"""The Sudoku rater: how often it gets stuck, how it agrees with HoDoKu, and generation speed.

Three parts, each against a reference measured in the same run:

- **stuck**: random unique puzzles (the generator's, half of them symmetric)
  rated; the share the ladder cannot finish, and the level mix. Also the
  compiled rater against the Python reference, timed in alternating rounds.
- **hodoku**: the same puzzles rated by ``hodoku-py`` (a port of HoDoKu);
  agreement on the level, with each disagreement's hardest technique on
  both sides, counted by pair.
- **generate**: unique puzzles at a chosen level per second against QQwing
  (Debian package ``qqwing``, installed here when missing) at the same
  level, in alternating rounds; median, mean and worst round.

Usage: ``.venv/bin/python benchmarks/rater_bench.py [--puzzles N] [--hodoku N]
[--rounds N] [--batch N] [--only stuck|hodoku|generate] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable

from sansu.sudoku import format_grid, generate
from sansu.sudoku.rater import LADDER, LEVELS, Rating, rate

HODOKU_LEVEL = {
    "easy": "easy",
    "medium": "easy",
    "hard": "medium",
    "expert": "hard",
    "extreme": "unfair/extreme",
}
"""Our level → HoDoKu's: HoDoKu has one level for all singles, and puts the
longer chains and almost locked sets (our extreme) in "unfair"."""
STUCK_TARGET = 0.01
EXPERT_TARGET, EASY_TARGET = 2.0, 3.0


def random_puzzles(count: int, first_seed: int = 0) -> list[str]:
    """``count`` random minimal unique puzzles, every other one symmetric."""
    return [
        format_grid(generate(seed, symmetric=seed % 2 == 0).puzzle)
        for seed in range(first_seed, first_seed + count)
    ]


def timed(func: Callable[[], object]) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def summary(values: list[float]) -> dict[str, float]:
    return {"median": statistics.median(values), "mean": statistics.fmean(values)}


# --- stuck ---------------------------------------------------------------------------------


def stuck_part(puzzles: list[str], rounds: int) -> tuple[dict, list[str], list[Rating]]:
    ratings = [rate(p) for p in puzzles]
    stuck = sum(not r.solved for r in ratings)
    levels = Counter(r.level for r in ratings)
    hardest = Counter(r.hardest or "none" for r in ratings)
    chunk = puzzles[: max(50, len(puzzles) // 10)]
    below = [p for p, r in zip(chunk, ratings, strict=False) if r.level != "extreme"]
    speeds: dict[str, tuple[list[float], list[float]]] = {"all": ([], []), "up to expert": ([], [])}
    for _ in range(rounds):  # alternate: compiled, then the Python reference, on the same puzzles
        for name, some in (("all", chunk), ("up to expert", below)):
            ours, reference = speeds[name]
            ours.append(len(some) / timed(lambda s=some: [rate(p) for p in s]))
            reference.append(len(some) / timed(lambda s=some: [rate(p, compiled=False) for p in s]))
    data = {
        "puzzles": len(puzzles),
        "stuck": stuck,
        "stuck_share": stuck / len(puzzles),
        "levels": {level: levels[level] for level in LEVELS},
        "hardest": dict(hardest.most_common()),
        "rating_per_s": {
            name: {
                "compiled": summary(ours) | {"worst": min(ours)},
                "reference": summary(reference) | {"worst": min(reference)},
            }
            for name, (ours, reference) in speeds.items()
        },
    }
    lines = [
        f"stuck: {stuck} of {len(puzzles)} random unique puzzles"
        f" ({100 * stuck / len(puzzles):.2f} %)   target < {100 * STUCK_TARGET:.0f} %"
        f"   {'ok' if stuck < STUCK_TARGET * len(puzzles) else 'MISSED'}",
        "levels: " + ", ".join(f"{lv} {100 * levels[lv] / len(puzzles):.1f} %" for lv in LEVELS),
        "hardest technique: " + ", ".join(f"{name} {n}" for name, n in hardest.most_common()),
    ]
    for name, (ours, reference) in speeds.items():
        some = len(chunk) if name == "all" else len(below)
        lines.append(
            f"rating speed, {name} ({some} puzzles), {rounds} alternating rounds (puzzles/s):"
            f" compiled median {statistics.median(ours):.0f} (worst {min(ours):.0f}),"
            f" Python reference median {statistics.median(reference):.0f}"
            f" (worst {min(reference):.0f}),"
            f" ratio {statistics.median(ours) / statistics.median(reference):.1f}x"
        )
    return data, lines, ratings


# --- hodoku --------------------------------------------------------------------------------


def hodoku_ratings(puzzles: list[str]) -> list[tuple[str, str]]:
    """``(level, hardest technique)`` from hodoku-py for each puzzle."""
    from hodoku import Solver
    from hodoku.config import DEFAULT_CONFIG

    step_level = {
        cfg.solution_type: (cfg.level.value, cfg.base_score) for cfg in DEFAULT_CONFIG.solver_steps
    }
    solver = Solver()
    out = []
    for puzzle in puzzles:
        result = solver.solve(puzzle)
        level = result.level.name.lower() if result.solved else "incomplete"
        hardest = max(result.steps, key=lambda s: step_level.get(s.type, (0, 0)), default=None)
        out.append((level, hardest.type.value if hardest is not None else "none"))
    return out


def agreement(ours: list[Rating], theirs: list[tuple[str, str]]) -> dict:
    """How often the levels agree (ours mapped by :data:`HODOKU_LEVEL`), and why not."""
    same = 0
    table: Counter[tuple[str, str]] = Counter()
    why: Counter[tuple[str, str, str, str]] = Counter()
    for rating, (level, hardest) in zip(ours, theirs, strict=True):
        mapped = HODOKU_LEVEL[rating.level]
        table[(rating.level, level)] += 1
        if level in mapped.split("/"):
            same += 1
        else:
            why[(rating.level, rating.hardest or "none", level, hardest)] += 1
    return {"agree": same, "of": len(ours), "table": table, "why": why}


def hodoku_part(puzzles: list[str], ours: list[Rating]) -> tuple[dict, list[str]]:
    try:
        theirs = hodoku_ratings(puzzles)
    except ImportError as error:
        return {"error": str(error)}, [f"hodoku: not installed ({error}); pip install hodoku-py"]
    found = agreement(ours, theirs)
    share = found["agree"] / found["of"]
    lines = [
        f"hodoku-py: levels agree on {found['agree']} of {found['of']} puzzles"
        f" ({100 * share:.1f} %)"
        " (ours easy and medium = its easy, hard = medium, expert = hard, extreme = unfair or"
        " extreme)",
        "ours -> hodoku: "
        + ", ".join(f"{a}->{b} {n}" for (a, b), n in sorted(found["table"].items())),
        "disagreements (our level, our hardest | its level, its hardest):",
    ]
    for (level, hardest, their_level, their_hardest), n in found["why"].most_common(12):
        lines.append(f"  {n:4d}  {level}, {hardest} | {their_level}, {their_hardest}")
    data = {
        "agree": found["agree"],
        "of": found["of"],
        "share": share,
        "table": {f"{a}->{b}": n for (a, b), n in found["table"].items()},
        "disagreements": [[*key, n] for key, n in found["why"].most_common()],
    }
    return data, lines


# --- generate ------------------------------------------------------------------------------


def qqwing() -> str:
    """The path of QQwing, installing Debian's package if it is missing."""
    path = shutil.which("qqwing")
    if path is None:
        subprocess.run(["apt-get", "install", "-y", "-q", "qqwing"], check=True)
        path = shutil.which("qqwing")
    if path is None:
        raise RuntimeError("qqwing is not installed and apt-get could not install it")
    return path


def _ours(first: int, level: str, batch: int) -> None:
    for seed in range(first, first + batch):
        generate(seed, level)


def _qqwing(command: list[str]) -> None:
    subprocess.run(command, check=True, capture_output=True)


def generate_part(rounds: int, batch: int) -> tuple[dict, list[str]]:
    exe = qqwing()
    data: dict[str, dict] = {}
    lines = [f"generation at a level, {rounds} alternating rounds of {batch} puzzles (puzzles/s):"]
    seed = 10**6
    generate(seed, "easy")  # warm-up: numba caches
    for level, theirs_level, target in (
        ("easy", "easy", EASY_TARGET),
        ("expert", "expert", EXPERT_TARGET),
    ):
        ours, theirs = [], []
        for _ in range(rounds):
            first = seed
            seed += batch
            ours.append(batch / timed(lambda f=first, lv=level: _ours(f, lv, batch)))
            command = [exe, "--generate", str(batch), "--difficulty", theirs_level, "--one-line"]
            theirs.append(batch / timed(lambda c=command: _qqwing(c)))
        ratio = statistics.median(ours) / statistics.median(theirs)
        data[level] = {
            "ours": summary(ours) | {"worst": min(ours)},
            "qqwing": summary(theirs) | {"worst": min(theirs)},
            "ratio": ratio,
            "target": target,
        }
        lines.append(
            f"  {level:<7} ours median {statistics.median(ours):7.1f} mean"
            f" {statistics.fmean(ours):7.1f} worst {min(ours):7.1f} | QQwing {theirs_level}"
            f" median {statistics.median(theirs):7.1f} mean {statistics.fmean(theirs):7.1f}"
            f" worst {min(theirs):7.1f} | ratio {ratio:4.2f}x  target ≥ {target:.0f}x"
            f"  {'ok' if ratio >= target else 'MISSED'}"
        )
    return data, lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=3000, help="random puzzles for stuck")
    parser.add_argument("--hodoku", type=int, default=300, help="of those, rated by hodoku-py")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    parser.add_argument("--batch", type=int, default=40, help="puzzles per generation round")
    parser.add_argument("--only", choices=["stuck", "hodoku", "generate"], action="append")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args([] if argv is None else argv)
    parts = set(args.only or ["stuck", "hodoku", "generate"])

    results: dict[str, object] = {}
    lines = [f"Sudoku rater (ladder of {len(LADDER)} techniques; single core)"]
    ratings: list[Rating] = []
    puzzles: list[str] = []
    if parts & {"stuck", "hodoku"}:
        puzzles = random_puzzles(args.puzzles if "stuck" in parts else args.hodoku)
    if "stuck" in parts:
        data, text, ratings = stuck_part(puzzles, args.rounds)
        results["stuck"] = data
        lines += text
    if "hodoku" in parts:
        sample = puzzles[: args.hodoku]
        ours = ratings[: args.hodoku] if ratings else [rate(p) for p in sample]
        data, text = hodoku_part(sample, ours)
        results["hodoku"] = data
        lines += text
    if "generate" in parts:
        data, text = generate_part(args.rounds, args.batch)
        results["generate"] = data
        lines += text
    print(json.dumps(results, default=str) if args.json else "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
