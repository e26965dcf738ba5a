"""The computer levels' ratings in docs/research.md are levels.json's, made by
``tools/levels_table.py`` (run it after a calibration: this fails until then)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("levels_table", ROOT / "tools" / "levels_table.py")
levels_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(levels_table)

CALIBRATION = json.loads(levels_table.LEVELS_JSON.read_text(encoding="utf-8"))


def test_the_doc_table_is_made_from_levels_json():
    doc = levels_table.DOC.read_text(encoding="utf-8")
    assert levels_table.current_block(doc) == levels_table.block(CALIBRATION), (
        "docs/research.md's levels table is stale: run python tools/levels_table.py --write"
    )


def test_every_game_and_level_is_in_the_table_with_its_interval():
    text = levels_table.table(CALIBRATION)
    for game, data in CALIBRATION["games"].items():
        line = next(
            x for x in text.splitlines() if x.startswith(f"| {levels_table.TITLES[game]} |")
        )
        for level, rating in data["ratings"].items():
            low, high = data["ci95"][level]
            shown = f"{rating} (anchor)" if low == high else f"{rating} ({low} to {high})"
            assert shown.replace("-", "−") in line


def test_a_level_below_the_one_before_is_called_out():
    changed = json.loads(json.dumps(CALIBRATION))
    ratings = changed["games"]["uttt"]["ratings"]
    ratings["max"] = ratings["hard"] - 1
    row = next(x for x in levels_table.table(changed).splitlines() if "Ultimate" in x)
    assert "| no: max < hard |" in row
    ratings["max"] = ratings["hard"] + 1
    ratings["easy"], ratings["beginner"] = 500, 900
    row = next(x for x in levels_table.table(changed).splitlines() if "Ultimate" in x)
    assert "| no: easy < beginner |" in row
