"""PettingZoo's own contract tests on every game, with several option sets."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.env_logger import EnvLogger

from sansu.envs import pettingzoo_env

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CASES = [
    ("uttt", {}),
    ("sansumoku", {}),
    ("thirtyfive", {}),
    ("thirtyfive", {"rows": 3, "cols": 5}),
    ("sumodoku", {}),
    ("sumodoku", {"any_colour": True, "diagonals": True}),
    ("sumodoku", {"honour": True, "seed": 3}),
    ("challenge", {"puzzle": PUZZLE}),
    ("challenge", {"puzzle": PUZZLE, "players": 4, "teams": True, "sequence": "express"}),
    ("challenge", {"puzzle": PUZZLE, "players": 3, "turn_seconds": 60}),
    ("challenge", {"players": 3, "errors": "simplified"}),
]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items() if k != 'puzzle')}" for g, o in CASES]


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_api(game_id, options):
    api_test(pettingzoo_env(game_id, **options), num_cycles=60)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=IDS)
def test_seed(game_id, options):
    seed_test(lambda: pettingzoo_env(game_id, **options), num_cycles=30)


def play_out(env, seed=0):
    """Masked random play to the end; the final rewards and infos by agent."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    infos = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        total[agent] += reward
        if termination or truncation:
            infos[agent] = info
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total, infos


@pytest.mark.parametrize(
    ("game_id", "options"),
    [("uttt", {}), ("sansumoku", {}), ("thirtyfive", {"rows": 4}), ("sumodoku", {"honour": True})],
)
def test_a_game_played_to_the_end_pays_plus_and_minus_one_or_nothing(game_id, options):
    total, infos = play_out(pettingzoo_env(game_id, **options))
    assert sorted(total.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert infos["player_0"]["reason"]


def test_challenge_rewards_follow_the_ranks_and_the_solution_stays_hidden():
    env = pettingzoo_env("challenge", puzzle=PUZZLE, players=3)
    env.reset()
    obs = env.observe("player_0")["observation"]
    solution = env.unwrapped.state.hidden_json()["solution"]
    blanks = [c for c in range(81) if PUZZLE[c] == "."]
    # The blanks of the puzzle observe as empty, whatever the solution holds there.
    assert all(obs[c] == 0 for c in blanks) and any(solution[c] != "0" for c in blanks)
    total, infos = play_out(env, seed=4)
    scores = infos["player_0"]["scores"]
    for p in range(3):
        better = sum(s > scores[p] for s in scores)
        worse = sum(s < scores[p] for s in scores)
        assert total[f"player_{p}"] == (worse - better) / 2


def test_an_illegal_action_ends_the_game_against_its_player():
    env = pettingzoo_env("uttt")
    env.reset()
    env.step(40)  # r5c5 sends O to the centre
    env.step(0)  # r1c1 is outside it
    assert env.rewards["player_1"] == -1
    assert all(env.terminations.values())


@pytest.mark.parametrize("action", [81, -1, 2.0, True, "r1c1"])
def test_an_action_that_is_no_action_number_is_refused_and_changes_nothing(action):
    env = pettingzoo_env("uttt")
    env.reset()
    env.step(40)
    with pytest.raises(ValueError, match="not in Discrete"):
        env.step(action)
    assert env.agent_selection == "player_1" and not any(env.terminations.values())
    env.step(30)  # r4c4, in the centre section
    assert env.observe("player_0")["observation"][0, 30] == 2


def test_bad_options_are_refused():
    with pytest.raises(ValueError, match="rows"):
        pettingzoo_env("thirtyfive", rows=20)
    with pytest.raises(ValueError, match="unknown game"):
        pettingzoo_env("chess")


def test_the_order_is_enforced_as_by_pettingzoos_wrapper():
    env = pettingzoo_env("uttt")
    for name in ("agent_selection", "agents", "rewards", "terminations", "infos", "num_agents"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(env, name)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        env.nonsense  # noqa: B018 - the look-up is the test
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    for call in (lambda: env.step(40), lambda: env.observe("player_0"), env.agent_iter):
        with pytest.raises(Exception, match="reset"):
            call()
    env.reset()
    assert env.agent_selection == "player_0" and env.agents == ["player_0", "player_1"]
    agents = env.agent_iter()
    assert next(agents) == "player_0"
    with pytest.raises(AssertionError, match="step"):  # two agents without a step between
        next(agents)


@pytest.mark.parametrize("sequence", ["regular", "express"])
def test_the_observation_space_holds_the_lowest_score_of_simplified_errors(sequence):
    """Every digit but the right one entered wrong on the last blanks, in a round of
    three, takes a score as low as the rules let it go: the space still holds it."""
    env = pettingzoo_env("challenge", puzzle=PUZZLE, errors="simplified", sequence=sequence)
    env.reset()
    space = env.observation_space("player_0")["observation"]
    solution = env.unwrapped.state.hidden_json()["solution"]
    blanks = [c for c in range(81) if PUZZLE[c] == "."]
    lowest = int(space.low[243])
    assert lowest == -3 * 8 * len(blanks) and space.low[244] == 4 + lowest  # the handicap
    assert not space.low[:243].any() and not space.low[245:].any()
    for cell in blanks:
        state = env.unwrapped.state
        wrong = [d for d in range(1, 10) if d != int(solution[cell])]
        for digit in wrong if state.round_count == 3 else ():
            env.step(9 * cell + digit - 1)
            assert space.contains(env.observe(env.agent_selection)["observation"])
        env.step(9 * cell + int(solution[cell]) - 1)
    assert min(env.unwrapped.state.scores) < 0


def test_a_step_after_the_end_warns_and_changes_nothing():
    env = pettingzoo_env("uttt")
    play_out(env)
    assert env.agents == []
    EnvLogger.flush()
    env.step(0)
    assert any("after all agents" in message for message in EnvLogger.mqueue)
    assert env.agents == []


def test_observations_handed_out_are_the_callers_own():
    env = pettingzoo_env("sansumoku")
    env.reset()
    env.step(40)
    first = env.observe("player_1")
    expected = {key: array.copy() for key, array in first.items()}
    first["observation"][:] = 7
    first["action_mask"][:] = 1
    again = env.observe("player_1")
    assert all(np.array_equal(again[key], expected[key]) for key in expected)
    env.step(int(np.flatnonzero(again["action_mask"])[0]))
    assert env.observe("player_0")["observation"][1, 40] == 1  # the first digit stays as it was


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku", "thirtyfive"])
def test_every_observation_is_that_of_the_engine_state(game_id):
    """The kept masks and patched observations agree with encodings made afresh."""
    env = pettingzoo_env(game_id)
    enc = env.unwrapped.encoding
    rng = np.random.default_rng(7)
    for _ in range(3):
        env.reset()
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            state = env.unwrapped.state
            assert np.array_equal(obs["observation"], enc.observation(state))
            mover = state.to_move
            expected = enc.mask(state) if agent == f"player_{mover}" else np.zeros(enc.num_actions)
            assert np.array_equal(obs["action_mask"], expected)
            assert obs["action_mask"].flags.writeable
            done = termination or truncation
            env.step(None if done else int(rng.choice(np.flatnonzero(expected))))
