"""Planes from the mover's point of view: they say what the engine's view says, for
either player, one-hot and float32, in every environment that offers them."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.envs import VectorEnv, gym_env, mover_planes, pettingzoo_env
from sansu.envs.encoding import encoding_for
from sansu.envs.planes import PLANE_NAMES, plane_count

GAMES = [
    ("uttt", {}),
    ("sansumoku", {}),
    ("thirtyfive", {}),
    ("thirtyfive", {"rows": 4, "cols": 6}),
]


def random_state(game_id, options, seed, plies):
    state = sansu.load_game(game_id, **options).initial_state()
    rng = random.Random(seed)
    for _ in range(plies):
        if state.result is not None:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def expected_planes(state, player):
    """The planes built cell by cell from ``state.view(player)``, the engine's own words."""
    view = state.view(player)
    game_id = view["game"]
    cells = view["cells"]
    out = np.zeros((plane_count(game_id), len(cells)), dtype=np.float32)
    names = PLANE_NAMES[game_id]
    for i, cell in enumerate(cells):
        # 35's view lists a highlighted empty square as a cell without a value.
        if cell is not None and (game_id == "uttt" or cell["value"] is not None):
            out[names.index("mine" if cell["player"] == player else "theirs"), i] = 1
            if game_id == "sansumoku":
                out[names.index(f"digit {cell['value']}"), i] = 1
            if game_id == "thirtyfive":
                out[names.index(f"number {cell['value']}"), i] = 1
        if game_id == "thirtyfive":
            light = view["highlights"][i]
            if light is not None:
                out[names.index("highlight mine" if light == player else "highlight theirs"), i] = 1
        else:
            row, col = divmod(i, 9)
            section = view["sections"][3 * (row // 3) + col // 3]
            if section["owner"] is not None:
                mine = section["owner"] == player
                out[names.index("section mine" if mine else "section theirs"), i] = 1
            elif section["closed"]:
                out[names.index("section full"), i] = 1
    return out


@settings(max_examples=120, deadline=None)
@given(
    case=st.sampled_from(GAMES),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 90),
)
def test_planes_are_the_engine_view_of_either_player(case, seed, plies):
    game_id, options = case
    state = random_state(game_id, options, seed, plies)
    obs = encoding_for(state.game).observation(state)
    for player in (0, 1):
        planes = mover_planes(game_id, obs, player)
        assert planes.dtype == np.float32
        np.testing.assert_array_equal(planes, expected_planes(state, player))
        # One-hot: a cell holds at most one owner, one value, one section state.
        assert set(np.unique(planes)) <= {0.0, 1.0}
        assert planes[:2].sum(axis=0).max() <= 1
    # The two points of view swap the players' planes.
    np.testing.assert_array_equal(
        mover_planes(game_id, obs, 0)[:2], mover_planes(game_id, obs, 1)[1::-1]
    )


@pytest.mark.parametrize(("game_id", "options"), GAMES)
def test_a_batch_takes_one_point_of_view_per_game(game_id, options):
    venv = VectorEnv(game_id, 16, seed=3, **options)
    for _ in range(7):
        out = venv.step(venv.random_actions())
    batch = mover_planes(game_id, out.observation, out.current_player)
    for i in range(16):
        one = mover_planes(game_id, out.observation[i], int(out.current_player[i]))
        np.testing.assert_array_equal(batch[i], one)


def test_pettingzoo_planes_are_seen_by_the_observing_agent():
    env = pettingzoo_env("sansumoku", observation="planes")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    base = encoding_for(env.game).observation(env.state)
    for i, agent in enumerate(env.possible_agents):
        seen = env.observe(agent)["observation"]
        assert env.observation_space(agent)["observation"].contains(seen)
        np.testing.assert_array_equal(seen, mover_planes("sansumoku", base, i))


def test_gymnasium_planes_are_seen_by_the_agent_seat():
    env = gym_env("uttt", opponent="random", player=1, observation="planes")
    obs, _ = env.reset(seed=1)
    assert obs.shape == (5, 81) and obs.dtype == np.float32
    np.testing.assert_array_equal(obs[1].nonzero()[0], [env.state.last_move.cell])  # X's mark
    assert obs[0].sum() == 0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: pettingzoo_env("sumodoku", observation="planes"), "planes are made for"),
        (lambda: gym_env("challenge", observation="planes"), "planes are made for"),
        (lambda: pettingzoo_env("uttt", observation="onehot"), "observation must be one of"),
        (lambda: mover_planes("uttt", np.zeros((3, 81)), 0), "not an observation of uttt"),
        (lambda: mover_planes("uttt", np.zeros((2, 81)), 2), "player must be 0 or 1"),
        (lambda: mover_planes("uttt", np.zeros((4, 2, 81)), [0, 1]), "one per game"),
    ],
)
def test_bad_requests_are_refused_clearly(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    ("name", "params"), [("sansu_uttt_v1", {}), ("sansu_thirtyfive", {"rows": 4, "cols": 5})]
)
def test_openspiel_observation_planes_are_per_player(name, params):
    import pyspiel

    import sansu.envs.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(name, {**params, "observation": "planes"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    for _ in range(15):
        state.apply_action(int(rng.choice(state.legal_actions())))
    engine = state.engine_state
    base = encoding_for(engine.game).observation(engine)
    for player in (0, 1):
        tensor = np.asarray(state.observation_tensor(player), dtype=np.float32)
        want = mover_planes(engine.game.id, base, player)
        np.testing.assert_array_equal(tensor.reshape(want.shape), want)
    assert game.observation_tensor_shape() == list(want.shape)
