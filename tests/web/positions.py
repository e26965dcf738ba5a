"""Positions the browser tests draw: each board in its telling states.

Every position is reached by playing real moves through the engine, so the
boards are drawn from exactly the JSON the server sends.
"""

from __future__ import annotations

import random
from typing import Any

import sansu

UTTT_MID = (
    "r7c6 r3c8 r7c5 r2c5 r6c6 r8c8 r4c5 r3c4 r9c3 r8c7 r6c3 r9c7 r8c2 r5c5 r4c4 r3c1 r7c3 "
    "r2c7 r5c2 r5c4 r4c2 r3c6 r7c8 r1c4 r2c2 r6c5 r7c4 r1c1 r3c3 r7c9"
)
UTTT_WON = (
    "r3c2 r7c5 r1c5 r3c4 r7c3 r2c8 r5c5 r5c4 r4c1 r1c3 r3c8 r9c5 r9c6 r9c9 r8c9 r6c9 r8c7 "
    "r5c3 r4c7 r3c3 r7c7 r2c1 r5c2 r4c6 r2c7 r6c1 r8c1 r6c3 r7c9 r1c8 r1c6 r1c7 r1c2 r2c5 "
    "r4c5 r2c4 r5c1 r6c2 r9c4 r9c1 r7c2 r3c6 r9c8 r8c6 r6c8 r8c4 r7c1 r2c3 r5c8 r5c6 r5c9 "
    "r6c7 r8c5 r6c4 r7c8 r2c6 r4c9 r3c7 r5c7 r7c6 r2c9 r6c6 r7c4"
)
SANSUMOKU_OPENING = "r4c4 r1c2 r2c5"
"""The rule text's first three moves: Blue r4c4, Orange r1c2, Blue r2c5."""
SANSUMOKU_MID = (
    "r5c8 r6c4 r7c1 r2c2 r6c6 r9c9 r8c8 r5c4 r4c3 r1c7 r1c3 r3c7 r7c2 r3c5 r8c6 r4c9 r2c7 "
    "r5c1 r4c1 r3c3 r8c9 r6c8 r9c4 r9c2 r7c6 r2c8 r5c6 r6c9 r7c7 r3c2 r8c5 r6c5 r1c9 r1c8 "
    "r2c4 r3c1"
)
"""A section won by a line, one won by constraint, a wildcard-free position."""
SANSUMOKU_WON = (
    "r3c6 r7c8 r2c5 r4c4 r2c1 r6c3 r9c9 r9c7 r9c2 r8c5 r4c6 r1c9 r1c7 r3c2 r8c4 r6c1 r7c3 "
    "r3c8 r7c6 r3c9 r8c7 r5c2 r4c5 r2c4 r4c1 r1c1 r1c2 r2c6 r5c7 r4c3 r2c9 r5c8 r5c5 r6c5 "
    "r9c4 r8c2 r6c4 r7c1 r3c3 r7c7 r3c1 r9c1 r7c2 r1c5 r1c4 r1c3 r2c8 r4c9 r2c7 r6c9 r9c8 "
    "r8c6 r6c8"
)
"""Blue wins with the centre column, a section won by constraint on the way."""
THIRTYFIVE_TRIGGER = "r1c1=5 r1c2=9 r2c2=9 r3c3=8 r2c1=9 r3c1=9 r4c4=3"
CHALLENGE_ERRORS = "r1c2=9 r1c4=2 r1c4=1 r1c5=3 r1c6=5 r1c7=8 r2c1=6 r2c3=4 r2c4=3"
"""Three players; an error corrected, one still to correct."""


def view(game_id: str, moves: str = "", **options: Any) -> dict[str, Any]:
    game = sansu.load_game(game_id, **options)
    state = game.play_moves(moves.split()) if moves else game.initial_state()
    return state.view(None)


def random_view(game_id: str, plies: int, seed: int = 0, **options: Any) -> dict[str, Any]:
    """The position after ``plies`` random placements (actions left out)."""
    rng = random.Random(seed)
    state = sansu.load_game(game_id, **options).initial_state()
    for _ in range(plies):
        moves = [m for m in state.legal_moves() if "=" in str(m) or str(m)[0] == "r"]
        if state.result is not None or not moves:
            break
        state = state.play(rng.choice(moves))
    return state.view(None)


def thirtyfive_conversion() -> dict[str, Any]:
    """A 35 position whose last move converted squares (drawn animated)."""
    rng = random.Random(5)
    game = sansu.load_game("thirtyfive")
    for _ in range(200):
        state = game.initial_state()
        while state.result is None:
            state = state.play(rng.choice(state.legal_moves()))
            data = state.to_dict()
            if len(data["converted"]) >= 2 and data["over"] and state.ply > 20:
                return state.view(None)
    raise AssertionError("no conversion found")


def gallery() -> list[tuple[str, dict[str, Any]]]:
    """(file name, view) of every board worth a screenshot."""
    return [
        ("uttt-start", view("uttt")),
        ("uttt-middle", view("uttt", UTTT_MID)),
        ("uttt-won", view("uttt", UTTT_WON)),
        ("sansumoku-opening", view("sansumoku", SANSUMOKU_OPENING)),
        ("sansumoku-middle", view("sansumoku", SANSUMOKU_MID)),
        ("sansumoku-won", view("sansumoku", SANSUMOKU_WON)),
        ("sumodoku-start", view("sumodoku")),
        (
            "sumodoku-variants",
            random_view("sumodoku", 23, seed=3, parity=True, consecutive=True, diagonals=True),
        ),
        ("sumodoku-claim-open", random_view("sumodoku", 30, seed=1, honour=True)),
        ("challenge-start", view("challenge", players=3)),
        ("challenge-errors", view("challenge", CHALLENGE_ERRORS, players=3)),
        ("thirtyfive-trigger", view("thirtyfive", THIRTYFIVE_TRIGGER)),
        ("thirtyfive-conversion", thirtyfive_conversion()),
    ]


SUMODOKU_STUCK = (
    "r4c9=3 r8c7=9 r9c7=3 r3c3=5 r7c4=2 r7c2=8 r1c1=9 r1c7=8 r6c4=3 r3c9=9 r4c1=2 r8c6=6 "
    "r8c2=3 r7c7=5 r1c9=2 r1c2=6 r9c5=9 r6c6=5 r9c4=4 r2c7=7 r7c3=4 r5c9=6 r1c5=3 r8c4=5 "
    "r3c8=1 r6c3=9 r5c6=4 r5c2=7 r5c1=3 r5c8=8 r4c5=1 r8c9=7 r4c7=4 r9c6=7 r9c8=2 r3c6=8 "
    "r6c9=1 r4c4=8 r1c8=4 r7c1=7 r3c2=4 r7c8=6 r2c1=1 r2c5=5 r5c3=1 r9c9=8 r8c3=2 r8c5=8 "
    "r1c4=1 r2c3=8 r4c8=9 r9c1=6 r2c6=2 r3c5=7 r9c2=1 r3c7=6 r5c4=9 r2c4=6 r6c5=2 r4c3=6 "
    "r6c1=4 r1c3=7 r7c6=1 r4c2=5 r2c8=3 r6c8=7 r5c7=2"
)
"""67 placements: the second player, at their turn 34, has no colour that fits any cell and
must claim Sudoku! or lose."""
