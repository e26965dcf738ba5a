"""``VectorEnv``'s positions in and out (``get_state``, ``set_state``, ``clone``): a search
expands from any position and finds the same games as stepping on would."""

from __future__ import annotations

import numpy as np
import pytest

import sansu
from sansu.envs import VectorEnv
from sansu.envs.encoding import encoding_for

CASES = [
    ("uttt", {}),
    ("sansumoku", {}),
    ("thirtyfive", {}),
    ("thirtyfive", {"rows": 4, "cols": 5}),
]


def same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_a_saved_position_plays_on_as_the_original_did(game_id, options):
    venv = VectorEnv(game_id, 16, seed=1, **options)
    rng = np.random.default_rng(0)
    for _ in range(int(rng.integers(3, 25))):
        venv.step(venv.random_actions())
    saved = venv.get_state()
    actions = [venv.random_actions().copy()]
    first = [venv.step(actions[0], copy=True)]
    for _ in range(60):
        actions.append(venv.random_actions().copy())
        first.append(venv.step(actions[-1], copy=True))
    # Back to the saved positions: the same actions give the same games, resets included.
    venv.set_state(saved)
    for act, seen in zip(actions, first, strict=True):
        assert same(venv.step(act), seen)
    assert any(b.terminated.any() for b in first)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_clones_of_chosen_rows_match_the_engine(game_id, options):
    venv = VectorEnv(game_id, 8, seed=2, **options)
    game = sansu.load_game(game_id, **options)
    enc = encoding_for(game)
    states = [game.initial_state() for _ in range(8)]
    for _ in range(12):
        acts = venv.random_actions().copy()
        out = venv.step(acts)
        for i, a in enumerate(acts):
            states[i] = (
                game.initial_state()
                if out.terminated[i]
                else states[i].play(enc.move_of(states[i], int(a)))
            )
    rows = [5, 5, 0, 7]
    twin = venv.clone(rows, seed=9)
    assert twin.num_envs == 4
    before = venv.get_state()
    mine = [states[i] for i in rows]
    rng = np.random.default_rng(4)
    for _ in range(40):  # the clones go their own ways, by the engine's rules
        out = twin._out
        acts = np.zeros(4, dtype=np.int64)
        for k, state in enumerate(mine):
            assert np.array_equal(out.observation[k], enc.observation(state))
            assert np.array_equal(out.legal_action_mask[k], enc.mask(state))
            moves = state.legal_moves()
            acts[k] = enc.action_of(moves[int(rng.integers(len(moves)))])
        out = twin.step(acts)
        for k, a in enumerate(acts):
            after = mine[k].play(enc.move_of(mine[k], int(a)))
            mine[k] = game.initial_state() if out.terminated[k] else after
            assert out.terminated[k] == after.is_over
    # The original is untouched by its clones' play.
    after = venv.get_state()
    assert all(np.array_equal(v, after[n]) for n, v in before.items())


def test_a_copied_step_is_not_overwritten_by_the_next():
    venv = VectorEnv("uttt", 4, seed=0)
    kept = venv.step(venv.random_actions(), copy=True)
    mask = kept.legal_action_mask.copy()
    venv.step(venv.random_actions())
    assert np.array_equal(kept.legal_action_mask, mask)
    assert not np.shares_memory(kept.observation, venv._out.observation)


def test_bad_states_and_rows_are_refused_and_change_nothing():
    venv = VectorEnv("uttt", 4, seed=0)
    venv.step(venv.random_actions())
    before = venv.get_state()
    with pytest.raises(ValueError, match=r"rows must lie in 0\.\.3"):
        venv.get_state([4])
    with pytest.raises(ValueError, match="list of game indices"):
        venv.clone([[0, 1]])
    bad = {**before, "marks": before["marks"][:2]}
    with pytest.raises(ValueError, match=r"state\['marks'\] must be"):
        venv.set_state(bad)
    with pytest.raises(ValueError, match="a state holds"):
        venv.set_state({"marks": before["marks"]})
    other = VectorEnv("sansumoku", 4).get_state()
    with pytest.raises(ValueError):
        venv.set_state(other)
    after = venv.get_state()
    assert all(np.array_equal(before[n], after[n]) for n in before)
    with pytest.raises(ValueError, match="at least one game"):
        venv.clone([])


def test_set_state_into_chosen_rows_leaves_the_others():
    venv = VectorEnv("thirtyfive", 6, seed=3)
    for _ in range(5):
        venv.step(venv.random_actions())
    before = venv.get_state()
    fresh = VectorEnv("thirtyfive", 2).get_state()
    venv.set_state(fresh, rows=[1, 4])
    after = venv.get_state()
    for name in before:
        for i in range(6):
            want = fresh[name][[1, 4].index(i)] if i in (1, 4) else before[name][i]
            assert np.array_equal(after[name][i], want), (name, i)
