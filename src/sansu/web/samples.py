"""The sample positions that picture each game on the home page.

The pictures are drawn by the games' own board modules from
``static/samples/<game id>.json``: the JSON of a real position, written by
this module (``python -m sansu.web.samples``) so that the home page needs
no server round trip and no engine in the browser. A game without an entry
in :data:`SAMPLES` is pictured by its initial position. The tests check
that the files match what the engines make of these moves.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import sansu
from sansu.web import STATIC_DIR

SAMPLES: dict[str, tuple[dict[str, Any], str]] = {
    "uttt": (
        {},
        "r7c6 r3c8 r7c5 r2c5 r6c6 r8c8 r4c5 r3c4 r9c3 r8c7 r6c3 r9c7 r8c2 r5c5 r4c4 r3c1 r7c3"
        " r2c7 r5c2 r5c4 r4c2 r3c6 r7c8 r1c4 r2c2 r6c5 r7c4 r1c1 r3c3 r7c9",
    ),
    "sansumoku": (
        {},
        "r5c8 r6c4 r7c1 r2c2 r6c6 r9c9 r8c8 r5c4 r4c3 r1c7 r1c3 r3c7 r7c2 r3c5 r8c6 r4c9 r2c7"
        " r5c1 r4c1 r3c3 r8c9 r6c8 r9c4 r9c2 r7c6 r2c8 r5c6 r6c9 r7c7 r3c2 r8c5 r6c5 r1c9 r1c8"
        " r2c4 r3c1",
    ),
    "sumodoku": (
        {},
        "r1c1=1 r5c5=5 r2c4=2 r9c9=6 r3c7=3 r4c2=7 r6c8=4 r7c3=8 r8c6=9 r1c8=9 r5c1=2 r2c2=5"
        " r9c4=1 r6c5=6 r7c8=3 r3c3=7",
    ),
    "challenge": ({"players": 3}, "r1c2=9 r1c4=1 r1c5=3 r1c6=5 r1c7=8 r2c1=6"),
    "thirtyfive": (
        {},
        "r1c1=5 r1c2=9 r2c2=9 r3c3=8 r2c1=9 r3c1=9 r4c4=3 r5c5=7 r4c6=6 r6c4=2 r3c5=4 r5c3=6",
    ),
}
"""Game id → (options, moves) of its picture."""


def sample_view(game_id: str) -> dict[str, Any]:
    """The spectator's view of ``game_id``'s sample position."""
    options, moves = SAMPLES.get(game_id, ({}, ""))
    game = sansu.load_game(game_id, **options)
    state = game.play_moves(moves.split()) if moves else game.initial_state()
    return state.view(None)


def sample_text(game_id: str) -> str:
    return json.dumps(sample_view(game_id), separators=(",", ":"), sort_keys=True) + "\n"


def write_samples(directory: Path | None = None) -> list[Path]:
    """Writes one sample file per registered game; returns the files written."""
    target = (directory or STATIC_DIR) / "samples"
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for game_id in sansu.game_ids():
        path = target / f"{game_id}.json"
        path.write_text(sample_text(game_id), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_samples():
        print(path, file=sys.stderr)
