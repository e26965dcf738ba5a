"""Opening books: moves that long searches chose offline, played while a position is in one.

At 100 ms a move ``max`` runs some 30,000 simulations; an entry of a book is the choice of
a search a hundred times longer, made once and shipped as data
(``sansu/ai/weights/GAME-book.json``, made by ``tools/opening_book.py`` with
:mod:`sansu.ai.training.book`). A level with ``book`` on plays the entry's move at once
while the position is in the book and searches as before once the game has left it.

A position is looked up by what anyone can see of it (whose move, the cells, the game's
other visible state, the legal moves), hashed, so that move orders meeting in one position
share its entry. An entry is played only if its move is legal in the position found: a stale
book or a collision of hashes can cost a book move, never an illegal one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from sansu.core.protocol import State

FORMAT = 1
"""The version of a book file's layout."""


def position_key(state: State) -> str:
    """The key of ``state`` in a book: 20 hex digits of a hash of what anyone can see of it."""
    seen = [
        state.game.id,
        state.game.options,
        state.to_move,
        state.cells_json(),
        state.extra_json(),
        sorted(str(m) for m in state.legal_moves()),
    ]
    text = json.dumps(seen, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


@dataclass(frozen=True)
class Entry:
    """What the book's search chose in one position."""

    move: str
    value: float
    """The search's value of the position for the mover, in [-1, 1]."""
    simulations: int


@dataclass(frozen=True)
class Book:
    """A game's book: entries by :func:`position_key`, up to ``max_ply`` moves deep."""

    game_id: str
    entries: Mapping[str, Entry]
    max_ply: int
    about: Mapping[str, Any] = field(default_factory=dict)
    """How the book was made (the builder's settings, the number of positions searched)."""

    def probe(self, state: State) -> Entry | None:
        """The entry for ``state``, or ``None`` when the position is not in the book."""
        if state.ply > self.max_ply or state.result is not None:
            return None
        if state.game.id != self.game_id:
            return None
        entry = self.entries.get(position_key(state))
        if entry is None or entry.move not in {str(m) for m in state.legal_moves()}:
            return None
        return entry

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game_id,
            "max_ply": self.max_ply,
            "about": dict(self.about),
            "entries": {
                key: [e.move, round(e.value, 4), e.simulations]
                for key, e in sorted(self.entries.items())
            },
        }

    @classmethod
    def from_json(cls, doc: Any) -> Book:
        """The book in ``doc``; ``ValueError`` saying what is wrong with it."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ValueError(f"not an opening book of format {FORMAT}")
        game_id, max_ply, raw = doc.get("game"), doc.get("max_ply"), doc.get("entries")
        if not isinstance(game_id, str) or not isinstance(max_ply, int) or max_ply < 0:
            raise ValueError("an opening book needs its game and a max_ply of at least 0")
        if not isinstance(raw, dict):
            raise ValueError("an opening book's entries are an object of positions")
        entries = {}
        for key, item in raw.items():
            ok = (
                isinstance(item, list)
                and len(item) == 3
                and isinstance(item[0], str)
                and isinstance(item[1], int | float)
                and -1.0 <= item[1] <= 1.0
                and isinstance(item[2], int)
            )
            if not ok:
                raise ValueError(f"bad entry {key!r}: [move, value in [-1, 1], simulations]")
            entries[key] = Entry(item[0], float(item[1]), item[2])
        about = doc.get("about", {})
        return cls(game_id, entries, max_ply, about if isinstance(about, dict) else {})

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=0) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Book:
        try:
            doc = json.loads(Path(path).read_text())
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not JSON ({error})") from None
        return cls.from_json(doc)


@cache
def shipped_book(game_id: str) -> Book | None:
    """The book shipped with the package for ``game_id`` (``weights/GAME-book.json``), or
    ``None``. Read once per process."""
    ref = resources.files("sansu.ai") / "weights" / f"{game_id}-book.json"
    if not ref.is_file():
        return None
    return Book.from_json(json.loads(ref.read_text()))
