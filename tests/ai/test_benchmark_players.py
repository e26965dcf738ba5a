"""The benchmark players: ``max0`` (``max`` before the network), ``netmax`` and ``netmix``."""

from __future__ import annotations

from dataclasses import replace

import pytest

import sansu
from sansu.ai.arena import check_player_name, make_player, run_series, summarise, tasks
from sansu.ai.kernels import uttt as UK
from sansu.ai.levels import LEVELS, benchmark_level, level_for
from sansu.ai.network import shipped


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku", "thirtyfive", "sumodoku"])
def test_max0_is_max_before_the_network(game_id) -> None:
    max0 = benchmark_level(game_id, "max0")
    assert max0.net == 0.0 and max0.simulations is None and max0.temperature == 0.0
    if game_id == "uttt":
        # max's search, with the playouts' free moves drawn the slower way of then.
        assert max0 == replace(level_for(game_id, "max"), name="max0", playout=6 | UK.COUNTED)
    else:
        assert max0 == replace(level_for(game_id, "max"), name="max0")


def test_no_shipped_level_uses_the_network_until_a_match_says_it_is_stronger() -> None:
    for game_id in ("uttt", "sansumoku"):
        assert all(level_for(game_id, name).net == 0.0 for name in LEVELS)


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
@pytest.mark.parametrize("name", ["netmax", "netmix"])
def test_the_network_players_use_the_shipped_weights(game_id, name) -> None:
    net = shipped(game_id)
    assert net is not None and net.game == game_id
    assert net.parameters * 4 < 200_000  # far below the 5 MB
    game = sansu.load_game(game_id)
    state = game.initial_state().play("r5c5")
    a = make_player(game, name, seed=4).choose(state, simulations=800)
    b = make_player(game, name, seed=4).choose(state, simulations=800)
    assert a.move in state.legal_moves() and a.move == b.move and a.simulations == 800
    search = make_player(game, name, seed=4)._searcher()
    assert search.mix == benchmark_level(game_id, name).net > 0.0


def test_a_game_without_a_network_refuses_the_network_players() -> None:
    game = sansu.load_game("thirtyfive", rows=4, cols=4)
    with pytest.raises(ValueError, match="no value network"):
        make_player(game, "netmax", seed=1).choose(game.initial_state(), simulations=10)


def test_a_short_series_of_the_network_against_max0() -> None:
    assert check_player_name("netmax") == "netmax"
    outcomes = run_series(tasks("uttt", {}, "netmax", "max0", 2, seed=3, simulations=300))
    s = summarise("netmax", "max0", outcomes)
    assert s.games == 2 and s.wins + s.draws + s.losses == 2
    assert [o.seats for o in outcomes] == [("netmax", "max0"), ("max0", "netmax")]
