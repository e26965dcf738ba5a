"""Computer players for every sansu game: named levels, a budget per move, an analysis.

>>> from sansu.ai import get_player
>>> import sansu
>>> bot = get_player("uttt", "easy", seed=1)
>>> state = sansu.load_game("uttt").initial_state()
>>> analysis = bot.choose(state, simulations=200)
>>> analysis.move in state.legal_moves(), analysis.simulations
(True, 200)

Importing this package is cheap: compiled kernels load on a player's first
search (numba caches them on disk), so a worker process can build a player
per request.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sansu.ai.analysis import Analysis, Candidate
from sansu.ai.levels import LEVELS, Level, level_for
from sansu.ai.player import ComputerPlayer
from sansu.core.protocol import Game

__all__ = [
    "LEVELS",
    "Analysis",
    "Candidate",
    "ComputerPlayer",
    "Level",
    "get_player",
    "player_for",
]


def get_player(
    game_id: str,
    level: str = "medium",
    *,
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    **game_options: Any,
) -> ComputerPlayer:
    """A computer player of ``game_id`` (with ``game_options``) at ``level``.

    ``seed`` seeds the player. Game options may also come as one mapping,
    ``options``, which is how to pass a game's own ``seed`` option (Sumodoku,
    Sudoku Challenge): ``get_player("challenge", options={"seed": 7}, seed=1)``.
    Raises ``ValueError`` for an unknown game, option or level.
    """
    from sansu.core.registry import load_game

    merged = {**(options or {}), **game_options}
    return player_for(load_game(game_id, **merged), level, seed=seed)


def player_for(game: Game, level: str = "medium", *, seed: int | None = None) -> ComputerPlayer:
    """A computer player of an already loaded ``game`` at ``level``."""
    return ComputerPlayer(game, level_for(game.id, level), seed=seed)
