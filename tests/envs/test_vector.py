"""The batched simulator plays by the engines' rules: random games through both, step by step."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import sansu
from sansu.envs import VectorEnv
from sansu.envs.encoding import encoding_for, returns

CASES = [
    ("uttt", {}, 2000),
    ("sansumoku", {}, 2000),
    ("thirtyfive", {}, 300),
    ("thirtyfive", {"rows": 3, "cols": 3}, 1000),
    ("thirtyfive", {"rows": 5, "cols": 11}, 200),
]


@pytest.mark.parametrize(("game_id", "options", "games"), CASES)
def test_vector_env_plays_like_the_engine(game_id, options, games):
    num_envs = 50
    venv = VectorEnv(game_id, num_envs, seed=games, **options)
    game = sansu.load_game(game_id, **options)
    enc = encoding_for(game)
    states = [game.initial_state() for _ in range(num_envs)]
    out = venv.reset()
    finished = 0
    outcomes = set()
    while finished < games:
        for i, state in enumerate(states):
            legal = np.zeros(venv.num_actions, dtype=bool)
            legal[[enc.action_of(m) for m in state.legal_moves()]] = True
            assert np.array_equal(out.legal_action_mask[i], legal)
            assert np.array_equal(enc.mask(state), legal)
            assert np.array_equal(out.observation[i], enc.observation(state))
            assert out.current_player[i] == state.to_move
        actions = venv.random_actions().copy()
        out = venv.step(actions)
        for i in range(num_envs):
            state = states[i].play(enc.move_of(states[i], actions[i]))
            if state.result is None:
                assert not out.terminated[i]
                assert not out.rewards[i].any()
                states[i] = state
                continue
            assert out.terminated[i]
            assert out.rewards[i].tolist() == returns(state)
            outcomes.add(tuple(returns(state)))
            finished += 1
            states[i] = game.initial_state()
    # Random play reaches every kind of ending.
    assert outcomes == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)} or game_id == "thirtyfive"


def test_random_actions_are_legal_and_spread():
    venv = VectorEnv("uttt", 256, seed=3)
    out = venv.reset()
    actions = venv.random_actions()
    assert out.legal_action_mask[np.arange(256), actions].all()
    assert len(set(actions.tolist())) > 60


def test_illegal_action_is_refused_and_changes_nothing():
    venv = VectorEnv("sansumoku", 3)
    out = venv.step(np.array([40, 40, 40]))
    before = out.observation.copy(), out.legal_action_mask.copy(), out.current_player.copy()
    with pytest.raises(ValueError, match="game 1: action 36 is not legal"):
        venv.step(np.array([30, 36, 30]))  # r5c1 is outside the centre section
    with pytest.raises(ValueError, match="game 0: action 81"):
        venv.step(np.array([81, 30, 30]))
    with pytest.raises(ValueError, match="3 integers"):
        venv.step(np.array([30, 30]))
    with pytest.raises(ValueError, match="integers"):
        venv.step(np.array([30.0, 30.0, 30.0]))
    assert np.array_equal(out.observation, before[0])
    assert np.array_equal(out.legal_action_mask, before[1])
    assert np.array_equal(out.current_player, before[2])
    assert venv.step(np.array([30, 30, 30])).observation[:, 1, 30].tolist() == [2, 2, 2]


@pytest.mark.parametrize(
    ("game_id", "num_envs", "message"),
    [("sumodoku", 4, "VectorEnv plays"), ("uttt", 0, "num_envs"), ("nope", 4, "unknown game")],
)
def test_bad_arguments(game_id, num_envs, message):
    with pytest.raises(ValueError, match=message):
        VectorEnv(game_id, num_envs)


def test_a_seed_is_an_integer_and_seeds_the_random_actions():
    with pytest.raises(ValueError, match="seed"):
        VectorEnv("uttt", 4, seed="one")
    first, second, other = (VectorEnv("uttt", 64, seed=s) for s in (5, 5, 6))
    assert np.array_equal(first.random_actions(), second.random_actions())
    assert not np.array_equal(first.random_actions(), other.random_actions())


def test_thirtyfive_options_give_the_board_size():
    venv = VectorEnv("35", 2, rows=4, cols=6)
    assert venv.num_actions == 9 * 24
    assert venv.reset().observation.shape == (2, 3, 24)


def test_the_vector_env_needs_none_of_the_research_libraries():
    code = (
        "import sys\n"
        "for name in ('pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel'):\n"
        "    sys.modules[name] = None  # importing them now fails\n"
        "from sansu.envs import VectorEnv\n"
        "print(VectorEnv('uttt', 2).reset().legal_action_mask.sum())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "162"
