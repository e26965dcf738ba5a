"""Puzzle mining: candidates proved per second, and puzzles per self-play game.

For each game, a few self-play games (fixed seeds, as ``sansu puzzles mine``
plays them) give the candidate positions (those the game's filter lets
through). Two provers answer the same question for each, "the shortest
forced win within the depth, if any", in alternating rounds:

- the miner's prover (:mod:`sansu.puzzles.prove`: AND-OR search with a
  transposition table);
- the reference, a plain minimax over the protocol without a table
  (``tests/puzzles/plain.py``, the one the slow test re-proves puzzles with).

Both must agree on every candidate. The ratio is the reference's time over
the prover's. Then the whole miner (proof, defence line, themes, rating) runs
over the same games: puzzles per game and candidates per second.

Usage: ``.venv/bin/python benchmarks/puzzles_bench.py [--games N] [--rounds N]
[--depth D] [--json] [GAME ...]`` (depth: each game's mining depth unless given).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from sansu.core.registry import load_game  # noqa: E402
from sansu.puzzles.games import KITS, kit, prover  # noqa: E402
from sansu.puzzles.mine import SELF_PLAY, Miner  # noqa: E402
from sansu.puzzles.sources import self_play  # noqa: E402
from tests.puzzles.plain import forced  # noqa: E402

FIRST_SEED = 7000


def candidates(game_id: str, games: list[list[str]], depth: int) -> list[Any]:
    k = kit(game_id)
    game = load_game(game_id)
    out = []
    for moves in games:
        state = game.initial_state()
        for move in moves:
            state = state.play(move)
            if k.verdict(state) is None and k.worth_trying(state, depth):
                out.append(state)
    return out


def with_prover(game_id: str, states: list[Any], depth: int) -> list[int | None]:
    search = prover(game_id, node_limit=10**9)
    return [search.shortest(s, depth) for s in states]


def with_plain(states: list[Any], depth: int) -> list[int | None]:
    out: list[int | None] = []
    for s in states:
        out.append(next((n for n in range(1, depth + 1) if forced(s, s.to_move, n)), None))
    return out


def bench(game_id: str, count: int, rounds: int, depth: int) -> dict[str, Any]:
    game = load_game(game_id)
    miner = Miner(game_id, depth=depth)
    play = SELF_PLAY.get(game_id, self_play)
    start = time.perf_counter()
    games = [play(game, FIRST_SEED + i, miner.decided) for i in range(count)]
    play_seconds = time.perf_counter() - start
    states = candidates(game_id, games, depth)
    mine_prover, mine_plain = [], []
    for _ in range(rounds):
        t = time.perf_counter()
        a = with_prover(game_id, states, depth)
        mine_prover.append(time.perf_counter() - t)
        t = time.perf_counter()
        b = with_plain(states, depth)
        mine_plain.append(time.perf_counter() - t)
        if a != b:
            raise AssertionError(f"{game_id}: the prover and the plain minimax disagree")
    start = time.perf_counter()
    puzzles = 0
    for i, moves in enumerate(games):
        puzzles += len(miner.mine_game({}, moves, "self-play", FIRST_SEED + i))
    mine_seconds = time.perf_counter() - start
    prover_s, plain_s = statistics.median(mine_prover), statistics.median(mine_plain)
    return {
        "game": game_id,
        "depth": depth,
        "games": count,
        "candidates": len(states),
        "wins": sum(x is not None for x in a),
        "prover_per_s": len(states) / prover_s,
        "plain_per_s": len(states) / plain_s,
        "ratio": plain_s / prover_s,
        "puzzles": puzzles,
        "puzzles_per_game": puzzles / count,
        "mined_candidates_per_s": miner.tally.candidates / mine_seconds,
        "self_play_s_per_game": play_seconds / count,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="self-play games per game")
    parser.add_argument("--rounds", type=int, default=3, help="timed pairs")
    parser.add_argument(
        "--depth", type=int, default=None, help="deepest win (default: the game's mining depth)"
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("names", nargs="*", default=list(KITS), metavar="GAME")
    args = parser.parse_args(argv if argv is not None else [])
    rows = [bench(g, args.games, args.rounds, args.depth or kit(g).depth) for g in args.names]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(
        f"Puzzle mining: candidates proved per second (median of {args.rounds} rounds), "
        "the prover against a plain minimax on the same positions"
    )
    for r in rows:
        print(
            f"  {r['game']:<11} depth {r['depth']}, {r['candidates']:5d} candidates "
            f"({r['wins']} wins) from {r['games']} games: prover {r['prover_per_s']:8.1f}/s, "
            f"plain minimax {r['plain_per_s']:8.1f}/s, ratio {r['ratio']:5.1f}x; mining "
            f"{r['mined_candidates_per_s']:6.1f} candidates/s, {r['puzzles_per_game']:.2f} "
            f"puzzles/game, self-play {r['self_play_s_per_game']:.1f} s/game"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
