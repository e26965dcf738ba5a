"""The value network: compiled features against the engines, compiled inference against NumPy."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.ai.compiled import CompiledSearch
from sansu.ai.kernels import sansumoku as SK
from sansu.ai.kernels import uttt as UK
from sansu.ai.kernels.valuenet import MAX_ACTIVE, N_FEATURES, dense, features_of_state, forward
from sansu.ai.network import ValueNet, shipped

KERNELS = {"uttt": UK, "sansumoku": SK}


def random_positions(game_id: str, games: int, seed: int):
    """Pairs (engine state, kernel array reached by the kernel's own moves) of random games."""
    k = KERNELS[game_id]
    rng = random.Random(seed)
    game = sansu.load_game(game_id)
    for _ in range(games):
        state = game.initial_state()
        array = k.from_state(state)
        while state.result is None:
            yield state, array.copy()
            move = rng.choice(state.legal_moves())
            state = state.play(move)
            k.play(array, k.code_of(game, move))


@pytest.mark.parametrize("game_id", sorted(KERNELS))
def test_compiled_features_equal_the_engine_features_on_random_games(game_id) -> None:
    k = KERNELS[game_id]
    active = np.empty(MAX_ACTIVE, dtype=np.int64)
    checked = 0
    for state, array in random_positions(game_id, 60, seed=11):
        n = k.features(array, active)
        expected = features_of_state(state)
        assert np.array_equal(dense(active, n), expected), state.to_dict()
        assert len(set(active[:n].tolist())) == n  # no feature counted twice
        checked += 1
    assert checked > 1500


def test_features_are_from_the_movers_side() -> None:
    game = sansu.load_game("uttt")
    a = features_of_state(game.initial_state().play("r5c5"))
    # O to move: the X in the centre is the opponent's mark.
    assert a[81 + 40] == 1 and a[40] == 0
    assert a[189 + 4] == 1 and a[198] == 0  # sent to the centre section
    assert a[280:298].sum() == 0  # nobody can win a section in one move
    assert a[316:334].sum() == 18  # every section still open to both
    assert a.sum() == 1 + 1 + 8 + 18  # one mark, one section, eight legal cells, lines


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 8, 32]))
def test_compiled_inference_equals_the_numpy_forward_pass(seed, hidden) -> None:
    net = ValueNet.initial("uttt", hidden, seed)
    rng = np.random.default_rng(seed)
    net.b1 += rng.normal(0, 0.3, hidden).astype(np.float32)
    net.b2[0] = np.float32(rng.normal(0, 0.3))
    x = (rng.random((20, N_FEATURES)) < 0.2).astype(np.uint8)
    expected = net.predict(x)
    for row, value in zip(x, expected, strict=True):
        active = np.flatnonzero(row).astype(np.int64)
        got = forward(active, active.size, *net.arrays())
        assert abs(got - value) < 1e-5


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([1, 8, 32]), st.floats(0.05, 20.0))
def test_the_searchs_int16_first_layer_is_within_half_a_step_a_weight(seed, hidden, size) -> None:
    net = ValueNet.initial("uttt", hidden, seed)
    rng = np.random.default_rng(seed)
    net.w1 *= np.float32(size)
    net.b1 += rng.normal(0, 0.3, hidden).astype(np.float32)
    net.b2[0] = np.float32(rng.normal(0, 0.3))
    w1, b1, w2, b2 = net.kernel_arrays()
    assert w1.dtype == np.int16 and b1.dtype == np.int32
    scale = float(net.w2[0] / w2[0])  # a power of two: the division is exact
    assert max(np.abs(w1).max(), np.abs(b1).max()) > 16383  # the largest scale int16 allows
    x = (rng.random((20, N_FEATURES)) < 0.2).astype(np.uint8)
    for row, value in zip(x, net.predict(x), strict=True):
        active = np.flatnonzero(row).astype(np.int64)
        got = forward(active, active.size, w1, b1, w2, b2)
        # Each of the k + 1 terms of a hidden unit moves by at most half a step.
        bound = (active.size + 1) * 0.5 / scale * np.abs(net.w2).sum() + 1e-5
        assert abs(got - value) <= bound


def test_the_shipped_networks_int16_layer_changes_values_by_under_a_thousandth() -> None:
    for game_id, k in KERNELS.items():
        net = shipped(game_id)
        compiled = net.kernel_arrays()
        active = np.empty(MAX_ACTIVE, dtype=np.int64)
        worst = 0.0
        for _, array in random_positions(game_id, 10, seed=3):
            n = k.features(array, active)
            exact = net.predict(dense(active, n)[None, :])[0]
            worst = max(worst, abs(forward(active, n, *compiled) - exact))
        assert worst < 1e-3


@pytest.mark.parametrize("game_id", sorted(KERNELS))
@pytest.mark.parametrize("mix", [0.5, 1.0])
def test_a_search_with_the_network_is_reproducible_and_legal(game_id, mix) -> None:
    net = ValueNet.initial(game_id, 16, 3)
    state = sansu.load_game(game_id).initial_state().play("r5c5")
    a = CompiledSearch(game_id, net=net, mix=mix).run(state, simulations=3000, seed=5)
    b = CompiledSearch(game_id, net=net, mix=mix).run(state, simulations=3000, seed=5)
    assert [(str(c.move), c.visits) for c in a.candidates] == [
        (str(c.move), c.visits) for c in b.candidates
    ]
    assert {str(c.move) for c in a.candidates} == {str(m) for m in state.legal_moves()}
    assert sum(c.visits for c in a.candidates) == 3000


def test_the_network_steers_the_search() -> None:
    """A network that loves one cell for the mover's opponent makes the search avoid it."""
    game_id = "uttt"
    state = sansu.load_game(game_id).initial_state()
    net = ValueNet.initial(game_id, 1, 0)
    net.w1[:] = 0
    net.w2[:] = 1
    net.w1[81 + 40, 0] = 3.0  # after X takes the centre, O (to move) looks winning
    plain = CompiledSearch(game_id, net=net, mix=1.0).run(state, simulations=4000, seed=1)
    centre = next(c for c in plain.candidates if str(c.move) == "r5c5")
    assert centre.visits < 4000 / 81


@pytest.mark.parametrize("game_id", sorted(KERNELS))
def test_the_network_as_visits_of_a_leaf_steers_a_playout_search(game_id) -> None:
    """With ``net_visits`` alone (``mix`` 0) playouts value the leaves, and the network's
    value of each new leaf counts as that many visits of it: a cell the network hates for
    the mover is searched less than its siblings, and every root child carries its head
    start besides the simulations."""
    state = sansu.load_game(game_id).initial_state()
    net = ValueNet.initial(game_id, 1, 0)
    net.w1[:] = 0
    net.w2[:] = 1
    net.w1[81 + 40, 0] = 3.0  # after the centre is taken, the opponent looks winning
    sims, weight = 6000, 40
    stats = CompiledSearch(game_id, net=net, net_visits=weight, c_uct=0.5).run(
        state, simulations=sims, seed=2
    )
    plain = CompiledSearch(game_id, c_uct=0.5).run(state, simulations=sims, seed=2)
    visits = {str(c.move): c.visits for c in stats.candidates}
    assert sum(visits.values()) == sims + weight * len(visits)
    assert visits["r5c5"] - weight < min(v for m, v in visits.items() if m != "r5c5")
    centre = next(c for c in plain.candidates if str(c.move) == "r5c5")
    assert centre.visits > visits["r5c5"] - weight
    again = CompiledSearch(game_id, net=net, net_visits=weight, c_uct=0.5).run(
        state, simulations=sims, seed=2
    )
    assert [(str(c.move), c.visits, c.reward) for c in again.candidates] == [
        (str(c.move), c.visits, c.reward) for c in stats.candidates
    ]


@pytest.mark.parametrize("game_id", sorted(KERNELS))
def test_a_network_given_no_share_and_no_visits_changes_nothing(game_id) -> None:
    state = sansu.load_game(game_id).initial_state().play("r1c1")
    net = ValueNet.initial(game_id, 8, 4)
    with_net = CompiledSearch(game_id, net=net, c_uct=0.5, policy=9)
    plain = CompiledSearch(game_id, c_uct=0.5, policy=9)
    a = with_net.run(state, simulations=2500, seed=3)
    b = plain.run(state, simulations=2500, seed=3)
    assert [(str(c.move), c.visits, c.reward) for c in a.candidates] == [
        (str(c.move), c.visits, c.reward) for c in b.candidates
    ]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="mix"):
        CompiledSearch("uttt", mix=1.5)
    with pytest.raises(ValueError, match="network"):
        CompiledSearch("uttt", mix=0.5)
    with pytest.raises(ValueError, match="network"):
        CompiledSearch("uttt", net_visits=5)
    with pytest.raises(ValueError, match="Ultimate Tic-Tac-Toe and Sansumoku"):
        CompiledSearch("thirtyfive", net=ValueNet.initial("uttt", 1, 0), net_visits=5)
    for bad in (-1, 2.5, 10_001, True):
        with pytest.raises(ValueError, match="net_visits"):
            CompiledSearch("uttt", net=ValueNet.initial("uttt", 1, 0), net_visits=bad)


def test_a_saved_network_loads_back(tmp_path) -> None:
    net = ValueNet.initial("sansumoku", 8, 1)
    net.save(tmp_path / "n.npz")
    back = ValueNet.load(tmp_path / "n.npz")
    assert back.game == "sansumoku" and all(
        np.array_equal(a, b) for a, b in zip(net.arrays(), back.arrays(), strict=True)
    )
    (tmp_path / "bad.npz").write_bytes(b"not a network")
    with pytest.raises(ValueError, match="not a value network"):
        ValueNet.load(tmp_path / "bad.npz")
    assert shipped("thirtyfive") is None


def test_the_threat_features_agree_with_the_kernels_tactics() -> None:
    """A section the mover could win with one mark and whose winning wins the game is the
    kernel's game-winning threat; ``WIN_NOW`` is set exactly when a winning move exists."""
    from sansu.ai.kernels.valuenet import MY_DECISIVE, MY_THREAT, WIN_NOW

    active = np.empty(MAX_ACTIVE, dtype=np.int64)
    wins = 0
    for _, array in random_positions("uttt", 80, seed=5):
        x = dense(active, UK.features(array, active))
        me = int(array[UK.TO_MOVE])
        both = x[MY_THREAT : MY_THREAT + 9] & x[MY_DECISIVE : MY_DECISIVE + 9]
        assert sum(int(b) << s for s, b in enumerate(both)) == UK.threats(array, me)
        can_win = UK.winning_move(array, me) >= 0
        assert x[WIN_NOW] == can_win
        wins += can_win
    assert wins > 20
