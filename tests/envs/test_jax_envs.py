"""The JAX environments play by the engines' rules: thousands of random games through both."""

from __future__ import annotations

import numpy as np
import pytest

import sansu
from sansu.envs import VectorEnv
from sansu.envs.encoding import encoding_for, returns

jax = pytest.importorskip("jax")
jnp = jax.numpy
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sansu.envs.jax import make, random_action  # noqa: E402

BATCH = 500
CASES = [
    ("uttt", {}, 2000),
    ("sansumoku", {}, 2000),
    ("thirtyfive", {}, 300),
    ("thirtyfive", {"rows": 3, "cols": 5}, 1000),
]


def _runner(env):
    """One jitted call: a random legal action for every game, the step, and what the test reads."""

    @jax.jit
    def run(state, key):
        action = random_action(key, state.legal_action_mask)
        state = jax.vmap(env.step)(state, action)
        views = jax.vmap(jax.vmap(env.observe, (None, 0)), (0, None))(state, jnp.arange(2))
        return state, action, env.planes(state), views

    return run


def _expected_views(
    game_id: str, planes: np.ndarray, mask: np.ndarray, mover: np.ndarray
) -> np.ndarray:
    """What each seat should observe, ``batch × seat × cells × planes``, from sansu's planes."""
    seat = np.arange(2)[None, :, None]
    mine, theirs = seat + 1, 2 - seat
    if game_id == "uttt":
        cells, sections = planes[:, None, 0], planes[:, None, 1]
        legal = mask[:, None] & (seat == mover[:, None, None])
        closed = (sections > 0) & (seat >= 0)
        flat = [cells == mine, cells == theirs, sections == mine, sections == theirs, closed]
        return np.stack([*flat, legal], axis=-1)
    if game_id == "sansumoku":
        placed, digit, sections = planes[:, None, 0], planes[:, None, 1], planes[:, None, 2]
        legal = mask[:, None] & (seat == mover[:, None, None])
        flat = [placed == mine, placed == theirs]
        flat += [(digit == n) & (seat >= 0) for n in range(1, 10)]
        flat += [sections == mine, sections == theirs, (sections > 0) & (seat >= 0)]
        return np.stack([*flat, legal], axis=-1)
    colour, number, highlight = planes[:, None, 0], planes[:, None, 1], planes[:, None, 2]
    flat = [colour == mine, colour == theirs, highlight == mine, highlight == theirs]
    flat += [(number == n) & (seat >= 0) for n in range(1, 10)]
    return np.stack(flat, axis=-1)


@pytest.mark.parametrize(("game_id", "options", "games"), CASES)
def test_jax_env_plays_like_the_engine(game_id, options, games):
    env = make(game_id, **options)
    game = sansu.load_game(game_id, **options)
    enc = encoding_for(game)
    assert env.num_actions == enc.num_actions == VectorEnv(game_id, 1, **options).num_actions
    init, run = jax.jit(jax.vmap(env.init)), _runner(env)
    key = jax.random.PRNGKey(games)
    outcomes = set()
    batch = min(BATCH, games)
    for _ in range(games // batch):
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, batch))
        states = [game.initial_state() for _ in range(batch)]
        planes = np.asarray(env.planes(state))
        for i, engine in enumerate(states):
            assert np.array_equal(planes[i], enc.observation(engine))
        while states:
            mask = np.asarray(state.legal_action_mask)
            player = np.asarray(state.current_player)
            for i, engine in enumerate(states):
                if engine is None:  # finished: the mask is all true, as in Pgx
                    assert mask[i].all()
                    continue
                assert np.array_equal(mask[i], enc.mask(engine).astype(bool))
                assert player[i] == engine.to_move
            key, sub = jax.random.split(key)
            state, actions, planes, views = run(state, sub)
            actions, planes, views = np.asarray(actions), np.asarray(planes), np.asarray(views)
            rewards, over = np.asarray(state.rewards), np.asarray(state.terminated)
            mask, player = np.asarray(state.legal_action_mask), np.asarray(state.current_player)
            playing = np.array([s is not None for s in states])
            expected = _expected_views(game_id, planes, mask & ~over[:, None], player)
            views = views.reshape(expected.shape)
            assert np.array_equal(views[playing], expected[playing])
            for i, engine in enumerate(states):
                if engine is None:
                    assert over[i]
                    assert not rewards[i].any()  # a finished game only has its rewards zeroed
                    continue
                engine = engine.play(enc.move_of(engine, int(actions[i])))
                assert np.array_equal(planes[i], enc.observation(engine))
                assert rewards[i].tolist() == (returns(engine) if engine.result else [0.0, 0.0])
                assert over[i] == (engine.result is not None)
                if engine.result is not None:
                    outcomes.add(tuple(returns(engine)))
                    engine = None
                states[i] = engine
            if all(s is None for s in states):
                break
    # Random play reaches every kind of ending (a draw of 35 needs an even board).
    assert outcomes >= {(1.0, -1.0), (-1.0, 1.0)}
    assert (0.0, 0.0) in outcomes or game_id == "thirtyfive"


@pytest.fixture(scope="module")
def uttt():
    env = make("uttt")
    return env, jax.jit(env.init), jax.jit(env.step)


def test_an_illegal_action_loses_and_the_game_is_over(uttt):
    _, init, step = uttt
    state = step(init(jax.random.PRNGKey(0)), 40)  # X r5c5: O is sent to the centre
    assert state.legal_action_mask.sum() == 8
    lost = step(state, 0)  # O r1c1: not in the centre section
    assert lost.terminated
    assert lost.rewards.tolist() == [1.0, -1.0]
    assert lost.legal_action_mask.all()
    again = step(lost, 30)
    assert again.rewards.tolist() == [0.0, 0.0]
    assert again.terminated
    assert again._step_count == lost._step_count


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 80), min_size=1, max_size=90))
def test_any_choice_of_legal_moves_matches_the_engine(uttt, picks):
    env, init, step = uttt
    game = sansu.load_game("uttt")
    enc = encoding_for(game)
    state, engine = init(jax.random.PRNGKey(0)), game.initial_state()
    for pick in picks:
        legal = enc.legal_actions(engine)
        action = legal[pick % len(legal)]
        state, engine = step(state, action), engine.play(enc.move_of(engine, action))
        assert bool(state.terminated) == (engine.result is not None)
        assert state.rewards.tolist() == (returns(engine) if engine.result else [0.0, 0.0])
        if engine.result is not None:
            break
        assert np.array_equal(np.asarray(state.legal_action_mask), enc.mask(engine).astype(bool))
        assert np.array_equal(np.asarray(env.planes(state)), enc.observation(engine))


@pytest.mark.parametrize(
    ("env_id", "options", "message"),
    [
        ("chess", {}, "no JAX environment 'chess'"),
        ("uttt", {"rows": 3}, "uttt takes no options"),
        ("thirtyfive", {"size": 3}, "takes rows and cols"),
        ("thirtyfive", {"rows": 2}, "rows"),
    ],
)
def test_make_refuses_bad_arguments(env_id, options, message):
    with pytest.raises(ValueError, match=message):
        make(env_id, **options)
