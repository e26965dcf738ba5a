"""The computer levels' published ratings, per game: fixed numbers that make a player's
rating comparable with the computer's.

They come from a round-robin between the levels (``tools/calibrate_levels.py``),
anchored at ``medium`` = 1500, and ship in ``levels.json`` beside this module
with how they were made: games per pair, the thinking-time cap, and a 95% interval per
level. They never change from game to game: games against the computer are casual.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any


@functools.cache
def calibration() -> dict[str, Any]:
    """The whole calibration file (``{}`` when it is missing from the install)."""
    try:
        text = resources.files("sansu.server.ratings").joinpath("levels.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return {}
    return json.loads(text)


def level_ratings() -> dict[str, dict[str, int]]:
    """``{game: {level: rating}}``."""
    return {game: dict(data["ratings"]) for game, data in calibration().get("games", {}).items()}
