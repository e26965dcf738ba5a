"""The computer never plays an illegal move, in hundreds of random positions of every game."""

from __future__ import annotations

import random
import zlib

import pytest

import sansu
from sansu.ai import LEVELS, get_player

SETUPS = [
    ("uttt", {}, 300),
    ("sansumoku", {}, 300),
    ("thirtyfive", {}, 200),
    ("thirtyfive", {"rows": 5, "cols": 7}, 100),
    ("sumodoku", {}, 200),
    ("sumodoku", {"any_colour": True, "diagonals": True}, 100),
    ("sumodoku", {"honour": True}, 100),
    ("challenge", {}, 200),
    ("challenge", {"players": 3, "sequence": "express", "errors": "simplified"}, 100),
    ("challenge", {"players": 4, "teams": True, "turn_seconds": 30}, 100),
    ("challenge", {"players": 5, "difficulty": "hard"}, 100),
]


def random_positions(game, count: int, rng: random.Random):
    """Positions of random games, spread over whole games."""
    positions = []
    while len(positions) < count:
        state = game.initial_state()
        while state.result is None and len(positions) < count:
            positions.append(state)
            moves = [m for m in state.legal_moves() if str(m) != "timeout"]
            state = state.play(rng.choice(moves))
    return positions


@pytest.mark.parametrize(("game_id", "options", "count"), SETUPS)
def test_every_chosen_move_is_legal(game_id, options, count) -> None:
    game = sansu.load_game(game_id, **options)
    rng = random.Random(zlib.crc32(f"{game_id}{options}".encode()))
    players = [
        get_player(game_id, level, seed=i, options=options) for i, level in enumerate(LEVELS)
    ]
    for i, state in enumerate(random_positions(game, count, rng)):
        player = players[i % len(players)]
        move = player.choose(state, simulations=3).move
        legal = state.legal_moves()
        assert move in legal, (i, str(move))
        assert str(move) != "timeout"  # a host's move, never a player's
        state.play(move)  # and the engine accepts it
