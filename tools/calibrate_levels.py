"""Calibrates the computer levels' published ratings: a round-robin between the levels of
each game, fitted to one rating per level, anchored at ``medium`` = 1500.

Every pair of levels plays ``--games`` games (colours alternating) at the levels' own
settings, each move's thinking time capped at ``--time-ms`` (what a server started with
``--computer-time-ms`` does). The ratings are the Bradley–Terry maximum-likelihood fit
on the Elo scale (a draw counts half a win for each side), with one virtual draw between
neighbouring levels so that a level that won every game gets a finite rating; the 95%
intervals come from the fit's Fisher information, relative to the anchor. The result is
written to ``src/sansu/server/ratings/levels.json``, which the server publishes.

    python tools/calibrate_levels.py --games 4 --time-ms 200
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from sansu.ai.arena import run_series, tasks
from sansu.ai.levels import LEVELS, level_for

OUT = Path(__file__).resolve().parents[1] / "src/sansu/server/ratings/levels.json"
GAMES = ("uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive")
ANCHOR, ANCHOR_RATING = "medium", 1500.0
ELO = 400.0 / math.log(10.0)
"""Elo points per natural-log unit of strength."""


def fit(levels: list[str], scores: np.ndarray, games: np.ndarray) -> dict[str, Any]:
    """Bradley–Terry by minorisation–maximisation (Hunter 2004): ``scores[i, j]`` is what
    level i scored against j in ``games[i, j]`` games. Returns ratings and 95% intervals."""
    n = len(levels)
    w, g = scores.astype(float).copy(), games.astype(float).copy()
    for i in range(n - 1):  # the virtual draw between neighbours
        w[i, i + 1] += 0.5
        w[i + 1, i] += 0.5
        g[i, i + 1] += 1
        g[i + 1, i] += 1
    strength = np.ones(n)
    for _ in range(10_000):
        pair = strength[:, None] + strength[None, :]
        new = w.sum(axis=1) / (g / pair).sum(axis=1)
        new /= new[levels.index(ANCHOR)]
        if np.max(np.abs(np.log(new) - np.log(strength))) < 1e-10:
            strength = new
            break
        strength = new
    theta = np.log(strength)
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    info = -(g * p * (1 - p))
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    keep = [i for i in range(n) if levels[i] != ANCHOR]
    cov = np.zeros((n, n))
    cov[np.ix_(keep, keep)] = np.linalg.inv(info[np.ix_(keep, keep)])
    out: dict[str, Any] = {"ratings": {}, "ci95": {}}
    for i, level in enumerate(levels):
        rating = ANCHOR_RATING + ELO * theta[i]
        half = 1.96 * ELO * math.sqrt(max(cov[i, i], 0.0))
        out["ratings"][level] = round(rating)
        out["ci95"][level] = [round(rating - half), round(rating + half)]
    return out


def calibrate(game: str, games: int, time_ms: int, seed: int) -> dict[str, Any]:
    levels = list(LEVELS)
    n = len(levels)
    scores, played = np.zeros((n, n)), np.zeros((n, n))
    started = time.monotonic()
    for a, b in itertools.combinations(range(n), 2):
        caps = {
            levels[k]: min(level_for(game, levels[k]).time_ms or time_ms, time_ms) for k in (a, b)
        }
        outcomes = run_series(
            tasks(game, {}, levels[a], levels[b], games, seed=seed, time_ms=caps), jobs=1
        )
        score = sum(o.score for o in outcomes)
        scores[a, b] += score
        scores[b, a] += len(outcomes) - score
        played[a, b] += len(outcomes)
        played[b, a] += len(outcomes)
        print(f"{game}: {levels[a]} vs {levels[b]}: {score}/{len(outcomes)}", file=sys.stderr)
    result = fit(levels, scores, played)
    result["games"] = int(played.sum() // 2)
    result["seconds"] = round(time.monotonic() - started)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per pair of levels")
    parser.add_argument("--time-ms", type=int, default=200, help="cap on a move's thinking time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", choices=GAMES, help="calibrate these games only")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    data = json.loads(args.out.read_text()) if args.out.is_file() else {"games": {}}
    data.update(
        anchor={"level": ANCHOR, "rating": ANCHOR_RATING},
        method="round-robin between the levels; Bradley-Terry fit on the Elo scale with one"
        " virtual draw between neighbouring levels; 95% intervals relative to the anchor",
        games_per_pair=args.games,
        time_ms_cap=args.time_ms,
        seed=args.seed,
    )
    for game in args.only or GAMES:
        data["games"][game] = calibrate(game, args.games, args.time_ms, args.seed)
        args.out.write_text(json.dumps(data, indent=1) + "\n")
        print(game, data["games"][game], file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
