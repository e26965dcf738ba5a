"""sansu play: a game in the terminal, two people at one keyboard or one against the computer.

With --vs LEVEL the computer takes every seat but --side (default 0, the
first player); undo then takes back the computer's reply too. On a terminal
the board is redrawn in place after every input.
"""

from __future__ import annotations

import argparse
from typing import Any

from sansu.cli.gameargs import game_from_args
from sansu.core.protocol import IllegalMove, State
from sansu.core.record import GameRecord
from sansu.core.registry import game_class, game_ids


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


class Screen:
    """Where the game is drawn: on a terminal, the screen is cleared and the board
    redrawn in place after every input; elsewhere (a pipe, a log) it is appended."""

    def __init__(self, console: Any = None) -> None:
        from rich.console import Console

        self.console = console if console is not None else Console(highlight=False)
        self.live = self.console.is_terminal

    def draw(self, board: str, notes: list[str]) -> None:
        from rich.text import Text

        if self.live:
            self.console.clear()
        else:
            self.console.print()
        self.console.print(Text.from_ansi(board), soft_wrap=True)
        for note in notes:
            self.console.print(Text(note), soft_wrap=True)


def run(args: argparse.Namespace) -> int:
    from sansu.render import player_names, render

    if args.game is None:
        args.game = _choose_game()
        if args.game is None:
            return 0
    game = game_from_args(args)
    computer = _computer(game, args)
    screen = Screen()
    names = list(player_names(game.initial_state()))
    seats = ["human"] * game.num_players
    if computer is not None:
        seats = [f"computer ({args.vs})"] * game.num_players
        seats[args.side] = "human"
    record = GameRecord.start(game, players=seats)
    states = [game.initial_state()]
    notes = [HELP]
    while True:
        state = states[-1]
        screen.draw(render(state, color=screen.live), notes)
        notes = []
        if state.result is not None:
            return 0
        mover = state.to_move or 0
        if computer is not None and mover != args.side:
            analysis = computer.choose(state, time_ms=args.time_ms)
            notes.append(
                f"{names[mover]} (computer) played {analysis.move}"
                f"  (value {analysis.value:+.2f}, {analysis.simulations} simulations)"
            )
            _play(states, record, analysis.move, args.save)
            continue
        text = _ask(f"{names[mover]}> ").strip()
        if text in ("quit", "exit"):
            return 0
        if text in ("help", "?", ""):
            notes.append(HELP)
        elif text == "moves":
            notes.append(" ".join(sorted(str(m) for m in state.legal_moves())))
        elif text == "undo":
            notes.append(_undo(states, record, computer is not None, args))
        else:
            try:
                _play(states, record, text, args.save)
            except IllegalMove as error:
                notes.append(f"Illegal: {error}")


def _play(states: list[State], record: GameRecord, move: Any, save: str | None) -> None:
    states.append(states[-1].play(move))
    record.append(states[-1].last_move)
    if save:
        record.save(save)


def _undo(states: list[State], record: GameRecord, vs: bool, args: argparse.Namespace) -> str:
    """Back to the previous turn (against the computer: yours, its reply goes too)."""
    earlier = [i for i in range(len(states) - 1) if not vs or states[i].to_move == args.side]
    if not earlier:
        return "Nothing to undo."
    del states[earlier[-1] + 1 :]
    del record.moves[earlier[-1] :]
    if args.save:
        record.save(args.save)
    return "Took back " + ("your last move." if vs else "the last move.")


def _choose_game() -> str | None:
    """The game the player names; asked again until it is one (``None``: they quit)."""
    ids = game_ids()
    print("Games: " + ", ".join(ids))
    while True:
        answer = _ask("Which game? ").strip()
        if answer in ("quit", "exit"):
            return None
        if not answer:
            print("Type one of: " + ", ".join(ids) + " (or quit).")
            continue
        try:
            return game_class(answer).id
        except ValueError as error:
            print(f"{error}; type one of: " + ", ".join(ids) + " (or quit).")


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
