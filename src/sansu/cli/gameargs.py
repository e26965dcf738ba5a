"""Arguments shared by commands that set up a game: GAME, --option KEY=VALUE, --moves, --record."""

from __future__ import annotations

import argparse
from typing import Any

from sansu.cli.main import UsageError
from sansu.core.options import parse_assignments
from sansu.core.protocol import Game, IllegalMove, State
from sansu.core.record import GameRecord
from sansu.core.registry import load_game


def add_game_arguments(parser: argparse.ArgumentParser, *, positions: bool = True) -> None:
    parser.add_argument(
        "game",
        metavar="GAME",
        help="game id: uttt, sansumoku, sumodoku, challenge, thirtyfive (35)",
    )
    parser.add_argument(
        "--option", "-o", action="append", default=[], metavar="KEY=VALUE",
        help="a game option (repeatable), e.g. --option rows=9",
    )  # fmt: skip
    if positions:
        parser.add_argument(
            "--moves",
            "-m",
            default=None,
            metavar='"M1 M2 ..."',
            help="moves to play from the initial position, separated by spaces",
        )
        parser.add_argument("--record", "-r", default=None, metavar="FILE",
                            help="a JSON game record whose moves to play")  # fmt: skip


def game_from_args(args: argparse.Namespace) -> Game:
    """The game named on the command line, with its options; :class:`UsageError` if bad."""
    try:
        options: dict[str, Any] = parse_assignments(args.option)
        return load_game(args.game, **options)
    except ValueError as error:
        raise UsageError(str(error)) from None


def position_from_args(args: argparse.Namespace) -> tuple[Game, State, list[str]]:
    """The game, the position after ``--moves``/``--record``, and the moves that led there."""
    if args.record is not None and args.moves is not None:
        raise UsageError("give --moves or --record, not both")
    if args.record is not None:
        try:
            record = GameRecord.read(args.record)
        except ValueError as error:
            raise UsageError(f"record {args.record}: {error}") from None
        if args.option:
            raise UsageError("a record carries its own options; drop --option")
        game = record.load()
        if game.id != load_game_id(args.game):
            raise UsageError(
                f"record {args.record} is a game of {record.game!r}, not {args.game!r}"
            )
        moves = list(record.moves)
    else:
        game = game_from_args(args)
        moves = join_moves(game, (args.moves or "").split())
    try:
        state = game.play_moves(moves)
    except IllegalMove as error:
        raise UsageError(str(error)) from None
    return game, state, [str(m) for m in moves]


def load_game_id(game_id: str) -> str:
    from sansu.core.registry import game_class

    try:
        return game_class(game_id).id
    except ValueError as error:
        raise UsageError(str(error)) from None


def join_moves(game: Game, words: list[str]) -> list[str]:
    """The move texts in ``words``: a two-word move (``erase r5c5``) may also be
    written with an underscore (``erase_r5c5``), as ``info ... pv`` prints it."""
    moves: list[str] = []
    i = 0
    while i < len(words):
        word = words[i].replace("_", " ")
        if " " not in word and i + 1 < len(words):
            try:
                game.parse_move(word)
            except ValueError:
                pair = f"{word} {words[i + 1]}"
                try:
                    game.parse_move(pair)
                except ValueError:
                    pass
                else:
                    moves.append(pair)
                    i += 2
                    continue
        moves.append(word)
        i += 1
    return moves
