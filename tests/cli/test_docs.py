"""The package's description on an index page (PyPI) and ``sansu docs``: the index page
shows no link that only works beside the repository's files, and each guide it names
is shipped in the package and printed by ``sansu docs``."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from sansu.cli.docs import guides, text_of
from sansu.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)[^)]*\)|^\[[^\]]+\]:\s*(\S+)", re.MULTILINE)


def index_page() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return (ROOT / project["readme"]).read_text(encoding="utf-8")


def relative_links(text: str) -> list[str]:
    targets = [a or b for a, b in LINK.findall(text)]
    return [t for t in targets if not re.match(r"https?://", t)]


def test_the_link_finder_finds_relative_links() -> None:
    text = "[a](docs/a.md) ![b](b.png) [c](https://x.org/c) [d]: d.md\n"
    assert relative_links(text) == ["docs/a.md", "b.png"]
    assert relative_links("[d]: docs/d.md\n") == ["docs/d.md"]
    assert relative_links((ROOT / "README.md").read_text())  # the repository's has some


def test_the_index_page_has_no_relative_link() -> None:
    assert relative_links(index_page()) == []


def test_every_docs_command_of_the_index_page_works(capsys: pytest.CaptureFixture[str]) -> None:
    commands = re.findall(r"sansu docs(?: ([\w-]+))?", index_page())
    named = {c for c in commands if c}
    assert {"research", "dataset", "ai"} <= named
    for name in named:
        assert main(["docs", name]) == 0
        assert capsys.readouterr().out == text_of(name)


def test_the_guides_are_every_doc_and_each_game_has_its_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert set(guides()) == {p.stem for p in (ROOT / "docs").glob("*.md")}
    assert guides()["research"] == "Research environments"
    assert main(["docs"]) == 0
    listed = capsys.readouterr().out
    assert "research" in listed and "Research environments" in listed
    for game in ("uttt", "35"):
        assert text_of(game).startswith("# How to play")
    assert text_of("35") == (ROOT / "docs" / "rules" / "thirtyfive.md").read_text()


def test_an_unknown_guide_is_one_line_and_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sansu", "docs", "nothing-here"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "sansu docs: no guide 'nothing-here' (sansu docs lists them)"


def test_the_index_pages_python_runs() -> None:
    (code,) = re.findall(r"```python\n(.*?)```", index_page(), re.DOTALL)
    lines = code.splitlines()
    *head, last = lines
    namespace: dict[str, object] = {}
    exec("\n".join(head), namespace)
    import sansu

    with pytest.raises(sansu.IllegalMove, match="top-left section"):
        exec(last.split("#")[0], namespace)
    assert "['r1c1', 'r1c2', 'r1c3']" in code
    shown = eval("[str(m) for m in state.legal_moves()][:3]", namespace)
    assert shown == ["r1c1", "r1c2", "r1c3"]


@pytest.mark.parametrize(
    "line", [x for x in index_page().splitlines() if x.strip().startswith("sansu show")]
)
def test_the_index_pages_show_command_runs(line: str) -> None:
    command = shlex.split(line.split("#")[0])
    assert main(command[1:]) == 0
