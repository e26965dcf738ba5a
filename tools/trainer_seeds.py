"""Finds puzzle seeds for the technique trainer and writes ``src/sansu/sudoku/trainer_seeds.py``.

Generates the puzzles of seeds ``--start`` … ``--start + --count - 1`` with the toolkit's
generator, solves each as the rater does, and notes for every technique whether it is
the next step at some point of the solve. A technique found often enough that an
on-demand search takes under ``--budget`` seconds on average (generating and walking
puzzles until one reaches it) is searched for on demand; for the rest the first
``--keep`` seeds that reach it are shipped. Prints each technique's share of puzzles and
the measured mean time an on-demand search would take.

    python tools/trainer_seeds.py --count 60000

``--measure N`` writes nothing: it times :func:`sansu.sudoku.trainer.exercise` for seeds
0 … N-1 of every offered technique (processor time, so that other work on the machine
does not count) and prints the mean and the slowest.

    python tools/trainer_seeds.py --measure 20
"""

from __future__ import annotations

import argparse
import textwrap
import time
from pathlib import Path

from sansu.sudoku.generator import generate
from sansu.sudoku.rater import LADDER, logical_steps

OUT = Path(__file__).resolve().parents[1] / "src/sansu/sudoku/trainer_seeds.py"
HEADER = '''"""Puzzle seeds whose solve reaches a technique, for :mod:`sansu.sudoku.trainer`.

Written by ``tools/trainer_seeds.py`` ({count} puzzles from seed {start}); do not edit by
hand. ``ON_DEMAND``: techniques common enough to search for on demand (the mean
search took under {budget} s); ``SEEDS``: for the others, generator seeds whose
solve has the technique as its next step at some point.
"""

from __future__ import annotations

from typing import Final

'''


def survey(start: int, count: int) -> tuple[dict[str, list[int]], float]:
    """The seeds reaching each technique, and the mean processor seconds per puzzle (made and
    solved: processor time, so that other work on the machine does not count)."""
    weights = {rung.weight: rung.name for rung in LADDER}
    found: dict[str, list[int]] = {rung.name: [] for rung in LADDER}
    began = time.process_time()
    for source in range(start, start + count):
        puzzle = generate(source)
        for name in {weights[step.weight] for step in logical_steps(puzzle.puzzle)}:
            found[name].append(source)
    return found, (time.process_time() - began) / count


def measure(count: int) -> None:
    """Prints each offered technique's processor time per exercise: mean and slowest."""
    from sansu.sudoku import trainer
    from sansu.sudoku.trainer_seeds import ON_DEMAND

    trainer.exercise("naked-single", 0)  # compiles the solver once, outside the timings
    print(f"{'technique':32} {'source':9} {'mean ms':>8} {'max ms':>8}")
    for technique in trainer.techniques():
        times = []
        for seed in range(count):
            began = time.process_time()
            trainer.exercise(technique.id, seed)
            times.append(time.process_time() - began)
        source = "on demand" if technique.name in ON_DEMAND else "seeds"
        mean, slowest = 1000 * sum(times) / count, 1000 * max(times)
        print(f"{technique.name:32} {source:9} {mean:8.0f} {slowest:8.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--keep", type=int, default=32, help="seeds shipped per technique")
    parser.add_argument("--budget", type=float, default=0.05, help="seconds, on average")
    parser.add_argument("--measure", type=int, metavar="N", help="time N exercises a technique")
    args = parser.parse_args()
    if args.measure:
        measure(args.measure)
        return
    found, per_puzzle = survey(args.start, args.count)
    on_demand, shipped = [], {}
    print(f"{per_puzzle * 1000:.0f} ms per puzzle made and solved")
    for rung in LADDER:
        seeds = found[rung.name]
        share = len(seeds) / args.count
        mean = per_puzzle / share if share else float("inf")
        print(f"{rung.name:32} {share:7.2%} of puzzles, on demand {mean:8.2f} s")
        if mean < args.budget:
            on_demand.append(rung.name)
        elif seeds:
            shipped[rung.name] = tuple(seeds[: args.keep])
    lines = [HEADER.format(count=args.count, start=args.start, budget=args.budget)]
    lines.append("ON_DEMAND: Final = frozenset(\n    {\n")
    lines += [f"        {name!r},\n" for name in on_demand]
    lines.append("    }\n)\n")
    lines.append("SEEDS: Final[dict[str, tuple[int, ...]]] = {\n")
    for name, seeds in shipped.items():
        wrapped = textwrap.wrap(", ".join(map(str, seeds)) + ",", 88)
        lines.append(f"    {name!r}: (\n" + "".join(f"        {w}\n" for w in wrapped) + "    ),\n")
    lines.append("}\n")
    OUT.write_text("".join(lines), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
