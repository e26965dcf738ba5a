"""Fit 35's leaf evaluator on self-play games and report how well it predicts held-out games.

    python tools/thirtyfive_fit.py --games 3000 --simulations 1000 --jobs 2 \
        --out src/sansu/ai/weights/thirtyfive.npz

Plays the games (or reads positions saved by an earlier run with ``--data``),
holds out every fifth game, fits the logistic model on the rest and prints the
held-out log-loss against a constant prediction's, per board size group, and
the weights. Reproducible from ``--seed``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from sansu.ai.kernels.thirtyfive_eval import NAMES
from sansu.ai.thirtyfive_eval import fit, log_loss
from sansu.ai.training.thirtyfive_data import generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--data", type=Path, help="positions file: read if it exists, else written")
    parser.add_argument("--out", type=Path, help="write the fitted model here")
    args = parser.parse_args(argv)
    if args.data is not None and args.data.exists():
        with np.load(args.data) as d:
            x, y, g = d["x"], d["y"], d["g"]
    else:
        from tqdm import tqdm

        start = time.perf_counter()
        x, y, g = generate(
            args.games,
            simulations=args.simulations,
            seed=args.seed,
            jobs=args.jobs,
            progress=lambda it, n: tqdm(it, total=n, unit="game", file=sys.stderr),
        )
        print(f"{args.games} games, {len(y)} positions in {time.perf_counter() - start:.0f} s")
        if args.data is not None:
            np.savez(args.data, x=x, y=y, g=g)
    test = g % 5 == 0
    model, train_loss = fit(x[~test], y[~test], l2=args.l2)
    p = model.predict(x[test])
    base = log_loss(np.full(test.sum(), y[~test].mean()), y[test])
    print(f"positions: {(~test).sum()} to fit, {test.sum()} held out")
    held = log_loss(p, y[test])
    print(f"log-loss: fit {train_loss:.4f}, held out {held:.4f} (constant {base:.4f})")
    empty = x[test, NAMES.index("empty")]
    for lo, hi in ((0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.01)):
        sel = (empty >= lo) & (empty < hi)
        decided = sel & (y[test] != 0.5)
        right = np.mean((p[decided] > 0.5) == (y[test][decided] == 1.0))
        print(
            f"  empty {lo:.2f}-{min(hi, 1):.2f}: {sel.sum():6d} positions, log-loss "
            f"{log_loss(p[sel], y[test][sel]):.4f}, winner right {right:.1%}"
        )
    for name, w in zip(NAMES, model.weights, strict=True):
        print(f"  {name:>18} {w:+.3f}")
    print(f"  {'bias':>18} {model.bias[0]:+.3f}")
    if args.out is not None:
        model.save(args.out)
        print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
