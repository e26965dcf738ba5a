"""``sansu puzzles``: list and show the shipped puzzles, and mine new ones.

``mine`` plays or reads games, proves every candidate position by exhaustive
search and appends the new puzzles to a data file (see ``docs/puzzles.md``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

from sansu.cli.gameargs import load_game_id
from sansu.cli.main import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("puzzles", help="puzzles: list, show, mine", description=__doc__)
    commands = parser.add_subparsers(dest="puzzles_command", metavar="ACTION", required=True,
                                     parser_class=type(parser))  # fmt: skip

    listing = commands.add_parser("list", help="list the shipped puzzles of a game")
    listing.add_argument("game", metavar="GAME")
    listing.add_argument("--json", action="store_true", help="one JSON array")
    listing.set_defaults(func=run_list)

    show = commands.add_parser("show", help="draw a puzzle's position and its solution")
    show.add_argument("id", metavar="ID", help="a puzzle id, e.g. uttt-0001")
    show.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    show.set_defaults(func=run_show)

    mine = commands.add_parser("mine", help="mine and prove new puzzles")
    mine.add_argument("game", metavar="GAME")
    mine.add_argument("--games", type=int, default=20, help="games to play or read (default 20)")
    mine.add_argument("--from", dest="source", default=None, metavar="FILE_OR_DB",
                      help="game records (a file or a folder) or a server database URL; "
                           "default: engine self-play")  # fmt: skip
    mine.add_argument("--seed", type=int, default=1, help="the first self-play game's seed")
    mine.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="the puzzle file to append to (default: the shipped one)",
    )
    mine.add_argument(
        "--depth",
        type=int,
        default=None,
        help="the deepest forced win searched, in the learner's moves",
    )
    mine.add_argument("--jobs", type=int, default=1, help="processes mining at once (default 1)")
    mine.add_argument(
        "--until", type=int, default=None, metavar="N", help="stop once the file holds N puzzles"
    )
    mine.set_defaults(func=run_mine)


def _game_id(text: str) -> str:
    from sansu.puzzles.games import KITS

    game_id = load_game_id(text)
    if game_id not in KITS:
        raise UsageError(f"no puzzles for {game_id!r} (games with puzzles: {', '.join(KITS)})")
    return game_id


def run_list(args: argparse.Namespace) -> int:
    from sansu.puzzles import shipped

    puzzles = shipped(_game_id(args.game))
    if args.json:
        print(json.dumps([p.to_dict() for p in puzzles], ensure_ascii=False))
        return 0
    for p in puzzles:
        print(f"{p.id}  {p.rating:5.0f}  {', '.join(p.themes)}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    from sansu.core.registry import load_game
    from sansu.puzzles import shipped
    from sansu.render import render

    game_id, _, number = args.id.strip().rpartition("-")
    if not number.isdigit():
        raise UsageError(f"{args.id!r} is no puzzle id (ids read like uttt-0001)")
    game_id = _game_id(game_id)
    puzzle = next((p for p in shipped(game_id) if p.id == args.id.strip()), None)
    if puzzle is None:
        raise UsageError(f"no puzzle {args.id!r} (see: sansu puzzles list {game_id})")
    state = load_game(game_id, **puzzle.options).play_moves(puzzle.moves)
    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    print(render(state, color=color))
    print(
        f"{puzzle.id}: the side to move wins; rating {puzzle.rating:.0f}; "
        f"{', '.join(puzzle.themes)}"
    )
    print("solution: " + " ".join(puzzle.solution))
    return 0


def run_mine(args: argparse.Namespace) -> int:
    from sansu.puzzles import DATA
    from sansu.puzzles.mine import run
    from sansu.puzzles.sources import stored_games

    game_id = _game_id(args.game)
    if args.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {args.jobs}")
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.depth is not None and not 1 <= args.depth <= 4:
        raise UsageError(f"--depth must be 1 to 4, not {args.depth}")
    out = Path(args.out) if args.out else DATA / f"{game_id}.json"
    stored = None
    if args.source is not None:
        games = stored_games(args.source, game_id)
        try:
            first = next(games, None)
        except ValueError as error:
            raise UsageError(str(error)) from None
        stored = itertools.chain([] if first is None else [first], games)
    try:
        tally = run(game_id, out, games=args.games, seed=args.seed, depth=args.depth,
                    stored=stored, until=args.until, jobs=args.jobs)  # fmt: skip
    except ValueError as error:
        raise UsageError(str(error)) from None
    print(f"{tally.puzzles} new puzzles from {tally.games} games in {tally.seconds:.0f} s "
          f"({tally.candidates} candidates, {tally.proved} forced wins) -> {out}",
          file=sys.stderr)  # fmt: skip
    return 0
