"""Calibrates the computer levels' published ratings: games between the levels of each
game, fitted to one rating per level, anchored at ``medium`` = 1500.

Games go where they decide the order: every pair of neighbouring levels plays ``--games``
games (colours alternating), pairs two levels apart half as many, pairs further apart a
quarter (``schedule``). They are played at the levels' own settings on ``--jobs``
processes, and each finished game is appended at once to a log (``--log``, one JSON line a
game): a run stopped by ``--minutes`` or by hand goes on where it stopped when started
again with the same arguments, and ``--pairs medium-hard`` plays one head-to-head into
the same log. The ratings are the Bradley–Terry maximum-likelihood fit on the Elo scale
(a draw counts half a win for each side) over every game of the log played at the same
clock, with one virtual draw between neighbouring levels so that a level that won every
game gets a finite rating; the 95% intervals come from the fit's Fisher information,
relative to the anchor. The result is written to ``src/sansu/server/ratings/levels.json``,
which the server publishes.

Clocks (``--clock``): ``own`` (each level's own time and simulation limits, as a
player meets them), ``budget`` (a level with a simulation budget plays all of it, however
busy the machine; ``max``, which has none, keeps its own time: a loaded machine can only
weaken it, so an order found so holds on a quiet one; ``budget,max=N``: ``max`` too plays a
fixed budget, the ``N`` simulations its own time gives it on a quiet machine), or a cap in
milliseconds (``300``: what a server started with ``--computer-time-ms 300`` plays).

    python tools/calibrate_levels.py --games 40 --jobs 2 --clock budget --minutes 60
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from sansu.ai.arena import run_one, summarise, tasks
from sansu.ai.levels import LEVELS, level_for

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src/sansu/server/ratings/levels.json"
LOG = ROOT / "benchmarks/data/levels/games.jsonl"
GAMES = ("uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive")
ANCHOR, ANCHOR_RATING = "medium", 1500.0
ELO = 400.0 / math.log(10.0)
"""Elo points per natural-log unit of strength."""
UNTIMED_MS = 10**7
"""A move's clock under ``--clock budget``: long enough never to stop a budgeted search."""


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


def schedule(levels: Iterable[str], games: int) -> dict[tuple[str, str], int]:
    """Games per pair (lower level first): ``games`` for neighbours, half as many two
    levels apart, a quarter further apart (at least 2, one with each colour)."""
    names = list(levels)
    plan = {}
    for i, a in enumerate(names):
        for j in range(i + 1, len(names)):
            share = {1: games, 2: games // 2}.get(j - i, games // 4)
            plan[(a, names[j])] = max(2, share + share % 2)
    return plan


def interleave(plan: dict[tuple[str, str], int]) -> Iterator[tuple[str, str, int]]:
    """Every pair's games in an order where each pair has played about the same share of
    its games at any moment, so that a run stopped early is still balanced."""
    games = [(i / n, a, b, i) for (a, b), n in plan.items() for i in range(n)]
    for _, a, b, i in sorted(games, key=lambda t: (t[0], -plan[(t[1], t[2])])):
        yield a, b, i


def clock_ms(game: str, clock: str) -> dict[str, int]:
    """Each level's move clock under ``clock`` (a level left out plays its own)."""
    if clock == "own":
        return {}
    if clock.startswith("budget"):
        names = [n for n in LEVELS if level_for(game, n).simulations is not None]
        if player("max", clock) != "max":
            names.append("max")
        return {player(n, clock): UNTIMED_MS for n in names}
    cap = int(clock)
    return {n: min(level_for(game, n).time_ms, cap) for n in LEVELS}


def player(level: str, clock: str) -> str:
    """The arena's name of ``level`` under ``clock`` (``max:simulations=N`` for
    ``budget,max=N``)."""
    budget = clock.partition(",max=")[2]
    return f"max:simulations={int(budget)}" if level == "max" and budget else level


def read_log(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def key(entry: dict[str, Any]) -> tuple[Any, ...]:
    """What names a logged game: budget clocks that differ only in ``max``'s budget play
    the same games between two other levels (the same seeds, move for move)."""
    clock = entry["clock"]
    if clock.startswith("budget") and "max" not in (entry["a"], entry["b"]):
        clock = "budget"
    return entry["game"], clock, entry["seed"], entry["a"], entry["b"], entry["index"]


def pending(
    game: str, plan: dict[tuple[str, str], int], clock: str, seed: int, done: set[tuple]
) -> list[dict[str, Any]]:
    """The arena's tasks of ``plan`` in ``game`` that the log has not played (``done``:
    the logged games' keys), in the order of :func:`interleave`."""
    clocks = clock_ms(game, clock)
    todo = []
    for a, b, i in interleave(plan):
        if key({"game": game, "clock": clock, "seed": seed, "a": a, "b": b, "index": i}) in done:
            continue
        task = tasks(game, {}, player(a, clock), player(b, clock), 1, seed=seed, time_ms=clocks)[0]
        task.update(index=i, clock=clock, level_a=a, level_b=b)
        todo.append(task)
    return todo


def play(jobs_: list[dict[str, Any]], jobs: int, log: Path, deadline: float) -> int:
    """Play ``jobs_`` on ``jobs`` processes, appending each game to ``log`` as it ends;
    stops at ``deadline`` (``time.monotonic()``), dropping the games in progress."""
    import multiprocessing

    log.parent.mkdir(parents=True, exist_ok=True)
    done = 0
    context = multiprocessing.get_context("spawn")
    with context.Pool(max(1, jobs)) as pool, log.open("a") as out:
        for task, outcome in pool.imap_unordered(_timed, jobs_):
            median = {n: round(statistics.median(t)) for n, t in outcome.times_ms.items() if t}
            entry = {k: task[k] for k in ("game", "clock", "seed", "index")}
            entry.update(a=task["level_a"], b=task["level_b"])
            entry.update(
                score=outcome.score, plies=outcome.plies, reason=outcome.reason,
                seconds=round(task["seconds"], 1), median_move_ms=median,
                load=round(os.getloadavg()[0], 2),
            )  # fmt: skip
            out.write(json.dumps(entry) + "\n")
            out.flush()
            done += 1
            print(f"{task['game']} {entry['a']}-{entry['b']} #{task['index']}: {outcome.score}",
                  file=sys.stderr)  # fmt: skip
            if time.monotonic() > deadline:
                pool.terminate()
                break
    return done


def _timed(task: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """One game in a worker process, with its wall-clock time."""
    started = time.monotonic()
    outcome = run_one(task)
    return {**task, "seconds": time.monotonic() - started}, outcome


def summary(game: str, clock: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The fit of ``game``'s logged games at ``clock``, with each pair's score."""
    levels = list(LEVELS)
    n = len(levels)
    scores, played = np.zeros((n, n)), np.zeros((n, n))
    pairs: dict[str, Any] = {}
    unique = {key(e): e for e in entries if e["game"] == game and same_clock(e, clock)}
    mine = list(unique.values())
    for a, b in sorted({(e["a"], e["b"]) for e in mine}, key=lambda p: levels.index(p[0])):
        rows = [e for e in mine if (e["a"], e["b"]) == (a, b)]
        result = summarise(a, b, [_Score(e["score"]) for e in rows]).to_dict()
        i, j = levels.index(a), levels.index(b)
        scores[i, j] += result["score"]
        scores[j, i] += result["games"] - result["score"]
        played[i, j] += result["games"]
        played[j, i] += result["games"]
        result["seconds"] = round(sum(e["seconds"] for e in rows))
        result["load"] = [min(e["load"] for e in rows), max(e["load"] for e in rows)]
        pairs[f"{a}-{b}"] = {k: v for k, v in result.items() if k not in ("a", "b")}
    out = fit(levels, scores, played)
    out.update(games=int(played.sum() // 2), seconds=sum(p["seconds"] for p in pairs.values()))
    out["seeds"] = sorted({e["seed"] for e in mine})
    out["pairs"] = pairs
    return out


def same_clock(entry: dict[str, Any], clock: str) -> bool:
    """Whether ``entry``'s game was played as at ``clock``: the same clock, or two budget
    clocks that differ only in ``max``'s budget, in a game without ``max``."""
    if entry["clock"] == clock:
        return True
    budgets = entry["clock"].startswith("budget") and clock.startswith("budget")
    return budgets and "max" not in (entry["a"], entry["b"])


class _Score:
    """A logged game seen as an arena outcome (its score is all ``summarise`` reads)."""

    def __init__(self, score: float) -> None:
        self.score = score


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per neighbouring pair")
    parser.add_argument("--clock", default="own", help="own, budget or a cap in ms")
    parser.add_argument("--jobs", type=int, default=2, help="processes playing games")
    parser.add_argument("--minutes", type=float, help="stop starting games after this long")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="*", choices=GAMES, help="calibrate these games only")
    parser.add_argument("--pairs", nargs="*", help="play only these pairs (medium-hard)")
    parser.add_argument("--fit-only", action="store_true", help="write the fit, play nothing")
    parser.add_argument("--log", type=Path, default=LOG)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    budget = args.clock.partition(",max=")
    if not (
        args.clock in ("own", "budget")
        or args.clock.isdigit()
        or (budget[0] == "budget" and budget[2].isdigit() and int(budget[2]) > 0)
    ):
        parser.error("--clock is own, budget, budget,max=N or a number of milliseconds")
    games = args.only or GAMES
    deadline = time.monotonic() + 60 * args.minutes if args.minutes else math.inf
    if args.pairs:
        pairs = [tuple(s.split("-")) for s in args.pairs]
        if not all(len(p) == 2 and p[0] in LEVELS and p[1] in LEVELS and p[0] != p[1]
                   for p in pairs):  # fmt: skip
            parser.error("--pairs names two levels, lower first: medium-hard")
        plan = {p: args.games for p in pairs}
    else:
        plan = schedule(LEVELS, args.games)
    if not args.fit_only:
        done = {key(e) for e in read_log(args.log)}
        todo = [t for game in games for t in pending(game, plan, args.clock, args.seed, done)]
        print(f"{len(todo)} games to play", file=sys.stderr)
        play(todo, args.jobs, args.log, deadline)
    data = json.loads(args.out.read_text()) if args.out.is_file() else {"games": {}}
    entries = read_log(args.log)
    data.update(
        anchor={"level": ANCHOR, "rating": ANCHOR_RATING},
        method="games between the levels, most between neighbours; Bradley-Terry fit on the"
        " Elo scale with one virtual draw between neighbouring levels; 95% intervals relative"
        " to the anchor",
    )
    for game in games:
        data["games"][game] = {
            **summary(game, args.clock, entries),
            "clock": args.clock,
        }
        print(game, json.dumps(data["games"][game]["ratings"]), file=sys.stderr)
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
