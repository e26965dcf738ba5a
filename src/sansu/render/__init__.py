"""Text pictures of positions for terminals: one module per game, named like its engine.

``render(state)`` finds ``sansu.render.<engine module>`` and calls its
``render(state, color=...)``, so a new game adds one renderer module and
nothing else. An engine that is a package (``sansu.games.sumodoku``) is
named by the package, wherever inside it the game class lives.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from sansu.core.protocol import State


def engine_name(state: State) -> str:
    """The name of the engine module or package under ``sansu.games`` that ``state`` is of."""
    module = type(state.game).__module__
    if module.startswith("sansu.games."):
        return module.split(".")[2]
    return module.rsplit(".", 1)[-1]


def _module(state: State) -> ModuleType:
    name = engine_name(state)
    return importlib.import_module(f"sansu.render.{name}")


def render(state: State, *, color: bool = False) -> str:
    """The board of ``state`` as text, with ANSI colours when ``color`` is set."""
    return _module(state).render(state, color=color)


def player_names(state: State) -> tuple[str, ...]:
    """What the board's texts call each player ("X", "Blue", ...): a renderer's ``NAMES``."""
    from sansu.render.style import SEAT_NAMES

    return tuple(getattr(_module(state), "NAMES", SEAT_NAMES))
