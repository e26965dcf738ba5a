"""The benchmark players: ``max0`` (``max`` before the network), ``netmax`` and ``netmix``."""

from __future__ import annotations

import pytest

import sansu
from sansu.ai.arena import check_player_name, make_player, run_series, summarise, tasks
from sansu.ai.bestfirst import BestFirstSearch
from sansu.ai.kernels import uttt as UK
from sansu.ai.levels import LEVELS, PER_GAME, benchmark_level, level_for, playout_max
from sansu.ai.network import shipped

MAX0_SETTINGS = {
    "uttt": {"time_ms": 2000, "c_uct": 0.5, "playout": 6 | UK.COUNTED, "reuse": True},
    "sansumoku": {"time_ms": 2000, "c_uct": 0.5, "playout": 1, "reuse": False},
    "thirtyfive": {"time_ms": 3000, "c_uct": 0.5, "playout": 1, "reuse": False},
    "sumodoku": {"time_ms": 3000, "c_uct": 0.8, "vision": "solve"},
}
"""``max`` as it was before the value network and the faster playouts (in UTTT with the
playouts' code of then): frozen."""


@pytest.mark.parametrize("game_id", sorted(MAX0_SETTINGS))
def test_max0_is_max_before_the_search_work_and_stays_so(game_id) -> None:
    max0 = benchmark_level(game_id, "max0")
    assert max0.net == 0.0 and max0.simulations is None and max0.temperature == 0.0
    assert max0.draw == 0.5
    for key, value in MAX0_SETTINGS[game_id].items():
        assert getattr(max0, key) == value, key


NET_LEVELS = {("uttt", "hard"), ("sansumoku", "hard")}
"""The playout levels whose match against the same level without the network said it is
stronger (see :mod:`sansu.ai.levels`)."""
BESTFIRST_LEVELS = {("uttt", "max"), ("sansumoku", "max")}
"""The levels that search best-first on the network, measured stronger than the playout
search they replaced."""


def test_only_the_levels_measured_stronger_with_the_network_use_it() -> None:
    using = {
        (g, name)
        for g in ("uttt", "sansumoku")
        for name in LEVELS
        if level_for(g, name).net or level_for(g, name).net_visits
    }
    assert using == NET_LEVELS
    best_first = {
        (g, name) for g in PER_GAME for name in LEVELS if level_for(g, name).bestfirst
    }
    assert best_first == BESTFIRST_LEVELS
    for game_id, name in sorted(BESTFIRST_LEVELS):
        player = make_player(sansu.load_game(game_id), name, seed=4)
        search = player._searcher()
        assert isinstance(search, BestFirstSearch)
        assert (search.minimax, search.c, search.fpu) == (
            player.settings.minimax, player.settings.c_uct, player.settings.fpu
        )
        assert playout_max(game_id).bestfirst is False
    for game_id, name in sorted(NET_LEVELS):
        game = sansu.load_game(game_id)
        state = game.initial_state().play("r5c5")
        player = make_player(game, name, seed=4)
        search = player._searcher()
        assert search.net is shipped(game_id)
        assert (search.mix, search.net_visits) == (player.settings.net, player.settings.net_visits)
        a = player.choose(state, simulations=600)
        assert a.move in state.legal_moves()
        assert make_player(game, name, seed=4).choose(state, simulations=600).move == a.move


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
@pytest.mark.parametrize("name", ["netmax", "netmix"])
def test_the_network_players_use_the_shipped_weights(game_id, name) -> None:
    net = shipped(game_id)
    assert net is not None and net.game == game_id
    assert net.parameters * 4 < 200_000  # far below the 5 MB allowed
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
