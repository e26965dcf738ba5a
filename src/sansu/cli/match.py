"""``sansu match``: two computer players play a series; the score with a 95% confidence interval.

Colours alternate from game to game (in games of more players the first
player's seat rotates and the second player takes every other seat). Games
run in parallel on ``--jobs`` processes; a progress bar goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from sansu.cli.gameargs import add_game_arguments, game_from_args
from sansu.cli.main import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "match", help="a series between two computer players", description=__doc__
    )
    add_game_arguments(parser, positions=False)
    parser.add_argument(
        "a",
        metavar="LEVEL_A",
        help="first player: beginner, easy, medium, hard, max, flat, random, max0, netmax,"
        " netmix, bestfirst; a level with changed settings: max:playout=38,c_uct=0.6",
    )
    parser.add_argument("b", metavar="LEVEL_B", help="second player, likewise")
    parser.add_argument("--games", "-n", type=int, default=10, help="number of games (default 10)")
    parser.add_argument(
        "--time-ms",
        type=int,
        default=None,
        help="thinking time per move for both (default: each level's own)",
    )
    parser.add_argument(
        "--simulations",
        type=int,
        default=None,
        help="simulations per move for both, instead of time (reproducible)",
    )
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        help="processes to use (default: the number of cores)",
    )
    parser.add_argument(
        "--opening",
        type=int,
        default=0,
        help="random plies that start each game, the same for both colours of a pair"
        " (default 0: players that search without chance then replay one game)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the series (default 0)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--games-out",
        metavar="FILE",
        help="write every game (seats, moves, result) to this JSON file",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sansu.ai.arena import check_player_name, make_player, run_series, summarise, tasks

    game = game_from_args(args)
    try:
        a, b = check_player_name(args.a), check_player_name(args.b)
        for name in (a, b):  # a player this game cannot have is refused before any game
            make_player(game, name, seed=0)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.opening < 0:
        raise UsageError(f"--opening must not be negative, not {args.opening}")
    for name in ("games", "time_ms", "simulations", "jobs"):
        value = getattr(args, name)
        if value is not None and value <= 0:
            raise UsageError(f"--{name.replace('_', '-')} must be positive, not {value}")
    jobs = args.jobs or os.cpu_count() or 1
    task_list = tasks(
        game.id,
        game.options,
        a,
        b,
        args.games,
        seed=args.seed,
        time_ms=args.time_ms,
        simulations=args.simulations,
        opening=args.opening,
    )
    outcomes = run_series(task_list, jobs=min(jobs, args.games), progress=_progress(a, b))
    summary = summarise(a, b, outcomes)
    if args.games_out:
        with open(args.games_out, "w", encoding="utf-8") as out:
            json.dump([o.__dict__ for o in outcomes], out, indent=1)
    slow: dict[str, float] = {}
    spent: dict[str, list[float]] = {}
    for o in outcomes:
        for name, ms in o.slowest_ms.items():
            slow[name] = max(slow.get(name, 0.0), ms)
        for name, times in o.times_ms.items():
            spent.setdefault(name, []).extend(times)
    mean = {k: sum(v) / len(v) for k, v in spent.items() if v}
    if args.json:
        print(
            json.dumps(
                {
                    "game": game.id,
                    **summary.to_dict(),
                    "slowest_move_ms": {k: round(v, 1) for k, v in slow.items()},
                    "mean_move_ms": {k: round(v, 1) for k, v in mean.items()},
                }
            )
        )
        return 0
    print(summary.line())
    print("slowest move: " + ", ".join(f"{k} {v:.0f} ms" for k, v in sorted(slow.items())))
    # Two players given the same time a move may spend it differently (quick moves, overruns).
    print("mean move: " + ", ".join(f"{k} {v:.1f} ms" for k, v in sorted(mean.items())))
    return 0


def _progress(a: str, b: str):
    def wrap(iterable, total):
        from tqdm import tqdm

        return tqdm(
            iterable, total=total, desc=f"{a} vs {b}", unit="game", file=sys.stderr, disable=None
        )

    return wrap
