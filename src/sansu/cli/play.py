"""``sansu play``: play a game in the terminal, two people taking turns at one keyboard."""

from __future__ import annotations

import argparse
import sys

from sansu.cli.gameargs import game_from_args
from sansu.core.protocol import IllegalMove
from sansu.core.record import GameRecord
from sansu.core.registry import game_ids


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("play", help="play in the terminal", description=__doc__)
    parser.add_argument("game", nargs="?", metavar="GAME", help="game id (asked when omitted)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument(
        "--save", metavar="FILE", help="write the game record here after every move"
    )
    parser.set_defaults(func=run)


HELP = "Type a move (e.g. r5c5, or r5c5=7), 'moves' to list legal moves, 'undo', or 'quit'."


def run(args: argparse.Namespace) -> int:
    from sansu.render import render

    if args.game is None:
        ids = game_ids()
        print("Games: " + ", ".join(ids))
        args.game = _ask("Which game? ").strip() or "uttt"
    game = game_from_args(args)
    color = sys.stdout.isatty()
    record = GameRecord.start(game, players=["human", "human"])
    states = [game.initial_state()]
    print(HELP)
    while True:
        state = states[-1]
        print()
        print(render(state, color=color))
        if state.result is not None:
            return 0
        text = _ask(f"player {state.to_move}> ").strip()
        if text in ("quit", "exit"):
            return 0
        if text in ("help", "?"):
            print(HELP)
            continue
        if text == "moves":
            print(" ".join(sorted(str(m) for m in state.legal_moves())))
            continue
        if text == "undo":
            if len(states) > 1:
                states.pop()
                record.moves.pop()
                if args.save:
                    record.save(args.save)
            continue
        try:
            states.append(state.play(text))
        except IllegalMove as error:
            print(f"Illegal: {error}")
            continue
        record.append(states[-1].last_move)
        if args.save:
            record.save(args.save)


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "quit"
