"""``sansu show``: print a position as a board, or as JSON for programs."""

from __future__ import annotations

import argparse
import json
import sys

from sansu.cli.gameargs import add_game_arguments, position_from_args


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("show", help="show a position", description=__doc__)
    add_game_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--reveal",
        action="store_true",
        help="include hidden information (e.g. a Sudoku Challenge solution) in --json",
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the board (default: when writing to a terminal)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _game, state, _moves = position_from_args(args)
    if args.json:
        data = state.to_dict()
        if args.reveal:
            data.update(getattr(state, "hidden_json", dict)())
        print(json.dumps(data, ensure_ascii=False))
        return 0
    from sansu.render import render

    color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    print(render(state, color=color))
    return 0
