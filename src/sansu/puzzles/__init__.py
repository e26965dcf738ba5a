"""Puzzles: positions where the side to move wins by force, each proved by exhaustive search.

A puzzle starts after the opponent's mistake: ``moves`` lead from the game's
initial position (with ``options``) to the position the learner faces, and
``solution`` alternates the learner's moves (each the only one that wins within
the puzzle's depth) and the opponent's best defence, ending with the learner's
winning move. The shipped puzzles are ``data/<game>.json``: see ``docs/puzzles.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"


@dataclass(frozen=True)
class Puzzle:
    id: str
    """Stable across releases: ``<game>-<digits>``."""
    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    """From the initial position to the learner's position (the last is the opponent's mistake)."""
    solution: tuple[str, ...]
    """The learner's moves and the opponent's replies, alternating; the learner's move last."""
    rating: float
    themes: tuple[str, ...] = ()
    source: str = ""
    """Where it was mined: ``self-play`` or ``game``."""
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        data = {
            "id": self.id,
            "game": self.game,
            "options": dict(self.options),
            "moves": list(self.moves),
            "solution": list(self.solution),
            "rating": self.rating,
            "themes": list(self.themes),
            "source": self.source,
        }
        data.update(self.extra)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        known = {"id", "game", "options", "moves", "solution", "rating", "themes", "source"}
        return cls(
            id=str(data["id"]),
            game=str(data["game"]),
            options=dict(data.get("options") or {}),
            moves=tuple(data["moves"]),
            solution=tuple(data["solution"]),
            rating=float(data["rating"]),
            themes=tuple(data.get("themes") or ()),
            source=str(data.get("source") or ""),
            extra={k: v for k, v in data.items() if k not in known},
        )


@cache
def _load(game: str) -> tuple[Puzzle, ...]:
    path = DATA / f"{game}.json"
    if not path.is_file():
        return ()
    return tuple(Puzzle.from_dict(d) for d in json.loads(path.read_text(encoding="utf-8")))


def shipped(game: str) -> list[Puzzle]:
    """The puzzles of ``game`` (a game id) shipped in the package, in id order."""
    return list(_load(game))


__all__ = ["DATA", "Puzzle", "shipped"]
