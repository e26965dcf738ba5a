"""Text pictures of positions for terminals: one module per game, named like its engine.

``render(state)`` finds ``sansu.render.<engine module>`` and calls its
``render(state, color=...)``, so a new game adds one renderer module and
nothing else.
"""

from __future__ import annotations

import importlib

from sansu.core.protocol import State


def render(state: State, *, color: bool = False) -> str:
    """The board of ``state`` as text, with ANSI colours when ``color`` is set."""
    name = type(state.game).__module__.rsplit(".", 1)[-1]
    module = importlib.import_module(f"sansu.render.{name}")
    return module.render(state, color=color)
