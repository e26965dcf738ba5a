"""``sansu engine``: a computer player behind a line protocol, for other programs.

Commands, one per line on stdin; each gets an answer on stdout, flushed:

    moves M1 M2 ...              set the position (initial position + moves): ok | error <reason>
    go [time_ms N] [simulations N]
                                 think, then: info ... lines, and bestmove M
    level NAME                   change the level: ok | error <reason>
    quit                         exit 0

Anything else answers ``error <reason>`` and changes nothing. Blank lines
are ignored; end of input exits like ``quit``.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from sansu.cli.gameargs import add_game_arguments, game_from_args, join_moves
from sansu.cli.main import UsageError
from sansu.core.protocol import Game, IllegalMove, State

GO_KEYS = ("time_ms", "simulations")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "engine",
        help="a computer player speaking a line protocol on stdin/stdout",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_arguments(parser, positions=False)
    parser.add_argument("--level", default="medium", metavar="NAME",
                        help="beginner, easy, medium (default), hard or max")  # fmt: skip
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible moves")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sansu.ai import player_for

    game = game_from_args(args)
    try:
        player = player_for(game, args.level, seed=args.seed)
    except ValueError as error:
        raise UsageError(str(error)) from None
    player.warm_up()  # load compiled code before the first command, not during a move
    return Engine(game, player).loop(sys.stdin, sys.stdout)


class Engine:
    """The protocol's state: the game, the position and the player; one answer per command."""

    def __init__(self, game: Game, player: object) -> None:
        self.game = game
        self.player = player
        self.state: State = game.initial_state()

    def loop(self, stdin: TextIO, stdout: TextIO) -> int:
        for line in stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "quit":
                if len(words) > 1:
                    self._say(stdout, ["error quit takes no arguments"])
                    continue
                return 0
            self._say(stdout, self.answer(words))
        return 0

    @staticmethod
    def _say(stdout: TextIO, lines: list[str]) -> None:
        for text in lines:
            stdout.write(text + "\n")
        stdout.flush()

    def answer(self, words: list[str]) -> list[str]:
        """The answer lines to one command (already split into words)."""
        command, rest = words[0], words[1:]
        if command == "moves":
            return [self._moves(rest)]
        if command == "go":
            return self._go(rest)
        if command == "level":
            return [self._level(rest)]
        return [f"error unknown command {command!r} (commands: moves, go, level, quit)"]

    def _moves(self, words: list[str]) -> str:
        try:
            state = self.game.play_moves(join_moves(self.game, words))
        except IllegalMove as error:
            return f"error {error}"
        self.state = state
        return "ok"

    def _level(self, rest: list[str]) -> str:
        from sansu.ai import player_for

        if len(rest) != 1:
            return "error level takes one name: beginner, easy, medium, hard or max"
        try:
            seed = getattr(self.player, "seed", None)
            self.player = player_for(self.game, rest[0], seed=seed)
        except ValueError as error:
            return f"error {error}"
        return "ok"

    def _go(self, rest: list[str]) -> list[str]:
        budget: dict[str, int] = {}
        if len(rest) % 2:
            return ["error go takes pairs: go [time_ms N] [simulations N]"]
        for key, value in zip(rest[::2], rest[1::2], strict=True):
            if key not in GO_KEYS:
                return [f"error unknown go parameter {key!r} (time_ms, simulations)"]
            if key in budget:
                return [f"error {key} given twice"]
            if not value.isdigit() or int(value) <= 0:
                return [f"error {key} must be a positive whole number, not {value!r}"]
            budget[key] = int(value)
        if self.state.result is not None:
            return ["error the game is over: there is no move to play"]
        analysis = self.player.choose(self.state, **budget)  # type: ignore[attr-defined]
        info = (
            f"info simulations {analysis.simulations} value {analysis.value:.4f}"
            f" time_ms {analysis.elapsed_ms:.0f}"
        )
        if analysis.proven:
            info += f" proven {analysis.proven}"
        if analysis.pv:
            info += " pv " + " ".join(m.replace(" ", "_") for m in analysis.pv)
        return [info, f"bestmove {analysis.move}"]
