"""``sansu codingame``: an Ultimate Tic-Tac-Toe player speaking CodinGame's bot protocol,
so that the referees and bot runners made for that game's many public bots can play it.

Each turn stdin gives the opponent's last move (``row col``; ``-1 -1`` when this player
moves first), then the number of valid actions and one ``row col`` line each; the player
answers one ``row col`` line. Rows and columns count from 0 over the whole 9×9 board
(sansu's ``r1c1`` is ``0 0``). CodinGame gives a turn 100 ms (the first 1,000 ms): the
player thinks ``--time-ms`` (90 by default), and ``--first-ms`` on its first turn (900 by
default; its tree, kept from move to move, serves the turns after).

Anything that does not follow the protocol (a malformed line, an illegal move, valid
actions other than the rules' legal moves) ends the player with exit status 2 and one line
on stderr saying why; the end of input ends it with status 0.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from sansu.cli.main import UsageError
from sansu.core.protocol import IllegalMove, Move, State


class ProtocolError(Exception):
    """Input that does not follow CodinGame's protocol or the rules."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "codingame",
        help="an Ultimate Tic-Tac-Toe player speaking CodinGame's bot protocol",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", choices=["uttt"], help="the game (CodinGame's is uttt)")
    parser.add_argument(
        "--level", default="max", metavar="NAME", help="a level; settings allowed: max:c_uct=0.5"
    )
    parser.add_argument("--time-ms", type=int, default=90, help="thinking time a move")
    parser.add_argument(
        "--first-ms", type=int, default=900, help="thinking time of the first turn"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed for reproducible moves")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from sansu.ai.arena import check_player_name, make_player
    from sansu.core.registry import load_game

    if args.time_ms <= 0:
        raise UsageError(f"--time-ms must be positive, not {args.time_ms}")
    if args.first_ms <= 0:
        raise UsageError(f"--first-ms must be positive, not {args.first_ms}")
    game = load_game(args.game)
    try:
        player = make_player(game, check_player_name(args.level), seed=args.seed)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if not hasattr(player, "warm_up"):
        raise UsageError(f"{args.level!r} is not a computer level")
    player.warm_up()
    try:
        turns = Turns(game.initial_state(), player, args.time_ms, first_ms=args.first_ms)
        turns.loop(sys.stdin, sys.stdout)
    except ProtocolError as error:
        print(f"sansu codingame: {error}", file=sys.stderr)
        return 2
    return 0


def to_cell(move: Move | str) -> str:
    """sansu's ``r5c7`` as CodinGame's ``4 6``."""
    text = str(move)
    row, _, col = text[1:].partition("c")
    return f"{int(row) - 1} {int(col) - 1}"


def from_cell(line: str) -> str:
    """CodinGame's ``4 6`` as sansu's ``r5c7``; ``ProtocolError`` if it is not a cell."""
    words = line.split()
    if len(words) != 2 or not all(w.isdigit() for w in words):
        raise ProtocolError(f"expected a cell as 'row col' (0 to 8 each), got {line.strip()!r}")
    row, col = int(words[0]), int(words[1])
    if not (0 <= row <= 8 and 0 <= col <= 8):
        raise ProtocolError(f"expected a cell as 'row col' (0 to 8 each), got {line.strip()!r}")
    return f"r{row + 1}c{col + 1}"


class Turns:
    """The game as this player has followed it; one answer a turn."""

    def __init__(
        self, state: State, player: Any, time_ms: int, *, first_ms: int | None = None
    ) -> None:
        self.state = state
        self.player = player
        self.time_ms = time_ms
        self.first_ms = time_ms if first_ms is None else first_ms
        """The first turn's thinking time (CodinGame allows 1,000 ms for it)."""
        self.answered = 0

    def loop(self, stdin: TextIO, stdout: TextIO) -> None:
        while True:
            head = stdin.readline()
            if not head:
                return
            if not head.strip():
                continue
            if head.split() != ["-1", "-1"]:
                from_cell(head)  # refused before reading on
            count = stdin.readline().strip()
            if not count.isdigit():
                raise ProtocolError(f"expected the number of valid actions, got {count!r}")
            valid = [from_cell(stdin.readline()) for _ in range(int(count))]
            stdout.write(self.turn(head, valid) + "\n")
            stdout.flush()

    def turn(self, head: str, valid: list[str]) -> str:
        """The answer to one turn: the opponent's move ``head`` and the valid actions."""
        if head.split() == ["-1", "-1"]:
            if self.state.ply != 0:
                raise ProtocolError("'-1 -1' (no move yet) after the game has begun")
        else:
            move = from_cell(head)
            try:
                self.state = self.state.play(move)
            except IllegalMove as error:
                raise ProtocolError(f"the opponent's move {head.strip()!r}: {error}") from None
        if self.state.result is not None:
            raise ProtocolError(f"a turn after the game ended ({self.state.result.reason})")
        legal = {str(m) for m in self.state.legal_moves()}
        if set(valid) != legal:
            raise ProtocolError(
                f"the valid actions ({len(valid)}) are not the rules' legal moves ({len(legal)})"
            )
        time_ms = self.time_ms if self.answered else self.first_ms
        analysis = self.player.choose(self.state, time_ms=time_ms)
        self.state = self.state.play(analysis.move)
        self.answered += 1
        return to_cell(analysis.move)
