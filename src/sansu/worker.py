"""What a computer worker process runs: a move for a position given as plain data.

Kept apart from the server (:mod:`sansu.server.play.computer` hands these to its
process pool) so that a worker imports no more than the games and their players:
it starts in a second, and a computer's first move does not wait for the server's
web framework and database layers to load in it.

A request is plain data (game id, options, the moves so far, level, seed, time
budget); the worker rebuilds the position and asks :mod:`sansu.ai` for a move.
"""

from __future__ import annotations

import logging
import os
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from sansu.warmup import Loader, follow_parent, ready

log = logging.getLogger("sansu.server")

HOST_MOVES = frozenset({"timeout"})
"""Moves a host applies; a computer plays them only when nothing else is legal."""


@dataclass(frozen=True)
class ComputerRequest:
    game: str
    options: dict[str, Any] = field(hash=False)
    moves: tuple[str, ...]
    level: str
    seed: int
    time_ms: int | None = None
    version: int = 0
    """The state number the move is for (a move for an older state is dropped)."""
    seat: int = 0


@lru_cache(maxsize=32)
def cached_game(game: str, options_key: tuple[tuple[str, Any], ...]) -> Any:
    """The game ``game`` with the options ``options_key`` (sorted pairs), built once per
    worker for its many searches."""
    import sansu

    return sansu.load_game(game, **dict(options_key))


def choose_move(request: ComputerRequest) -> str:
    """The computer's move in the position of ``request`` (runs in a worker)."""
    game = cached_game(request.game, tuple(sorted(request.options.items())))
    state = game.play_moves(list(request.moves))
    try:
        from sansu.ai import get_player
    except ImportError:  # pragma: no cover - fallback kept for a tree without players
        return random_move(state, request.seed)
    player = get_player(request.game, request.level, seed=request.seed, options=request.options)
    if not ready(request.game):  # its compiled code is still being built: no waiting for it
        player.generic = True
    analysis = player.choose(state, time_ms=request.time_ms)
    return str(analysis.move)


def warm_up() -> None:
    """Loads (compiling on first use) every game's search, at every level."""
    import sansu
    from sansu.ai import LEVELS, get_player

    for game in sansu.game_ids():
        for level in LEVELS:
            try:
                get_player(game, level, seed=0).warm_up()
            except Exception:  # a player that cannot warm up still plays (slower at first)
                log.exception("cannot warm up the %s player of %s", level, game)


def worker_start(parent: int, ready: Any, marks: str | None = None) -> None:
    """Runs first in every worker: follow the server's life (:func:`follow_parent`), then
    load the compiled code (``marks``: as :class:`~sansu.warmup.Warmup` builds it, in the
    background)."""
    follow_parent(parent)
    if marks is None:
        warm_up()
    else:
        Loader(Path(marks)).start()
    ready.put(os.getpid())


def worker_pid() -> int:
    return os.getpid()


def random_move(state: Any, seed: int) -> str:
    """A seeded random legal move, host moves only when nothing else is legal."""
    moves = [str(m) for m in state.legal_moves()]
    playable = [m for m in moves if m not in HOST_MOVES] or moves
    return random.Random(seed).choice(playable)
