"""The levels' calibration fit: Bradley–Terry on the Elo scale, anchored at medium = 1500,
recovers known ratings from the expected scores, and its intervals cover them."""

from __future__ import annotations

import importlib.util
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

SCRIPT = Path(__file__).resolve().parent.parent / "tools" / "calibrate_levels.py"


def load():
    spec = importlib.util.spec_from_file_location("calibrate_levels", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("truth", [[900, 1200, 1500, 1700, 2000], [1400, 1450, 1500, 1550, 1600]])
def test_the_fit_recovers_the_ratings_behind_the_scores(truth: list[int]) -> None:
    calibrate = load()
    levels = ["beginner", "easy", "medium", "hard", "max"]
    r = np.array(truth, dtype=float)
    expected = 1 / (1 + 10 ** ((r[None, :] - r[:, None]) / 400))
    games = np.full((5, 5), 400.0)
    np.fill_diagonal(games, 0.0)
    fitted = calibrate.fit(levels, expected * games, games)
    for level, true in zip(levels, truth, strict=True):
        assert fitted["ratings"][level] == pytest.approx(true, abs=12), level
        low, high = fitted["ci95"][level]
        assert low <= true <= high, (level, low, high)
    assert fitted["ratings"]["medium"] == 1500 and fitted["ci95"]["medium"] == [1500, 1500]


def test_a_level_that_won_everything_still_gets_a_finite_rating() -> None:
    calibrate = load()
    levels = ["beginner", "easy", "medium", "hard", "max"]
    games = np.full((5, 5), 6.0)
    np.fill_diagonal(games, 0.0)
    scores = np.triu(games)  # the lower level always loses
    scores = games - scores
    fitted = calibrate.fit(levels, scores, games)
    values = [fitted["ratings"][level] for level in levels]
    assert values == sorted(values) and all(np.isfinite(values))


LEVELS = ["beginner", "easy", "medium", "hard", "max"]


@settings(max_examples=60, deadline=None)
@given(
    gaps=st.lists(st.integers(20, 600), min_size=4, max_size=4),
    neighbours=st.integers(20, 200),
)
def test_the_fit_orders_levels_whose_expected_scores_are_ordered(
    gaps: list[int], neighbours: int
) -> None:
    """Scores as strictly stronger levels would make them, on the schedule's games: the
    fitted ratings are strictly increasing."""
    calibrate = load()
    truth = np.cumsum([1000, *gaps]).astype(float)
    games = np.zeros((5, 5))
    for (a, b), n in calibrate.schedule(LEVELS, neighbours).items():
        games[LEVELS.index(a), LEVELS.index(b)] = games[LEVELS.index(b), LEVELS.index(a)] = n
    expected = 1 / (1 + 10 ** ((truth[None, :] - truth[:, None]) / 400))
    fitted = calibrate.fit(LEVELS, expected * games, games)["ratings"]
    values = [fitted[level] for level in LEVELS]
    assert all(low < high for low, high in itertools.pairwise(values)), values


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(2, 100), st.floats(0.55, 1.0)), min_size=4, max_size=4))
def test_neighbours_alone_decide_the_order(pairs: list[tuple[int, float]]) -> None:
    """With games between neighbours only, each level that scored over half against the
    one below is rated above it, however few the games."""
    calibrate = load()
    scores, games = np.zeros((5, 5)), np.zeros((5, 5))
    for i, (n, rate) in enumerate(pairs):
        games[i, i + 1] = games[i + 1, i] = n
        scores[i + 1, i] = rate * n
        scores[i, i + 1] = n - rate * n
    fitted = calibrate.fit(LEVELS, scores, games)
    values = [fitted["ratings"][level] for level in LEVELS]
    assert all(low < high for low, high in itertools.pairwise(values)), values


def test_neighbours_get_the_most_games_and_a_stopped_run_stays_balanced() -> None:
    calibrate = load()
    plan = calibrate.schedule(LEVELS, 40)
    assert plan[("medium", "hard")] == 40 and plan[("easy", "hard")] == 20
    assert plan[("beginner", "max")] == 10 and len(plan) == 10
    assert all(n % 2 == 0 for n in plan.values())  # as many games with each colour
    order = list(calibrate.interleave(plan))
    assert len(order) == sum(plan.values()) == len(set(order))
    first = order[: len(order) // 2]
    for pair, n in plan.items():
        played = sum(1 for a, b, _ in first if (a, b) == pair)
        assert abs(played - n / 2) <= 1, (pair, played)


def test_a_resumed_run_plays_only_the_games_the_log_lacks(tmp_path: Path) -> None:
    calibrate = load()
    plan = {("medium", "hard"): 4, ("hard", "max"): 2}
    todo = calibrate.pending("sumodoku", plan, "budget,max=6500", 3, set())
    assert len(todo) == 6
    log = tmp_path / "games.jsonl"
    logged = []
    for task in todo[:3]:
        entry = {k: task[k] for k in ("game", "clock", "seed", "index")}
        entry.update(a=task["level_a"], b=task["level_b"], score=1.0, seconds=1.0, load=0.5)
        logged.append(entry)
    log.write_text("".join(json.dumps(e) + "\n" for e in logged))
    done = {calibrate.key(e) for e in calibrate.read_log(log)}
    rest = calibrate.pending("sumodoku", plan, "budget,max=6500", 3, done)
    assert [(t["level_a"], t["level_b"], t["index"]) for t in rest] == [
        (t["level_a"], t["level_b"], t["index"]) for t in todo[3:]
    ]
    # another seed or clock is another run
    assert len(calibrate.pending("sumodoku", plan, "budget,max=6500", 4, done)) == 6
    assert len(calibrate.pending("sumodoku", plan, "own", 3, done)) == 6


def test_budget_clocks_free_budgeted_levels_and_fix_max() -> None:
    calibrate = load()
    clocks = calibrate.clock_ms("sumodoku", "budget,max=6500")
    assert clocks["hard"] == clocks["max:simulations=6500"] == calibrate.UNTIMED_MS
    assert calibrate.player("max", "budget,max=6500") == "max:simulations=6500"
    assert calibrate.player("max", "budget") == "max" and "max" not in calibrate.clock_ms(
        "sumodoku", "budget"
    )
    assert calibrate.clock_ms("sumodoku", "300")["max"] == 300
    assert calibrate.clock_ms("sumodoku", "own") == {}


def test_the_summary_fits_the_logged_games_of_one_clock() -> None:
    calibrate = load()
    rows = []
    for i, a, b, score, clock in [
        (0, "medium", "hard", 0.0, "budget,max=6500"),
        (1, "medium", "hard", 0.5, "budget"),  # the same games for a pair without max
        (0, "medium", "hard", 0.0, "budget"),  # game 0 again, replayed: counted once
        (0, "hard", "max", 0.0, "budget,max=6500"),
        (1, "hard", "max", 1.0, "budget,max=9000"),  # another max: left out
        (0, "easy", "medium", 1.0, "300"),  # another clock: left out
    ]:
        rows.append(
            {"game": "sumodoku", "clock": clock, "seed": 0, "index": i, "a": a, "b": b,
             "score": score, "seconds": 2.0, "load": 1.0}
        )  # fmt: skip
    out = calibrate.summary("sumodoku", "budget,max=6500", rows)
    assert out["games"] == 3
    assert out["pairs"]["medium-hard"]["games"] == 2 and out["pairs"]["medium-hard"]["draws"] == 1
    assert out["pairs"]["hard-max"]["losses"] == 1 and "easy-medium" not in out["pairs"]
    assert out["ratings"]["medium"] < out["ratings"]["hard"] < out["ratings"]["max"]
    done = {calibrate.key(r) for r in rows}
    plan = {("medium", "hard"): 3}
    assert [t["index"] for t in calibrate.pending("sumodoku", plan, "budget,max=1", 0, done)] == [2]
