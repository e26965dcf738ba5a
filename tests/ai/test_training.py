"""``sansu train``: a tiny run end to end, reproducibility, resumption, fitting, workers."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from sansu.ai.kernels.valuenet import N_FEATURES
from sansu.ai.network import ValueNet
from sansu.ai.training import Mapper, Run, TrainConfig, fit, loss, match_game, self_play, train
from sansu.cli.main import main

TINY = {
    "generations": 1, "games": 3, "chunk": 2, "simulations": 60, "explore": 4, "hidden": 8,
    "epochs": 1, "batch": 100_000, "match_games": 2, "match_simulations": 60,
}  # fmt: skip
"""A few self-play games, one training step (one batch holds every position), two match games."""


def weights(path) -> list[np.ndarray]:
    return list(ValueNet.load(path).arrays())


def same(a, b) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
def test_a_tiny_run_end_to_end_from_the_command_line(game_id, tmp_path, capsys) -> None:
    args = [f"--{k.replace('_', '-')}={v}" for k, v in TINY.items()]
    status = main(["train", game_id, "--dir", str(tmp_path / "run"), "--seed", "3", *args])
    assert status == 0
    out = capsys.readouterr().out
    assert "generation 0:" in out and "95% CI" in out and "Elo" in out
    gen = tmp_path / "run" / "gen-000"
    assert len(list(gen.glob("selfplay-*.npz"))) == 2
    candidate = ValueNet.load(gen / "candidate.npz")
    assert candidate.hidden == 8 and candidate.game == game_id
    match = json.loads((gen / "match.json").read_text())
    assert match["games"] == 2 and match["wins"] + match["draws"] + match["losses"] == 2
    state = json.loads((tmp_path / "run" / "state.json").read_text())
    assert state["generation"] == 1 and len(state["history"]) == 1
    # Two games can never be significant: the champion stays.
    assert state["champion"] is None and not match["promoted"]


def test_a_best_first_run_plays_on_the_shipped_network_and_repeats_itself(tmp_path) -> None:
    """Its self-play values are the best-first search's: the same seed, the same weights."""
    from sansu.ai.bestfirst import BestFirstSearch
    from sansu.ai.network import shipped

    config = TrainConfig("uttt", seed=4, search="bestfirst", **TINY)
    train(config, tmp_path / "a", mapper=Mapper(1), say=print)
    train(config, tmp_path / "b", mapper=Mapper(2), say=print)
    a, b = (weights(tmp_path / x / "gen-000" / "candidate.npz") for x in "ab")
    assert same(a, b)
    task = {"game": "uttt", "seed": 9, "count": 1, "simulations": 40, "explore": 0, "net": None,
            "mix": 1.0, "bestfirst": True}  # fmt: skip
    data = self_play(task)
    import sansu

    state = sansu.load_game("uttt").initial_state()
    stats = BestFirstSearch("uttt", shipped("uttt"), reuse=False).run(state, simulations=40)
    assert data["q"][0] == pytest.approx(2.0 * stats.candidates[0].reward - 1.0)


def test_self_play_records_every_position_in_eight_symmetries() -> None:
    task = {"game": "uttt", "seed": 1, "count": 2, "simulations": 50, "explore": 4,
            "net": None, "mix": 1.0}  # fmt: skip
    data = self_play(task)
    n = data["x"].shape[0]
    assert n % 8 == 0 and data["z"].shape == (n,) and data["q"].shape == (n,)
    assert set(np.unique(data["z"])) <= {-1.0, 0.0, 1.0}
    assert np.all(np.abs(data["q"]) <= 1.0)
    first = data["x"][: n // 8]
    # Symmetric copies hold as many marks as the original, position for position.
    for k in range(8):
        copy = data["x"][k * n // 8 : (k + 1) * n // 8]
        assert np.array_equal(copy[:, :162].sum(axis=1), first[:, :162].sum(axis=1))
    assert same([data["x"]], [self_play(task)["x"]])


def test_children_add_the_positions_of_searched_siblings_valued_by_the_search() -> None:
    task = {"game": "uttt", "seed": 4, "count": 2, "simulations": 400, "explore": 4,
            "net": None, "mix": 1.0}  # fmt: skip
    plain = self_play(task)
    more = self_play({**task, "children": 20})
    n, m = plain["x"].shape[0] // 8, more["x"].shape[0] // 8
    assert m > 2 * n
    # The games are the same: each of their positions is there with its value and result.
    seen = {
        (row.tobytes(), q, z) for row, q, z in zip(more["x"], more["q"], more["z"], strict=True)
    }
    for row, q, z in zip(plain["x"], plain["q"], plain["z"], strict=True):
        assert (row.tobytes(), q, z) in seen
    # A sibling was not played on: its "result" is the search's value of it.
    assert np.count_nonzero(more["z"][:m] == more["q"][:m]) >= m - n
    assert np.all(np.abs(more["q"]) <= 1.0)
    with pytest.raises(ValueError, match="children"):
        TrainConfig("uttt", children=-1)


def test_the_same_seed_gives_the_same_weights_on_one_or_two_processes(tmp_path) -> None:
    config = TrainConfig("uttt", seed=5, **TINY)
    with Mapper(1) as one, Mapper(2) as two:
        train(config, tmp_path / "a", mapper=one, say=lambda _: None)
        train(config, tmp_path / "b", mapper=two, say=lambda _: None)
    train(TrainConfig("uttt", seed=6, **TINY), tmp_path / "c", mapper=Mapper(1), say=print)
    a, b, c = (weights(tmp_path / d / "gen-000" / "candidate.npz") for d in "abc")
    assert same(a, b)
    assert not same(a, c)


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path, monkeypatch) -> None:
    config = TrainConfig("sansumoku", seed=2, **TINY)
    train(config, tmp_path / "whole", mapper=Mapper(1), say=lambda _: None)

    def interrupted(self, generation, progress=None):
        raise KeyboardInterrupt

    real_fit = Run.fit
    monkeypatch.setattr(Run, "fit", interrupted)
    with pytest.raises(KeyboardInterrupt):
        train(config, tmp_path / "cut", mapper=Mapper(1), say=lambda _: None)
    chunks = sorted((tmp_path / "cut" / "gen-000").glob("selfplay-*.npz"))
    assert len(chunks) == 2 and not (tmp_path / "cut" / "state.json").exists()
    stamps = [p.stat().st_mtime_ns for p in chunks]
    monkeypatch.setattr(Run, "fit", real_fit)
    lines: list[str] = []
    train(config, tmp_path / "cut", mapper=Mapper(1), say=lines.append)
    assert [p.stat().st_mtime_ns for p in chunks] == stamps  # self-play was not redone
    assert same(
        weights(tmp_path / "whole" / "gen-000" / "candidate.npz"),
        weights(tmp_path / "cut" / "gen-000" / "candidate.npz"),
    )
    # A finished run has nothing left to do; other settings are refused.
    lines.clear()
    train(config, tmp_path / "cut", mapper=Mapper(1), say=lines.append)
    assert lines == []
    with pytest.raises(ValueError, match="other settings"):
        Run(TrainConfig("sansumoku", seed=3, **TINY), tmp_path / "cut")
    # A run begun before a setting existed resumes at that setting's default only.
    saved = tmp_path / "cut" / "run.json"
    settings = json.loads(saved.read_text())
    del settings["children"]
    saved.write_text(json.dumps(settings))
    Run(config, tmp_path / "cut")
    with pytest.raises(ValueError, match="other settings \\(children\\)"):
        Run(replace(config, children=5), tmp_path / "cut")


def test_fitting_learns_a_learnable_value() -> None:
    rng = np.random.default_rng(0)
    x = (rng.random((3000, N_FEATURES)) < 0.15).astype(np.uint8)
    secret = rng.normal(0, 0.5, N_FEATURES)
    t = np.tanh(x @ secret - (x @ secret).mean()).astype(np.float32)
    start = ValueNet.initial("uttt", 16, 0)
    fitted = fit(start, x, t, epochs=30, batch=128, rate=3e-3, seed=0)
    assert loss(fitted, x, t) < 0.3 * loss(start, x, t)


def test_a_match_game_scores_the_first_network_from_either_seat() -> None:
    net = ValueNet.initial("uttt", 4, 1)
    scores = []
    for index in range(2):
        task = {"game": "uttt", "seed": 0, "index": index, "a": net, "b": None, "mix": 1.0,
                "simulations": 40, "opening": 2}  # fmt: skip
        score = match_game(task)
        assert score in (0.0, 0.5, 1.0)
        assert match_game(task) == score
        scores.append(score)
    assert len(scores) == 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["thirtyfive"], "no value network"),
        (["uttt", "--games", "0"], "games must be positive"),
        (["uttt", "--mix", "0"], "mix must be"),
        (["uttt", "--jobs", "0"], "jobs must be positive"),
        (["uttt", "--match-games", "1"], "at least 2 games"),
        (["uttt", "--search", "deep"], "search must be uct or bestfirst"),
        (["uttt", "--search", "bestfirst", "--target", "policy"], "trains a value network"),
    ],
)
def test_bad_settings_exit_2_with_one_line(args, message, capsys, tmp_path) -> None:
    assert main(["train", *args, "--dir", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert not (tmp_path / "x").exists()


def test_a_tiny_step_and_a_short_match_run_on_a_local_ray_instance(tmp_path) -> None:
    import ray

    config = TrainConfig("uttt", seed=5, **TINY)
    # One worker process: each one Ray starts loads the compiled kernels anew.
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        with Mapper(1, ray="local") as remote:
            train(config, tmp_path / "ray", mapper=remote, say=lambda _: None)
    finally:
        ray.shutdown()
    train(config, tmp_path / "here", mapper=Mapper(1), say=lambda _: None)
    for name in ("candidate.npz",):
        assert same(
            weights(tmp_path / "ray" / "gen-000" / name),
            weights(tmp_path / "here" / "gen-000" / name),
        )
    ray_match = json.loads((tmp_path / "ray" / "gen-000" / "match.json").read_text())
    here_match = json.loads((tmp_path / "here" / "gen-000" / "match.json").read_text())
    assert ray_match == here_match
