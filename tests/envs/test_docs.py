"""The examples of docs/research.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)


def test_the_page_has_its_examples():
    assert len(BLOCKS) == 7  # each one runs below


@pytest.mark.parametrize("code", BLOCKS, ids=[f"example-{i}" for i in range(len(BLOCKS))])
def test_example_runs(code, capsys):
    exec(compile(code, str(DOC), "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out.strip()
