"""The browser front end: static files that ``sansu serve`` publishes at ``/``.

Everything under :data:`STATIC_DIR` is plain HTML, CSS and JavaScript
modules, served as they are (no build step). Each game draws its board with
one module, ``static/boards/<game id>.js``, so a new game adds one file.
"""

from __future__ import annotations

from pathlib import Path

STATIC_DIR: Path = Path(__file__).resolve().parent / "static"
"""The directory the server mounts at ``/``."""


def board_module(game_id: str) -> Path:
    """The board module that draws ``game_id`` (it may not exist for a new game)."""
    return STATIC_DIR / "boards" / f"{game_id}.js"


__all__ = ["STATIC_DIR", "board_module"]
