"""``sansu play``: a game in the terminal: two people at one keyboard, or one against the computer.

With ``--vs LEVEL`` the computer takes every seat but ``--side`` (default 0,
the first player); ``undo`` then takes back the computer's reply too.
"""

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
    parser.add_argument(
        "--vs", metavar="LEVEL", default=None,
        help="play against the computer: beginner, easy, medium, hard or max",
    )  # fmt: skip
    parser.add_argument(
        "--side", type=int, default=0, metavar="N",
        help="with --vs: your seat, 0 (first, the default), 1 (second), ...",
    )  # fmt: skip
    parser.add_argument(
        "--time-ms", type=int, default=None,
        help="with --vs: the computer's thinking time per move",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=None, help="with --vs: the computer's seed")
    parser.set_defaults(func=run)


HELP = "Type a move (e.g. r5c5, or r5c5=7), 'moves' to list legal moves, 'undo', or 'quit'."


def run(args: argparse.Namespace) -> int:
    from sansu.render import render

    if args.game is None:
        ids = game_ids()
        print("Games: " + ", ".join(ids))
        args.game = _ask("Which game? ").strip() or "uttt"
    game = game_from_args(args)
    computer = _computer(game, args)
    color = sys.stdout.isatty()
    names = ["human"] * game.num_players
    if computer is not None:
        names = [f"computer ({args.vs})"] * game.num_players
        names[args.side] = "human"
    record = GameRecord.start(game, players=names)
    states = [game.initial_state()]
    print(HELP)
    while True:
        state = states[-1]
        print()
        print(render(state, color=color))
        if state.result is not None:
            return 0
        if computer is not None and state.to_move != args.side:
            analysis = computer.choose(state, time_ms=args.time_ms)
            print(f"computer plays {analysis.move}  (value {analysis.value:+.2f},"
                  f" {analysis.simulations} simulations)")  # fmt: skip
            states.append(state.play(analysis.move))
            record.append(states[-1].last_move)
            if args.save:
                record.save(args.save)
            continue
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
            # Against the computer, go back to your previous turn (its reply goes too).
            earlier = [
                i for i in range(len(states) - 1)
                if computer is None or states[i].to_move == args.side
            ]  # fmt: skip
            if not earlier:
                print("Nothing to undo.")
                continue
            del states[earlier[-1] + 1 :]
            del record.moves[earlier[-1] :]
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


def _computer(game: object, args: argparse.Namespace) -> object | None:
    """The computer opponent of ``--vs``, or ``None`` for a hot-seat game."""
    from sansu.cli.main import UsageError

    if args.vs is None:
        for flag, value in (("--side", args.side != 0), ("--time-ms", args.time_ms),
                            ("--seed", args.seed)):  # fmt: skip
            if value:
                raise UsageError(f"{flag} is for playing against the computer: add --vs LEVEL")
        return None
    from sansu.ai import player_for

    players = game.num_players  # type: ignore[attr-defined]
    if not 0 <= args.side < players:
        raise UsageError(f"--side must be a seat from 0 to {players - 1}, not {args.side}")
    if args.time_ms is not None and args.time_ms <= 0:
        raise UsageError(f"--time-ms must be positive, not {args.time_ms}")
    try:
        player = player_for(game, args.vs, seed=args.seed)  # type: ignore[arg-type]
    except ValueError as error:
        raise UsageError(str(error)) from None
    player.warm_up()
    return player


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "quit"
