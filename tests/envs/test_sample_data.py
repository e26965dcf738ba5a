"""The sample dataset shipped in ``tests/data``: small, in today's schema, and every row
the engine's position (a change of the encoding or the rules that breaks it fails here)."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from sansu.envs.dataset import replay, schema

DATA = Path(__file__).resolve().parents[1] / "data"
FILES = sorted(DATA.glob("*.parquet"))


def test_the_sample_is_there_and_small():
    assert {f.name for f in FILES} >= {"selfplay-uttt.parquet", "selfplay-sansumoku.parquet"}
    assert sum(f.stat().st_size for f in FILES) < 1_000_000


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_sample_row_replays_through_the_engine(path):
    table = pq.read_table(path)
    assert table.schema.equals(schema())
    rows = [row for row, _ in replay(table)]
    assert len(rows) == table.num_rows > 0
    for row in rows:
        assert row["source"] == "selfplay" and -1.0 <= row["value"] <= 1.0
        assert sum(row["visits"]) > 0 and row["action"] in row["legal_actions"]


def test_the_dataset_card_example_runs(capsys, monkeypatch):
    card = (DATA.parents[1] / "docs" / "dataset.md").read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", card, flags=re.DOTALL)
    monkeypatch.chdir(DATA.parents[1])
    exec(compile(code, "dataset.md", "exec"), {"__name__": "__docs__"})
    assert "positions, every one the engine's" in capsys.readouterr().out
