"""Text pictures of positions for terminals: one module per game, named like its engine.

``render(state)`` finds ``sansu.render.<engine module>`` and calls its
``render(state, color=...)``, so a new game adds one renderer module and
nothing else.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from sansu.core.protocol import State


def _module(state: State) -> ModuleType:
    name = type(state.game).__module__.rsplit(".", 1)[-1]
    return importlib.import_module(f"sansu.render.{name}")


def render(state: State, *, color: bool = False) -> str:
    """The board of ``state`` as text, with ANSI colours when ``color`` is set."""
    return _module(state).render(state, color=color)


def player_names(state: State) -> tuple[str, ...]:
    """What the board's texts call each player ("X", "Blue", ...): a renderer's ``NAMES``."""
    from sansu.render.style import SEAT_NAMES

    return tuple(getattr(_module(state), "NAMES", SEAT_NAMES))
