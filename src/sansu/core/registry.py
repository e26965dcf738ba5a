"""Finding games by id: every module in :mod:`sansu.games` that defines ``GAME``.

A new game is one new module there (or a package whose ``__init__`` defines
``GAME``, for an engine split into parts); nothing else needs editing. Modules are
imported lazily so that loading one game does not pay for the others.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from sansu.core.protocol import Game


def _module_game(name: str) -> type[Game] | None:
    module = importlib.import_module(f"sansu.games.{name}")
    return getattr(module, "GAME", None)


@cache
def _all_games() -> dict[str, type[Game]]:
    import sansu.games

    games: dict[str, type[Game]] = {}
    for info in sorted(pkgutil.iter_modules(sansu.games.__path__), key=lambda i: i.name):
        cls = _module_game(info.name)
        if cls is not None:
            for key in (cls.id, *cls.aliases):
                games[key] = cls
    return games


def game_class(game_id: str) -> type[Game]:
    """The class of the game called ``game_id`` (or one of its aliases)."""
    if not isinstance(game_id, str):
        raise ValueError(f"a game id is text, not {type(game_id).__name__}")
    key = game_id.strip().lower()
    if key.isidentifier() and not key.startswith("_"):
        try:
            cls = _module_game(key)
        except ModuleNotFoundError:
            cls = None
        if cls is not None and key in (cls.id, *cls.aliases):
            return cls
    try:
        return _all_games()[key]
    except KeyError:
        raise ValueError(f"unknown game {game_id!r} (games: {', '.join(game_ids())})") from None


def game_ids() -> list[str]:
    """The ids of every game, without aliases, in a stable order."""
    return sorted({cls.id for cls in _all_games().values()})


def load_game(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with ``options``; ``ValueError`` names a bad id or option."""
    return game_class(game_id)(**options)
