"""Writes the computer levels' ratings table of ``docs/research.md`` from
``src/sansu/server/ratings/levels.json`` (what ``tools/calibrate_levels.py`` makes).

The table stands between the markers :data:`START` and :data:`END`; a test
(``tests/envs/test_levels_doc.py``) fails when it no longer matches the file, so run
this after every calibration:

    python tools/levels_table.py --write
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LEVELS_JSON = ROOT / "src/sansu/server/ratings/levels.json"
DOC = ROOT / "docs/research.md"
START = "<!-- levels table: made by tools/levels_table.py from levels.json -->"
END = "<!-- end of the levels table -->"
TITLES = {
    "uttt": "Ultimate Tic-Tac-Toe",
    "sansumoku": "Sansumoku",
    "sumodoku": "Sumodoku",
    "challenge": "Sudoku Challenge",
    "thirtyfive": "35",
}


def _number(value: float) -> str:
    """An Elo figure as the docs write it: a true minus sign."""
    return f"{round(value)}".replace("-", "−")


def _clock(clock: Any) -> str:
    """How a game's levels were timed, as ``levels.json`` records it, in words."""
    text = str(clock)
    if text.isdigit():
        return f"each move capped at {text} ms"
    if text == "own":
        return "each level at its own time"
    if text.startswith("budget"):
        extra = text.partition(",")[2]
        words = "each level's own simulation budget"
        return words + (f" (`max`: {extra.partition('=')[2]} simulations)" if extra else "")
    return text


def table(calibration: dict[str, Any]) -> str:
    """The Markdown table of ``calibration`` (the parsed levels.json) and its note."""
    games = calibration["games"]
    levels = list(next(iter(games.values()))["ratings"])
    lines = [
        "| game | " + " | ".join(levels) + " | in order | games | timed by |",
        "|---|" + "---|" * len(levels) + "---|---|---|",
    ]
    for game, data in games.items():
        ratings, ci = data["ratings"], data["ci95"]
        cells = [
            f"{_number(ratings[lv])} (anchor)"
            if ci[lv][0] == ci[lv][1]
            else f"{_number(ratings[lv])} ({_number(ci[lv][0])} to {_number(ci[lv][1])})"
            for lv in levels
        ]
        slips = [
            f"{high} < {low}"
            for low, high in itertools.pairwise(levels)
            if ratings[high] < ratings[low]
        ]
        order = "yes" if not slips else "no: " + ", ".join(slips)
        lines.append(
            f"| {TITLES.get(game, game)} | "
            + " | ".join(cells)
            + f" | {order} | {data['games']} | {_clock(data.get('clock', '?'))} |"
        )
    anchor = calibration["anchor"]
    lines += [
        "",
        f"Elo scale, anchored at `{anchor['level']}` = {_number(anchor['rating'])}; in"
        " brackets the 95% interval relative to the anchor. Method: "
        f"{calibration['method']}.",
    ]
    return "\n".join(lines)


def block(calibration: dict[str, Any]) -> str:
    """The table with its markers, as it stands in the doc."""
    return f"{START}\n{table(calibration)}\n{END}"


def current_block(doc: str) -> str | None:
    """The marked block in ``doc`` (``None`` if it has none)."""
    start, end = doc.find(START), doc.find(END)
    if start < 0 or end < start:
        return None
    return doc[start : end + len(END)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"rewrite the table in {DOC.name}")
    args = parser.parse_args(argv)
    calibration = json.loads(LEVELS_JSON.read_text(encoding="utf-8"))
    new = block(calibration)
    if not args.write:
        print(new)
        return 0
    doc = DOC.read_text(encoding="utf-8")
    old = current_block(doc)
    if old is None:
        print(f"{DOC}: no table markers ({START!r} … {END!r})", file=sys.stderr)
        return 1
    DOC.write_text(doc.replace(old, new), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
