"""``sansu docs``: the guides shipped with the package, read in a terminal.

The package carries its documentation (``sansu/docs/*.md`` and each game's rules), so
that an installed copy explains itself where no repository is at hand: an index page
such as PyPI's can only point here, not to files beside it.
"""

from __future__ import annotations

import argparse
import re
import sys
from importlib import resources

import sansu


def guides() -> dict[str, str]:
    """Each guide's name (its file name without ``.md``) and title (its first heading)."""
    folder = resources.files("sansu") / "docs"
    found = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".md") and entry.is_file():
            found[entry.name[:-3]] = _title(entry.read_text(encoding="utf-8"))
    return found


def _title(text: str) -> str:
    match = re.search(r"^# (.+)$", text, re.MULTILINE)
    return match.group(1).strip() if match else ""


def text_of(name: str) -> str:
    """The guide ``name``, or a game's rules for players (``uttt``, ``35``...)."""
    if name in guides():
        return (resources.files("sansu") / "docs" / f"{name}.md").read_text(encoding="utf-8")
    try:
        game = sansu.load_game(name)
    except ValueError:
        raise KeyError(name) from None
    return (resources.files("sansu") / "rules" / f"{game.id}.md").read_text(encoding="utf-8")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "docs",
        help="read the guides shipped with the package",
        description="Without a name: the guides. With one: that guide, or a game's rules.",
    )
    parser.add_argument("name", nargs="?", help="a guide (e.g. research) or a game id")
    parser.add_argument(
        "--raw",
        action="store_true",
        help="print the Markdown as it is (the default off a terminal)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.name is None:
        shown = guides()
        width = max(map(len, shown))
        for name, title in shown.items():
            print(f"{name:<{width}}  {title}")
        print(f"{'GAME':<{width}}  a game's rules: " + ", ".join(sansu.game_ids()))
        return 0
    try:
        text = text_of(args.name)
    except KeyError:
        print(f"sansu docs: no guide {args.name!r} (sansu docs lists them)", file=sys.stderr)
        return 2
    if args.raw or not sys.stdout.isatty():
        sys.stdout.write(text)
        return 0
    from rich.console import Console
    from rich.markdown import Markdown

    Console().print(Markdown(text))
    return 0
