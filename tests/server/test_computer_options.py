"""The server's computer searches with the game's own options, whatever their names: a
game option called ``seed`` (Sumodoku, Sudoku Challenge) is the game's, not the player's,
so the level plays (it used to fail there, leaving the server's fallback to move)."""

from __future__ import annotations

import pytest

import sansu
from sansu.server.play.computer import ComputerRequest, choose_move


@pytest.mark.parametrize("game_id", ["sumodoku", "challenge", "uttt", "sansumoku", "thirtyfive"])
def test_the_level_plays_with_every_option_of_the_game(game_id: str) -> None:
    game = sansu.load_game(game_id)
    options = dict(game.options)
    request = ComputerRequest(game_id, options, (), "beginner", seed=5, time_ms=None)
    move = choose_move(request)
    state = game.initial_state()
    assert move in {str(m) for m in state.legal_moves()}
