"""Reference opponents and single games of the arena."""

from __future__ import annotations

import pytest

import sansu
from sansu.ai.arena import make_player, play_game
from sansu.ai.baselines import FlatMonteCarlo, RandomPlayer


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku", "thirtyfive", "sumodoku", "challenge"])
def test_flat_monte_carlo_spreads_its_playouts_evenly_and_plays_legally(game_id) -> None:
    game = sansu.load_game(game_id)
    state = game.initial_state()
    analysis = FlatMonteCarlo(game, seed=1).choose(state, simulations=30)
    assert analysis.move in state.legal_moves()
    assert analysis.level == "flat"


def test_flat_monte_carlo_finds_the_win_in_one() -> None:
    from tests.ai.test_kernels import WINS

    moves, winning = WINS["uttt"]
    state = sansu.load_game("uttt").play_moves(moves.split())
    n = len(state.legal_moves())
    analysis = FlatMonteCarlo(state.game, seed=1).choose(state, simulations=40 * n)
    assert str(analysis.move) == winning


def test_random_player_never_plays_the_hosts_timeout() -> None:
    game = sansu.load_game("challenge", turn_seconds=10)
    player = RandomPlayer(game, seed=1)
    state = game.initial_state()
    for _ in range(50):
        move = player.choose(state).move
        assert str(move) != "timeout"
        state = state.play(move)


def test_a_game_between_named_players_with_a_time_for_one_of_them() -> None:
    game = sansu.load_game("thirtyfive", rows=3, cols=4)
    outcome = play_game(
        game, ("easy", "random"), seed=3, time_ms={"easy": 40}, first_seat=1, index=7
    )
    assert outcome.plies == 12 and len(outcome.moves) == 12
    assert outcome.budget_ms == {"easy": 40.0, "random": 0.0}
    assert len(outcome.times_ms["easy"]) == 6 and len(outcome.times_ms["random"]) == 6
    assert outcome.score in (0.0, 0.5, 1.0) and outcome.first_seat == 1
    replay = game.play_moves(outcome.moves)
    assert replay.result is not None and replay.result.reason == outcome.reason


def test_player_names_are_levels_or_references() -> None:
    game = sansu.load_game("uttt")
    assert make_player(game, "flat", seed=1).level == "flat"
    assert make_player(game, "random", seed=1).level == "random"
    assert make_player(game, "hard", seed=1).level == "hard"
    with pytest.raises(ValueError, match="unknown level"):
        make_player(game, "superb", seed=1)
