"""The AlphaZero recipe runs end to end on a tiny budget: self-play, training, resuming, play."""

from __future__ import annotations

import math

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("mctx")
pytest.importorskip("optax")

from sansu.envs.jax import alphazero  # noqa: E402


def test_tiny_run_trains_resumes_and_plays_the_levels(tmp_path):
    logged: list[str] = []
    trainer = alphazero.Trainer(alphazero.TINY, tmp_path)
    before = jax.tree_util.tree_map(np.asarray, trainer.params)
    trainer.run(cpu_seconds=math.inf, iterations=1, log=logged.append)
    assert trainer.iteration == 1
    assert trainer.frames == alphazero.TINY.batch * alphazero.TINY.steps
    # Every game of the first iteration ended, so there were samples and the losses are numbers.
    assert "nan" not in logged[0]
    assert any(not np.array_equal(before[k], trainer.params[k]) for k in before)

    again = alphazero.Trainer(alphazero.TINY, tmp_path)  # resumes from the checkpoint
    assert again.iteration == 1
    for name, value in trainer.params.items():
        assert np.array_equal(np.asarray(value), np.asarray(again.params[name]))

    results = alphazero.play_levels(again.params, ["beginner"], games=2, simulations=4)
    score, low, high = results["beginner"]
    assert score in (0.0, 0.25, 0.5, 0.75, 1.0)
    assert 0.0 <= low <= score <= high <= 1.0


def test_value_targets_follow_the_games_results():
    # Two games over four moves: game 0 is won by the fourth move's mover; game 1 ends
    # drawn at the second move and its next game does not end in the segment.
    reward = np.array([[0, 0], [0, 0], [0, 0], [1, 0]], np.float32)
    done = np.array([[0, 0], [0, 1], [0, 0], [1, 0]], bool)

    samples = alphazero.value_targets(jax.numpy.asarray(reward), jax.numpy.asarray(done))
    value, valid = (np.asarray(x) for x in samples)
    assert value[:, 0].tolist() == [-1.0, 1.0, -1.0, 1.0]  # the movers alternate
    assert value[:2, 1].tolist() == [0.0, 0.0]
    assert valid[:, 0].all()
    assert valid[:, 1].tolist() == [True, True, False, False]


def test_a_checkpoint_of_another_configuration_is_refused(tmp_path):
    trainer = alphazero.Trainer(alphazero.TINY, tmp_path)
    trainer._save(tmp_path / alphazero.CHECKPOINT)
    bigger = alphazero.TINY.__class__(**{**alphazero.TINY.__dict__, "hidden": 64})
    with pytest.raises(ValueError, match="another configuration"):
        alphazero.Trainer(bigger, tmp_path)
