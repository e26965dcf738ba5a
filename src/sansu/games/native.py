"""Which code plays the moves of Ultimate Tic-Tac-Toe and Sansumoku: compiled or pure Python.

The engines' Python methods are the rules and the reference. When the
compiled module ``sansu.games._native`` is there (setuptools builds it from
``csrc/*.c`` wherever a C compiler is) and the environment variable
``SANSU_PURE_PYTHON`` is unset (or ``0``), :func:`install` replaces a state
class's :data:`METHODS` by compiled ones that read and write the same
slots: the same states, moves, results and errors, in a fraction of the
time. Without it, or with ``SANSU_PURE_PYTHON=1``, the Python methods play.
The choice is made once, when the game's module is imported.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from types import ModuleType
from typing import Any

from sansu.core.protocol import Result
from sansu.core.sections import BIT_OF_CELL, PLACES, SECTION_PLACES

PURE_ENV = "SANSU_PURE_PYTHON"

METHODS = ("play", "legal_moves", "legal_cells", "ply", "to_move")
"""The methods and properties the compiled module replaces."""

PURE: dict[type, dict[str, Callable[..., Any]]] = {}
"""The Python :data:`METHODS` of each state class (functions and properties, as found on the
class): the reference, kept for tests."""

COMPILED: set[type] = set()
"""The state classes whose moves the compiled module plays."""


def pure_wanted() -> bool:
    """Whether ``SANSU_PURE_PYTHON`` asks for the Python path."""
    return os.environ.get(PURE_ENV, "").strip() not in ("", "0")


def compiled_module() -> ModuleType | None:
    """The compiled module, or ``None`` when it was not built (no compiler at install time)."""
    try:
        from sansu.games import _native
    except ImportError:
        return None
    return _native


def install(kind: str, cls: type, wins: tuple[Result, Result], draw: Result) -> bool:
    """Give ``cls`` (the state class of game ``kind``) the compiled moves, when they may be used.

    ``wins`` and ``draw`` are the game's shared results, so that both paths
    return the very same objects. Returns whether the compiled path is in use.
    """
    PURE[cls] = {name: inspect.getattr_static(cls, name) for name in METHODS}
    module = None if pure_wanted() else compiled_module()
    if module is None:
        return False
    methods = module.install(kind, cls, PLACES, BIT_OF_CELL, SECTION_PLACES, wins, draw)
    assert set(methods) == set(METHODS), "sansu.games._native is out of date: reinstall sansu"
    for name, method in methods.items():
        setattr(cls, name, method)
    COMPILED.add(cls)
    return True


def describe() -> str:
    """Which code plays the moves in this process, in words (for benchmarks' reports).

    The choice :func:`install` makes, whether or not the games are imported yet.
    """
    if pure_wanted():
        return f"pure-Python moves ({PURE_ENV} is set)"
    if compiled_module() is None:
        return "pure-Python moves (sansu.games._native is not built)"
    return "compiled moves (sansu.games._native) for Ultimate Tic-Tac-Toe and Sansumoku"
