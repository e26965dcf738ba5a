"""Policy networks: the compiled odds against NumPy's, PUCT's use of them, files, fitting,
self-play targets and a tiny policy run."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from sansu.ai.compiled import CompiledSearch, kernel, net_arguments
from sansu.ai.kernels.tree import Tree
from sansu.ai.kernels.valuenet import LEGAL_AT, MAX_ACTIVE, dense
from sansu.ai.network import MOVES, PolicyNet, ValueNet, shipped
from sansu.ai.training import Mapper, TrainConfig, fit, loss, self_play, train
from sansu.core.registry import load_game


def random_policy(seed: int, hidden: int = 16) -> PolicyNet:
    rng = np.random.default_rng(seed)
    net = PolicyNet.initial("uttt", hidden, seed)
    net.w2 = rng.normal(0.0, 0.5, (MOVES, hidden)).astype(np.float32)
    net.b2 = rng.normal(0.0, 0.5, MOVES).astype(np.float32)
    return net


def random_states(game_id: str, count: int, seed: int) -> list:
    rng = random.Random(seed)
    game = load_game(game_id)
    states = []
    for _ in range(count):
        state = game.initial_state()
        for _ in range(rng.randrange(0, 40)):
            if state.result is not None:
                break
            states.append(state)
            state = state.play(rng.choice(state.legal_moves()))
    return states


def root_shares(game_id: str, state, net: PolicyNet, sims: int, c_prior: float = 1.0):
    """The tree after ``sims`` simulations from ``state``: the root children's codes,
    shares and visits."""
    k = kernel(game_id)
    root = k.from_state(state)
    tree = Tree(200_000, 1)
    tree.mover[0] = 1 - int(root[k.TO_MOVE])
    extra = net_arguments(game_id, None, share=tree.share, policy_net=net, c_prior=c_prior)
    k.search(root, *tree.arrays(), sims, 0.5, 6 if game_id == "uttt" else 9, 0, 0.5, *extra)
    kids = tree.children(0)
    return (
        [int(tree.move[c]) for c in kids],
        np.array([tree.share[c] for c in kids]),
        np.array([tree.visits[c] for c in kids]),
    )


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
def test_the_root_children_get_the_networks_odds_as_numpy_computes_them(game_id) -> None:
    net = random_policy(1)
    k = kernel(game_id)
    active = np.empty(MAX_ACTIVE, dtype=np.int64)
    checked = 0
    for state in random_states(game_id, 12, 2)[::3]:
        if len(state.legal_moves()) < 2:
            continue
        codes, shares, _ = root_shares(game_id, state, net, 2)
        if len(codes) < 2:  # a move that wins at once is the only child
            continue
        x = dense(active, k.features(k.from_state(state), active))[None, :]
        odds = net.odds(x)[0]
        # The search reads the first layer as int16 (network.kernel_weights): near, not equal.
        assert np.allclose(shares, odds[codes], atol=1e-4)
        assert shares.sum() == pytest.approx(1.0, abs=1e-5)
        assert np.all(odds[x[0, LEGAL_AT : LEGAL_AT + MOVES] == 0] == 0)
        checked += 1
    assert checked >= 10


def section_choices(state, net: PolicyNet) -> int:
    """Checks the section choices in a search's tree from ``state``; how many nodes had them."""
    k = kernel("uttt")
    active = np.empty(MAX_ACTIVE, dtype=np.int64)
    tree = Tree(400_000, 2)
    root = k.from_state(state)
    tree.mover[0] = 1 - int(root[k.TO_MOVE])
    extra = net_arguments("uttt", None, share=tree.share, policy_net=net, c_prior=1.0)
    k.search(root, *tree.arrays(), 3000, 0.5, 6, 0, 0.5, *extra)
    found = 0
    for node in range(1, tree.nodes):
        kids = tree.children(node)
        if len(kids) < 2 or int(tree.move[kids[0]]) < MOVES:
            continue
        # ``node`` is a free move: replay its path to get the position.
        path = []
        at = node
        while at != 0:
            parent = next(p for p in range(at) if at in tree.children(p))
            path.append(int(tree.move[at]))
            at = parent
        position = root.copy()
        for code in reversed(path):
            k.play(position, code)
        x = dense(active, k.features(position, active))[None, :]
        odds = net.odds(x)[0]
        for c in kids:
            section = int(tree.move[c]) - MOVES
            want = odds[9 * section : 9 * section + 9].sum()
            assert tree.share[c] == pytest.approx(want, abs=1e-4)
        found += 1
        if found == 2:
            break
    return found


def test_a_free_moves_section_choices_get_their_cells_odds_together() -> None:
    net = random_policy(3)
    found = 0
    for state in random_states("uttt", 30, 4)[::-7]:
        if state.result is None and len(state.legal_moves()) > 1:
            found += section_choices(state, net)
        if found >= 4:
            break
    assert found >= 4


def test_the_priors_steer_the_search_towards_the_moves_the_network_likes() -> None:
    state = load_game("uttt").play_moves(["r5c5"])
    k = kernel("uttt")
    for favourite in (36, 44):  # two cells of the centre section, where the reply must go
        net = PolicyNet.initial("uttt", 4, 0)
        net.b2[favourite] = 6.0
        codes, shares, visits = root_shares("uttt", state, net, 400)
        assert codes[int(np.argmax(shares))] == favourite
        assert codes[int(np.argmax(visits))] == favourite
        # Without priors the same search spreads its first visits evenly.
        flat = net_arguments("uttt", None)
        tree = Tree(100_000, 1)
        k.search(k.from_state(state), *tree.arrays(), 400, 0.5, 6, 0, 0.5, *flat)
        even = [int(tree.visits[c]) for c in tree.children(0)]
        assert max(even) < max(visits)


def test_a_search_with_priors_plays_legal_moves_and_refuses_bad_settings() -> None:
    game = load_game("uttt")
    net = random_policy(5)
    value = shipped("uttt")
    search = CompiledSearch(
        "uttt", c_uct=0.5, policy=6, reuse=True, net=value, mix=0.25, net_visits=30,
        policy_net=net, c_prior=1.0, fpu=0.1,
    )  # fmt: skip
    state = game.initial_state()
    rng = random.Random(0)
    while state.result is None:
        move = search.run(state, simulations=300, seed=rng.getrandbits(32)).candidates[0].move
        assert move in state.legal_moves()
        state = state.play(move)
        if state.result is None:
            state = state.play(rng.choice(state.legal_moves()))
    with pytest.raises(ValueError, match="needs a policy network"):
        CompiledSearch("uttt", c_prior=1.0)
    with pytest.raises(ValueError, match="needs a policy network"):
        CompiledSearch("thirtyfive", policy_net=net, c_prior=1.0)
    with pytest.raises(ValueError, match="fpu in"):
        CompiledSearch("uttt", policy_net=net, c_prior=1.0, fpu=2.0)
    with pytest.raises(ValueError, match="must not be negative"):
        CompiledSearch("uttt", policy_net=net, c_prior=-1.0)


def test_a_policy_file_round_trips_and_other_files_are_refused(tmp_path) -> None:
    net = random_policy(7)
    net.save(tmp_path / "p.npz")
    back = PolicyNet.load(tmp_path / "p.npz")
    assert all(np.array_equal(a, b) for a, b in zip(net.arrays(), back.arrays(), strict=True))
    assert back.game == "uttt" and back.hidden == 16 and back.parameters == net.parameters
    ValueNet.initial("uttt", 8, 0).save(tmp_path / "v.npz")
    with pytest.raises(ValueError, match="not a policy network"):
        PolicyNet.load(tmp_path / "v.npz")
    with pytest.raises(ValueError, match="not a value network"):
        ValueNet.load(tmp_path / "p.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a file of arrays")
    with pytest.raises(ValueError, match="not a policy network"):
        PolicyNet.load(tmp_path / "junk.npz")
    bad = PolicyNet(net.w1, net.b1, net.w2[:80], net.b2[:80], "uttt")
    bad.save(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="wrong shape"):
        PolicyNet.load(tmp_path / "bad.npz")


def test_fitting_learns_which_legal_move_the_search_prefers() -> None:
    rng = np.random.default_rng(0)
    n = 3000
    x = (rng.random((n, 335)) < 0.1).astype(np.uint8)
    x[:, LEGAL_AT : LEGAL_AT + MOVES] = rng.random((n, MOVES)) < 0.3
    x[:, LEGAL_AT] = x[:, LEGAL_AT + 1] = 1
    # The search prefers cell 0 when feature 5 is on, else cell 1.
    t = np.zeros((n, MOVES), np.float32)
    t[np.arange(n), np.where(x[:, 5] == 1, 0, 1)] = 1.0
    start = PolicyNet.initial("uttt", 16, 0)
    fitted = fit(start, x, t, epochs=20, batch=128, rate=3e-3, seed=0)
    assert loss(fitted, x, t) < 0.2 * loss(start, x, t)
    odds = fitted.odds(x)
    assert np.mean(odds.argmax(axis=1) == t.argmax(axis=1)) > 0.95
    assert np.all(odds[x[:, LEGAL_AT : LEGAL_AT + MOVES] == 0] == 0)


def test_policy_self_play_records_visit_shares_of_legal_moves_in_eight_symmetries() -> None:
    level = {"c_uct": 0.5, "playout": 6, "net": 0.25, "net_visits": 30, "prior": 1.0,
             "fpu": 0.0}  # fmt: skip
    task = {"game": "uttt", "seed": 2, "count": 1, "simulations": 120, "explore": 4,
            "net": None, "mix": 1.0, "level": level}  # fmt: skip
    data = self_play(task)
    n = data["x"].shape[0]
    v = data["v"]
    assert n % 8 == 0 and v.shape == (n, MOVES)
    assert np.allclose(v.sum(axis=1), 1.0, atol=1e-5)
    legal = data["x"][:, LEGAL_AT : LEGAL_AT + MOVES]
    assert np.all(v[legal == 0] == 0)
    # Each symmetric copy holds the same shares, moved with the cells.
    first = v[: n // 8]
    for k in range(8):
        copy = v[k * n // 8 : (k + 1) * n // 8]
        assert np.allclose(np.sort(copy, axis=1), np.sort(first, axis=1))
    # With a policy network the games change, and are still reproducible.
    again = self_play({**task, "net": random_policy(9)})
    assert np.array_equal(again["x"], self_play({**task, "net": random_policy(9)})["x"])


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
def test_a_policy_run_plays_by_the_strongest_playout_search(game_id, tmp_path) -> None:
    from sansu.ai.levels import level_for, playout_max
    from sansu.ai.training.pipeline import Run

    level = Run(TrainConfig(game_id, target="policy", seed=3), tmp_path / "run").level()
    strongest = playout_max(game_id)
    assert not strongest.bestfirst and strongest.playout > 0
    assert level is not None
    assert (level["c_uct"], level["playout"], level["net"], level["net_visits"]) == (
        strongest.c_uct, strongest.playout, strongest.net, strongest.net_visits
    )
    assert playout_max(game_id) != level_for(game_id, "max")  # max searches best-first


def test_a_tiny_policy_run_end_to_end(tmp_path) -> None:
    config = TrainConfig(
        "uttt", target="policy", seed=3, generations=1, games=3, chunk=2, simulations=60,
        explore=4, hidden=8, epochs=1, batch=100_000, match_games=2, match_simulations=60,
    )  # fmt: skip
    lines: list[str] = []
    train(config, tmp_path / "run", mapper=Mapper(1), say=lines.append)
    gen = tmp_path / "run" / "gen-000"
    candidate = PolicyNet.load(gen / "candidate.npz")
    assert candidate.hidden == 8 and candidate.game == "uttt"
    match = json.loads((gen / "match.json").read_text())
    assert match["games"] == 2 and match["wins"] + match["draws"] + match["losses"] == 2
    assert "generation 0:" in lines[0] and "95% CI" in lines[0]
    with pytest.raises(ValueError, match="target must be"):
        TrainConfig("uttt", target="both")
    with pytest.raises(ValueError, match="children"):
        TrainConfig("uttt", target="policy", children=5)


def test_only_the_strongest_playout_search_uses_the_shipped_policy_networks() -> None:
    import sansu
    from sansu.ai.levels import LEVELS, level_for, playout_max
    from sansu.ai.network import shipped_policy
    from sansu.ai.player import ComputerPlayer

    using = {
        (g, name) for g in ("uttt", "sansumoku") for name in LEVELS if level_for(g, name).prior
    }
    assert using == set()  # both games' max search best-first, without one
    for game_id in ("uttt", "sansumoku"):
        policy = shipped_policy(game_id)
        assert policy is not None and policy.game == game_id
        game = sansu.load_game(game_id)
        player = ComputerPlayer(game, playout_max(game_id), seed=4)
        search = player._searcher()
        assert search.policy_net is policy and search.c_prior == player.settings.prior > 0
        state = game.initial_state().play("r5c5")
        a = player.choose(state, simulations=600)
        assert a.move in state.legal_moves()
        again = ComputerPlayer(game, playout_max(game_id), seed=4)
        assert again.choose(state, simulations=600).move == a.move


def test_a_levels_prior_and_fpu_are_checked() -> None:
    from sansu.ai.levels import level_for, with_settings

    with pytest.raises(ValueError, match="must not be negative"):
        with_settings(level_for("uttt", "max"), "prior=-1")
    with pytest.raises(ValueError, match="fpu"):
        with_settings(level_for("uttt", "max"), "fpu=1.5")
    assert with_settings(level_for("uttt", "max"), "prior=0").prior == 0.0
