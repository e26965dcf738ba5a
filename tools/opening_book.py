"""Build a game's opening book by long searches of its first moves' positions.

    python tools/opening_book.py uttt --plies 4 --simulations 1000000 --jobs 2 \
        --out src/sansu/ai/weights/uttt-book.json

For each side, every position the side meets up to ``--plies`` moves deep, when it plays
the book's moves and the other side plays anything, is searched once (up to the board's
symmetries) by ``--level`` at ``--simulations`` a move; see :mod:`sansu.ai.training.book`.
Reproducible from ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import fields
from pathlib import Path

from sansu.ai.training import Mapper
from sansu.ai.training.book import BookConfig, build_book


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    for f in fields(BookConfig):
        if f.name != "game":
            flag = "--" + f.name.replace("_", "-")
            parser.add_argument(flag, type=type(f.default), default=f.default)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        config = BookConfig(**{f.name: getattr(args, f.name) for f in fields(BookConfig)})
        mapper = Mapper(args.jobs)
    except ValueError as error:
        parser.error(str(error))
    start = time.perf_counter()
    with mapper:
        book = build_book(config, mapper, say=lambda line: print(line, flush=True))
    book.save(args.out)
    size = args.out.stat().st_size
    print(
        f"{len(book.entries)} positions ({book.about['searched']} searched) in"
        f" {time.perf_counter() - start:.0f} s; {size} bytes in {args.out}"
    )
    print(json.dumps(book.about))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
