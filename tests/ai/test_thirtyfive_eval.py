"""35's fitted leaf evaluator: compiled features against the engine, the fit, the search."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.ai.compiled import CompiledSearch
from sansu.ai.kernels import thirtyfive as TK
from sansu.ai.kernels.thirtyfive_eval import N_FEATURES, NAMES, features, value
from sansu.ai.kernels.tree import Tree
from sansu.ai.thirtyfive_eval import NO_EVALUATOR, LeafModel, fit, log_loss, reference_features
from sansu.ai.training.thirtyfive_data import play_game


def random_positions(rows: int, cols: int, seed: int):
    """Pairs (engine state, kernel array reached by the kernel's own moves) of a random game."""
    rng = random.Random(seed)
    game = sansu.load_game("thirtyfive", rows=rows, cols=cols)
    state = game.initial_state()
    array = TK.from_state(state)
    while state.result is None:
        yield state, array.copy()
        # Small digits more often than uniform: sums then come near 35 as in real games.
        move = game.geometry.move(rng.choice(state.empty_cells()), rng.choice((1, 2, 3, 4, 9)))
        state = state.play(move)
        TK.play(array, TK.code_of(game, move))


def compiled_features(array: np.ndarray) -> np.ndarray:
    out = np.empty(N_FEATURES)
    features(array, out)
    return out


def test_compiled_features_equal_the_reference_on_random_games_of_many_sizes() -> None:
    seen = np.zeros(N_FEATURES, dtype=bool)
    checked = 0
    for i, (rows, cols) in enumerate([(3, 3), (4, 7), (6, 6), (8, 8), (9, 5), (12, 12)] * 5):
        for state, array in random_positions(rows, cols, seed=i):
            got = compiled_features(array)
            assert np.allclose(got, reference_features(state), atol=1e-12), state.to_dict()
            seen |= got != 0
            checked += 1
    assert checked > 1500
    # Every feature occurs, so none is compared only as a pair of zeros.
    assert seen.all(), [n for n, s in zip(NAMES, seen, strict=True) if not s]


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(3, 12), cols=st.integers(3, 12))
def test_features_do_not_change_when_the_board_is_transposed(seed, rows, cols) -> None:
    rng = random.Random(seed)
    game = sansu.load_game("thirtyfive", rows=rows, cols=cols)
    flipped = sansu.load_game("thirtyfive", rows=cols, cols=rows)
    a, b = game.initial_state(), flipped.initial_state()
    for _ in range(rng.randint(0, rows * cols - 1)):
        cell, digit = rng.choice(a.empty_cells()), rng.randint(1, 9)
        r, c = divmod(cell, cols)
        a = a.play(game.geometry.move(cell, digit))
        b = b.play(flipped.geometry.move(c * rows + r, digit))
    assert np.allclose(compiled_features(TK.from_state(a)), compiled_features(TK.from_state(b)))


def test_features_are_from_the_movers_side() -> None:
    game = sansu.load_game("thirtyfive", rows=4, cols=4)
    state = game.play_moves(["r1c1=9"])
    x = reference_features(state)
    assert x[NAMES.index("territory")] == -1 / 16  # Blue to move: the 9 is Red's
    assert x[NAMES.index("empty")] == 15 / 16
    assert x[NAMES.index("odd")] == 1.0  # 15 squares left: Blue makes the last move
    state = state.play("r4c4=1")
    assert reference_features(state)[NAMES.index("territory")] == 0.0


def test_compiled_value_is_the_models_prediction() -> None:
    rng = np.random.default_rng(3)
    model = LeafModel(rng.normal(0, 2, N_FEATURES), np.array([0.3]))
    x = np.empty(N_FEATURES)
    for state, array in random_positions(7, 9, seed=5):
        expected = model.predict(reference_features(state)[None, :])[0]
        assert value(array, model.weights, model.bias, x) == pytest.approx(expected, abs=1e-12)


def test_the_fit_recovers_a_known_logistic_model() -> None:
    rng = np.random.default_rng(0)
    truth = LeafModel(rng.normal(0, 1, N_FEATURES), np.array([-0.2]))
    x = rng.normal(0, 1, (20_000, N_FEATURES))
    y = (rng.random(len(x)) < truth.predict(x)).astype(float)
    model, loss = fit(x, y, l2=0.0)
    assert np.abs(model.weights - truth.weights).max() < 0.15
    assert loss == pytest.approx(log_loss(model.predict(x), y))
    assert loss < log_loss(np.full(len(y), 0.5), y)


def test_the_fit_rejects_bad_data() -> None:
    with pytest.raises(ValueError, match="features"):
        fit(np.zeros((3, 4)), np.zeros(3))
    with pytest.raises(ValueError, match="features"):
        fit(np.zeros((3, N_FEATURES)), np.zeros(2))


def test_a_model_is_saved_and_loaded(tmp_path) -> None:
    model = LeafModel(np.arange(N_FEATURES, dtype=float), np.array([1.5]))
    model.save(tmp_path / "m.npz")
    back = LeafModel.load(tmp_path / "m.npz")
    assert np.array_equal(back.weights, model.weights) and back.bias[0] == 1.5
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="not a 35 leaf model"):
        LeafModel.load(tmp_path / "bad.npz")


def _tree_after(root: np.ndarray, extra: tuple, seed: int, sims: int = 3000) -> Tree:
    tree = Tree(100_000, seed)
    tree.mover[0] = 1 - int(root[TK.TO_MOVE])
    TK.search(root, *tree.arrays(), sims, 0.5, 1, 0, 0.5, *extra)
    return tree


@pytest.mark.parametrize(("rows", "cols", "plies"), [(8, 8, 10), (5, 7, 3), (12, 12, 40)])
def test_mix_zero_never_reads_the_evaluator(rows, cols, plies) -> None:
    rng = random.Random(plies)
    state = sansu.load_game("thirtyfive", rows=rows, cols=cols).initial_state()
    for _ in range(plies):
        state = state.play(rng.choice(state.legal_moves()))
    root = TK.from_state(state)
    plain = _tree_after(root, (*NO_EVALUATOR, 0.0), seed=9)
    other = _tree_after(root, (np.full(N_FEATURES, 50.0), np.array([-7.0]), 0.0), seed=9)
    n = plain.nodes
    assert other.nodes == n
    for a, b in zip(plain.arrays(), other.arrays(), strict=True):
        assert np.array_equal(a[:n], b[:n])  # the tree's arrays, and its random state


def test_the_evaluator_steers_the_search() -> None:
    # Red to move can fire the 1 at r2c2 (neighbours 9+9+8 = 26) with a 9: it converts
    # Blue's three squares. An evaluator that values territory finds it at once.
    game = sansu.load_game("thirtyfive", rows=6, cols=6)
    state = game.play_moves(["r2c2=1", "r1c1=9", "r6c6=1", "r1c2=9", "r6c5=1", "r1c3=8"])
    weights = np.zeros(N_FEATURES)
    weights[NAMES.index("territory")] = 40.0
    model = LeafModel(weights, np.zeros(1))
    stats = CompiledSearch("thirtyfive", net=model, mix=1.0).run(state, simulations=3000, seed=1)
    best = str(stats.candidates[0].move)
    assert best.endswith("=9") and best.split("=")[0] in {"r2c1", "r3c1", "r3c2", "r3c3", "r2c3"}


def test_a_self_play_game_labels_every_position_with_its_movers_result() -> None:
    x, y = play_game(seed=4, simulations=50)
    assert x.shape == (len(y), N_FEATURES)
    assert set(y.tolist()) <= {0.0, 0.5, 1.0}
    assert np.all(y[:-1] + y[1:] == 1.0)  # the movers alternate
    again_x, again_y = play_game(seed=4, simulations=50)
    assert np.array_equal(x, again_x) and np.array_equal(y, again_y)


def test_a_level_with_net_uses_the_shipped_evaluator_and_says_when_there_is_none(
    monkeypatch,
) -> None:
    from sansu.ai import thirtyfive_eval
    from sansu.ai.levels import benchmark_level, with_settings
    from sansu.ai.player import ComputerPlayer

    game = sansu.load_game("thirtyfive", rows=5, cols=5)
    settings_ = with_settings(benchmark_level("thirtyfive", "max0"), "net=1")
    weights = np.zeros(N_FEATURES)
    weights[NAMES.index("territory")] = 40.0
    monkeypatch.setattr(thirtyfive_eval, "shipped", lambda: LeafModel(weights, np.zeros(1)))
    player = ComputerPlayer(game, settings_, seed=1)
    state = game.play_moves(["r2c2=1", "r1c1=9", "r5c5=1", "r1c2=9", "r5c4=1", "r1c3=8"])
    move = str(player.choose(state, simulations=2000).move)
    assert move.endswith("=9") and move.split("=")[0] in {"r2c1", "r3c1", "r3c2", "r3c3", "r2c3"}
    monkeypatch.setattr(thirtyfive_eval, "shipped", lambda: None)
    with pytest.raises(ValueError, match="no value network is shipped"):
        ComputerPlayer(game, settings_, seed=1).choose(state, simulations=100)
