"""The named levels: how much each one thinks and how carefully it picks its move.

Strength comes from the simulation budget first (so a level is as strong on
a slow machine as on a fast one, up to its time limit), then from how the
move is picked: the lower levels pick at random among the moves their small
search liked (more often the better ones), so they make the mistakes of a
hurried player: a threat noticed too late, a good move played instead of
the best one. Lower levels of Sudoku Challenge also see fewer deductions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

LEVELS = ("beginner", "easy", "medium", "hard", "max")


@dataclass(frozen=True)
class Level:
    """One level's settings for one game."""

    name: str
    time_ms: int
    """Default thinking time per move."""
    simulations: int | None
    """Most simulations per move (``None``: only the clock limits it)."""
    temperature: float = 0.0
    """0: play the most searched move; above 0: draw a move with odds visits^(1/T)."""
    c_uct: float = 0.8
    playout: int = 1
    """Compiled kernels' playout policy: 0 uniform, 1 take a game-winning move."""
    vision: str = "solve"
    """Sudoku Challenge: what the player deduces (see :mod:`sansu.ai.sight`)."""
    widening: float = 2.0
    """Generic search: progressive widening (at most ``widening * sqrt(visits)`` children)."""
    reuse: bool = False
    """Compiled kernels: go on from the previous search's tree when the game has moved on
    by this player's move and the reply (a player object kept through a game). Off: in
    Ultimate Tic-Tac-Toe self-play at 100 ms it did not make ``max`` stronger."""


COMPILED = {
    "beginner": Level("beginner", 200, 60, temperature=1.0, playout=0),
    "easy": Level("easy", 300, 400, temperature=0.3, playout=0),
    "medium": Level("medium", 500, 3_000, c_uct=0.5),
    "hard": Level("hard", 1_000, 25_000, c_uct=0.5),
    "max": Level("max", 2_000, None, c_uct=0.5),
}
"""Ultimate Tic-Tac-Toe and Sansumoku: the search runs compiled, some 10⁵ simulations/s."""

THIRTYFIVE = {
    "beginner": Level("beginner", 300, 1_500, temperature=1.0, playout=0),
    "easy": Level("easy", 500, 6_000, temperature=0.3, playout=0),
    "medium": Level("medium", 1_000, 25_000, c_uct=0.5),
    "hard": Level("hard", 2_000, 100_000, c_uct=0.5),
    "max": Level("max", 3_000, None, c_uct=0.5),
}
"""35: compiled too, but with up to 9 × 144 moves a position it needs more simulations."""

GENERIC = {
    "beginner": Level("beginner", 300, 24, temperature=1.0, vision="glance"),
    "easy": Level("easy", 500, 100, temperature=0.3, vision="singles"),
    "medium": Level("medium", 1_000, 400, vision="chain"),
    "hard": Level("hard", 2_000, 1_500, vision="chain"),
    "max": Level("max", 3_000, None, vision="solve"),
}
"""Sumodoku and Sudoku Challenge, searched through the protocol in Python (some 10² to 10³
simulations/s)."""

PER_GAME: dict[str, dict[str, Level]] = {
    "uttt": COMPILED,
    "sansumoku": COMPILED,
    "thirtyfive": THIRTYFIVE,
    "sumodoku": GENERIC,
    "challenge": GENERIC,
}


def level_for(game_id: str, level: str) -> Level:
    """The settings of ``level`` in the game ``game_id``; ``ValueError`` for an unknown level."""
    if not isinstance(level, str) or level.strip().lower() not in LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    table = PER_GAME.get(game_id, GENERIC)
    return replace(table[level.strip().lower()])
