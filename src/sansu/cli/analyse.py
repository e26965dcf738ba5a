"""``sansu analyse``: the engine's review of a game, move by move, with its turning points.

Every position of the record is searched for a fixed number of simulations
from ``--seed``, so the same record gives the same review. Each move shows the
mover's winning chance before and after it, the engine's choice, and a
judgement when the chance dropped: inaccuracy, mistake or blunder (see
``docs/ai.md``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sansu.cli.gameargs import add_game_arguments, position_from_args
from sansu.cli.main import UsageError

DESCRIPTION = """\
Review a game: every position of the record is searched for a fixed number of
simulations from --seed, so the same record gives the same review. Each move
shows the mover's winning chance before and after it, the engine's choice, and
a judgement when the chance dropped: inaccuracy (?!), mistake (?) or blunder (??).
"""

MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="review a game: evaluation of every move and its turning points",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser)
    parser.add_argument(
        "--sims", type=int, default=None, metavar="N",
        help="simulations per position (default: the game's, e.g. 50000 for uttt)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="search seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the review as one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sansu.ai.review import review_game

    if args.record is None and args.moves is None:
        raise UsageError("sansu analyse: give the game to review with --record FILE (or --moves)")
    if args.sims is not None and args.sims <= 0:
        raise UsageError(f"sansu analyse: --sims must be a positive number, not {args.sims}")
    if args.seed < 0:
        raise UsageError(f"sansu analyse: --seed must be 0 or more, not {args.seed}")
    game, _state, moves = position_from_args(args)
    if not moves:
        raise UsageError("sansu analyse: the game has no moves to review")
    from tqdm import tqdm

    with tqdm(
        total=len(moves) + 1,
        desc="analysing",
        unit="position",
        file=sys.stderr,
        leave=False,
        disable=None,  # a bar on a terminal only, not in a pipe or a log
    ) as bar:
        review = review_game(
            game,
            moves,
            simulations=args.sims,
            seed=args.seed,
            progress=lambda done, _total: bar.update(done - bar.n),
        )
    data = review.to_dict()
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(table(data))
    return 0


def _pct(value: float | None) -> str:
    return "   -" if value is None else f"{100 * value:3.0f}%"


def table(data: dict[str, Any]) -> str:
    """The review as text: a line a move, then the turning points."""
    lines = [
        f"{data['game']}: {len(data['moves'])} moves, {data['simulations']} simulations"
        f" a position, seed {data['seed']}",
        "",
        "   #  player  move          before  after   best          judgement",
    ]
    for r in data["moves_reviewed"]:
        best = "" if r["best"] in (None, r["move"]) else r["best"]
        lines.append(
            f"{r['number']:4d}  {r['player']:>6}  {r['move']:<12}  {_pct(r['chance_before'])}"
            f"    {_pct(r['chance_after'])}    {best:<12}  {r['judgement'] or ''}".rstrip()
        )
    final = data["positions"][-1]
    if final["to_move"] is None and final["chances"] is not None:
        lines.append(
            "end: " + ", ".join(f"player {p} {_pct(c)}" for p, c in enumerate(final["chances"]))
        )
    points = [r for r in data["moves_reviewed"] if r["judgement"]]
    lines.append("")
    if not points:
        lines.append("turning points: none")
    else:
        lines.append("turning points:")
        for r in points:
            lines.append(
                f"  {r['number']}. player {r['player']} {r['move']}{MARKS[r['judgement']]}"
                f" {r['judgement']}: {_pct(r['chance_before']).strip()} ->"
                f" {_pct(r['chance_after']).strip()} (best {r['best']})"
            )
    return "\n".join(lines)
