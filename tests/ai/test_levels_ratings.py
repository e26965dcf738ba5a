"""The shipped levels' ratings (``server/ratings/levels.json``): a data check that every
game's levels are published in strictly increasing order, each with its interval, and
that every neighbouring pair measured head to head was won by the higher level."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import sansu
from sansu.ai.levels import LEVELS

SHIPPED = Path(sansu.__file__).resolve().parent / "server" / "ratings" / "levels.json"
GAMES = ("uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive")


def shipped() -> dict:
    return json.loads(SHIPPED.read_text("utf-8"))


def test_every_game_is_calibrated_anchored_at_medium() -> None:
    data = shipped()
    assert data["anchor"] == {"level": "medium", "rating": 1500.0}
    assert set(data["games"]) == set(GAMES)
    for game, entry in data["games"].items():
        assert entry["ratings"]["medium"] == 1500, game
        assert entry["clock"] and entry["games"] > 0, game


@pytest.mark.parametrize("game", GAMES)
def test_the_published_ratings_are_strictly_increasing(game: str) -> None:
    entry = shipped()["games"][game]
    ratings = [entry["ratings"][level] for level in LEVELS]
    assert all(low < high for low, high in itertools.pairwise(ratings)), (game, ratings)
    for level in LEVELS:
        low, high = entry["ci95"][level]
        assert low <= entry["ratings"][level] <= high, (game, level)


@pytest.mark.parametrize("game", GAMES)
def test_measured_neighbours_were_won_by_the_higher_level(game: str) -> None:
    pairs = shipped()["games"][game].get("pairs", {})
    for lower, higher in itertools.pairwise(LEVELS):
        result = pairs.get(f"{lower}-{higher}")
        if result is None:
            continue
        assert result["games"] == result["wins"] + result["draws"] + result["losses"]
        assert result["rate"] < 0.5, (game, lower, higher, result)
