"""Hints on request, for the games whose ``aids`` option allows them.

Hints are aids that the Sumodoku text forbids and that change Sudoku
Challenge into a lesson, so a game gives them only when it was created with
``aids=true``; otherwise :func:`hint` refuses with :class:`AidsOff`. They are
pure functions of a position (what anyone at the table can see), so a host
can call :func:`hint` for any game without knowing which one it is.

* Sumodoku: which colours the player to move may place on a cell (or on
  every empty cell): the placements the rules allow them now.
* Sudoku Challenge: the next logical step from what everyone sees (givens,
  correct entries, digits already found wrong), with its technique and the
  cells involved, from :mod:`sansu.sudoku.rater`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sansu.core.cells import cell_name, parse_placement
from sansu.core.protocol import Game, IllegalMove, State

Hinter = Callable[[State, "int | None"], dict[str, Any]]


class AidsOff(ValueError):
    """The game was created without aids: no hints, no highlighting."""


class NoHint(ValueError):
    """The game has no hints, or the position has none to give."""


def supports_hints(game: Game) -> bool:
    """True when ``game`` has hints at all (whether its ``aids`` are on or not)."""
    return game.id in HINTERS


def aids_on(game: Game) -> bool:
    """True when ``game`` was created with aids (hints and highlighting)."""
    return bool(game.options.get("aids", False))


def hint(state: State, cell: str | None = None) -> dict[str, Any]:
    """A hint for the player to move in ``state``, as plain JSON-ready data.

    ``cell`` (``"r5c5"``) narrows a Sumodoku hint to one cell; Sudoku
    Challenge ignores it unless a cell must be played (then it must match).
    Raises :class:`AidsOff` when the game's aids are off, :class:`NoHint`
    for a game without hints or a finished game, ``ValueError`` for a bad cell.
    """
    game = state.game
    hinter = HINTERS.get(game.id)
    if hinter is None:
        raise NoHint(f"{game.title} has no hints")
    if not aids_on(game):
        raise AidsOff(f"{game.title}: hints are off in this game (it was created with aids=false)")
    if state.result is not None:
        raise NoHint("the game is over: there is nothing to hint")
    index = None if cell is None else _cell_index(cell)
    return {"game": game.id, "ply": state.ply, "to_move": state.to_move, **hinter(state, index)}


def _cell_index(text: str) -> int:
    if not isinstance(text, str):
        raise ValueError(f"a cell is text such as r5c5, not {type(text).__name__}")
    try:
        index, value = parse_placement(text)
    except IllegalMove as error:
        raise ValueError(f"not a cell: {text!r} ({error.reason})") from None
    if value is not None:
        raise ValueError(f"not a cell: {text!r} (give the cell alone, e.g. r5c5)")
    return index


def sumodoku_hint(state: State, cell: int | None) -> dict[str, Any]:
    """The colours the mover may place, on ``cell`` or on every empty cell."""
    fits: dict[int, list[int]] = {}
    for move in state.legal_moves():
        target = getattr(move, "cell", None)
        colour = getattr(move, "colour", None)
        if target is None or colour is None:
            continue  # erase, timeout, claim, challenge
        if cell is None or target == cell:
            fits.setdefault(target, []).append(colour)
    if cell is not None:
        grid = state.grid  # type: ignore[attr-defined]
        if grid[cell]:
            raise ValueError(f"{cell_name(cell)} is not empty")
        fits.setdefault(cell, [])
    return {
        "kind": "colours",
        "cells": {cell_name(c): sorted(v) for c, v in sorted(fits.items())},
    }


def challenge_hint(state: State, cell: int | None) -> dict[str, Any]:
    """The next logical step from the public grid, with its technique and cells."""
    from sansu.sudoku.rater import Contradiction, next_step

    required = state.required_cell  # type: ignore[attr-defined]
    if cell is not None and required is not None and cell != required:
        raise ValueError(f"this turn goes on in {cell_name(required)}, not {cell_name(cell)}")
    grid = state.grid  # type: ignore[attr-defined]
    marks = [
        [d for d in range(1, 10) if d not in state.wrong_digits(c)]  # type: ignore[attr-defined]
        for c in range(81)
    ]
    try:
        step = next_step(grid, marks)
    except Contradiction as error:  # pragma: no cover - the grid holds correct digits only
        raise NoHint(f"the grid allows no solution: {error}") from None
    if step is None:
        raise NoHint("no logical step found: the next digit needs a guess")
    data = step.to_dict()
    cells = sorted({c for c, _ in step.placements} | {c for c, _ in step.eliminations})
    return {
        "kind": "step",
        "technique": data["technique"],
        "description": data["description"],
        "nudge": data["nudge"],
        "placements": data["placements"],
        "eliminations": data["eliminations"],
        "pattern": data["pattern"],
        "cells": [cell_name(c) for c in cells],
    }


HINTERS: dict[str, Hinter] = {"sumodoku": sumodoku_hint, "challenge": challenge_hint}
"""The hint of each game that has one, by game id."""
