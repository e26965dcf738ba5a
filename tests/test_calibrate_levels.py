"""The levels' calibration fit: Bradley–Terry on the Elo scale, anchored at medium = 1500,
recovers known ratings from the expected scores, and its intervals cover them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

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
