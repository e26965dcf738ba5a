"""Ultimate Tic-Tac-Toe's exact endgame: what ``max`` does near the end, and what a solve costs.

Sections (each measured in this run, on this machine):

* ``positions``: positions near the end of games between two ``medium``
  players (at most ``--empty`` empty cells in open sections); each move's exact
  worth by the solver, and whether ``max`` without the endgame, at
  ``--time-ms`` a move, plays the best one: the fastest win, the slowest
  loss, a move that keeps the draw.
* ``nodes``: nodes a solve needs by the size of the endgame (empty cells in
  open sections), median and 90th percentile over the same kind of positions,
  and the nodes searched a second.
* ``games FILE NAME``: what the endgame decided in a match's games
  (``sansu match … --games-out FILE``) for the player ``NAME`` (say
  ``max:endgame=24``): in how many games its solve found a win or a loss
  within the node budget of a ``--time-ms`` move, and for each player the
  exact worth of the first position it met of at most ``--empty`` empty cells
  against the game's end.

Usage: ``python benchmarks/endgame_bench.py [--only positions,nodes] [--games N]
[--empty E] [--time-ms T] [--file FILE --name NAME]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence

import numpy as np

import sansu
from sansu.ai import get_player
from sansu.ai.endgame import Endgame
from sansu.ai.kernels import uttt as UK
from sansu.ai.kernels import uttt_endgame as E

SECTIONS = ("positions", "nodes", "games")
OFFLINE_NODES = 30_000_000
"""The budget of an offline solve (positions beyond it are left out)."""


class Solver:
    """Exact scores with one large table."""

    def __init__(self) -> None:
        self.table = E.Table(22)
        self.out = np.empty(81, np.int16)
        self.values = np.empty(81, np.int64)

    def score(self, root: np.ndarray, budget: int = OFFLINE_NODES) -> tuple[int | None, int]:
        n, score, nodes = E.solve(root, budget, *self.table.arrays(), self.out, self.values)
        return (None if n < 0 else int(score)), int(nodes)

    def after(self, state, move) -> int | None:
        """The exact worth of ``move`` for the player making it."""
        nxt = state.play(move)
        if nxt.result is not None:
            return 0 if nxt.result.draw else E.WIN - 1
        value = self.score(UK.from_state(nxt))[0]
        if value is None:
            return None
        return -value - 1 if value < 0 else -value + 1 if value > 0 else 0


def near_the_end(games: int, empty: int, low: int = 1) -> Iterator:
    """Positions of games between two ``medium`` players, of ``low`` to ``empty`` empty cells in
    open sections and more than one move."""
    game = sansu.load_game("uttt")
    for seed in range(games):
        players = [
            get_player("uttt", "medium", seed=seed),
            get_player("uttt", "medium", seed=~seed),
        ]
        state = game.initial_state()
        while state.result is None:
            size = E.open_empty(UK.from_state(state))
            if low <= size <= empty and len(state.legal_moves()) > 1:
                yield state
            move = players[state.to_move].choose(state, simulations=3_000).move
            state = state.play(move)


def positions(games: int, empty: int, time_ms: int) -> None:
    print(f"## max ({time_ms} ms a move) near the end: ≤ {empty} empty cells in open sections")
    solver = Solver()
    tally: Counter[str] = Counter()
    for state in near_the_end(games, empty):
        worth = {str(m): solver.after(state, m) for m in state.legal_moves()}
        if None in worth.values():
            continue
        best = max(v for v in worth.values() if v is not None)
        kind = "won" if best > 0 else "lost" if best < 0 else "drawn"
        played = worth[str(get_player("uttt", "max", seed=1).choose(state, time_ms=time_ms).move)]
        assert played is not None
        tally[kind] += 1
        if played == best:
            tally[f"{kind}: best"] += 1
        elif (played > 0) == (best > 0) and (played < 0) == (best < 0):
            tally[f"{kind}: same outcome, not the soonest (latest)"] += 1
        else:
            tally[f"{kind}: worse outcome"] += 1
    for key in sorted(tally):
        print(f"  {key:45} {tally[key]}")


def nodes(games: int, top: int = 32) -> None:
    print(f"## nodes a solve needs (budget {OFFLINE_NODES:,}), by empty cells in open sections")
    by_size: dict[int, list[int]] = {}
    spent = searched = 0.0
    for state in near_the_end(games, top, low=8):
        root = UK.from_state(state)
        solver = Solver()  # a fresh table: no help from the solves before
        start = time.perf_counter()
        score, count = solver.score(root)
        spent += time.perf_counter() - start
        searched += count
        by_size.setdefault(E.open_empty(root) // 4 * 4, []).append(
            count if score is not None else sys.maxsize
        )
    for size, counts in sorted(by_size.items()):
        counts.sort()
        ninety = counts[int(0.9 * (len(counts) - 1))]
        show = [
            f"{c:,}" if c < sys.maxsize else "unsolved"
            for c in (counts[(len(counts) - 1) // 2], ninety)
        ]
        print(
            f"  {size:2}–{size + 3:2}: {len(counts):3} positions, median {show[0]}, 90% {show[1]}"
        )
    print(f"  {searched / max(spent, 1e-9):,.0f} nodes a second")


def decided(path: str, name: str, empty: int, time_ms: int) -> None:
    print(f"## {path}: what the endgame decided for {name} (≤ {empty} empty cells)")
    game = sansu.load_game("uttt")
    solver = Solver()
    found: Counter[str] = Counter()
    entry: Counter[tuple[str, int, int]] = Counter()
    with open(path, encoding="utf-8") as f:
        records = json.load(f)
    for record in records:
        seats = record["seats"]
        endgame = Endgame(empty)
        first: dict[str, int] = {}
        verdict = "never"
        state = game.initial_state()
        for move in record["moves"]:
            who = seats[state.to_move]
            root = UK.from_state(state)
            if E.open_empty(root) <= empty and len(state.legal_moves()) > 1:
                if who not in first and (score := solver.score(root)[0]) is not None:
                    first[who] = (score > 0) - (score < 0)
                if who == name and verdict == "never":
                    solved = endgame.solve(root, endgame.budget(time_ms, None))
                    if solved is not None and solved.score != 0:
                        verdict = "a win" if solved.score > 0 else "a loss"
            state = state.play(move)
        found[verdict] += 1
        result = state.result
        for seat, who in enumerate(seats):
            if who in first:
                final = 0 if result.draw else 1 if result.winners[0] == seat else -1
                entry[(who, first[who], final)] += 1
    print(
        f"  {len(records)} games; the solve found "
        + ", ".join(f"{k}: {v}" for k, v in found.items())
    )
    words = {1: "won", 0: "drawn", -1: "lost"}
    for (who, start, final), count in sorted(entry.items()):
        print(f"  {who:20} entered {words[start]:5} → {words[final]:5}: {count}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games to draw positions from")
    parser.add_argument("--empty", type=int, default=22, help="most empty cells in open sections")
    parser.add_argument("--time-ms", type=int, default=100, help="time (or budget) of a move")
    parser.add_argument("--only", default="positions,nodes", help="sections, comma-separated")
    parser.add_argument("--file", help="a match's --games-out file (section games)")
    parser.add_argument("--name", default="max:endgame=24", help="the player with the endgame")
    args = parser.parse_args(list(argv) if argv is not None else [])
    only = set(args.only.split(","))
    if only - set(SECTIONS):
        parser.error(f"unknown sections {', '.join(sorted(only - set(SECTIONS)))}")
    if "positions" in only:
        positions(args.games, args.empty, args.time_ms)
    if "nodes" in only:
        nodes(args.games)
    if "games" in only:
        if not args.file:
            parser.error("the games section needs --file")
        decided(args.file, args.name, args.empty, args.time_ms)


if __name__ == "__main__":
    main(sys.argv[1:])
