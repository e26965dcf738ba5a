"""Entry point of the ``sansu`` command: parses arguments and dispatches to a command module.

Each command lives in its own module with ``register(subparsers)`` that adds
its parser and sets ``func``; the function returns the exit status. Bad
input exits with status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

COMMANDS = (
    "show", "play", "sudoku", "engine", "match", "serve", "analyse", "train", "bot", "puzzles",
    "admin",
    "codingame",
    "export",
    "docs",
)  # fmt: skip
"""Modules of :mod:`sansu.cli` that each add one subcommand."""


class UsageError(Exception):
    """Bad input on the command line: reported as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="sansu", description="Competitive grid-and-digit board games.")
    from sansu import __version__

    parser.add_argument("--version", action="version", version=f"sansu {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for name in COMMANDS:
        importlib.import_module(f"sansu.cli.{name}").register(sub)
    return parser


def fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 0
        return int(args.func(args) or 0)
    except UsageError as error:
        return fail(str(error))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
