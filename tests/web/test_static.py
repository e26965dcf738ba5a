"""The web app's static files: one board module per game, sample positions
that match the engines, and rules texts rendered from Markdown."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import sansu
from sansu.web import STATIC_DIR, board_module
from sansu.web.samples import sample_text

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


@pytest.mark.parametrize("game_id", sansu.game_ids())
def test_every_game_has_a_board_module_and_a_current_sample(game_id: str) -> None:
    module = board_module(game_id)
    assert module.is_file()
    text = module.read_text(encoding="utf-8")
    assert f"id: '{game_id}'" in text and "export function createBoard" in text
    sample = STATIC_DIR / "samples" / f"{game_id}.json"
    assert sample.read_text(encoding="utf-8") == sample_text(game_id), (
        f"{sample} is out of date: run python -m sansu.web.samples"
    )


def test_static_files_name_no_missing_module() -> None:
    """Every relative import of every module points at a file that exists."""
    for path in STATIC_DIR.rglob("*.js"):
        for target in re.findall(r"from '(\.{1,2}/[^']+)'", path.read_text(encoding="utf-8")):
            assert (path.parent / target).resolve().is_file(), (path, target)
    html = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    for target in re.findall(r'(?:href|src)="([^"#:]+)"', html):
        assert (STATIC_DIR / target).is_file(), target


def test_rules_render_from_markdown(page: Any, static_url: str) -> None:
    page.goto(f"{static_url}/index.html#/gallery")
    page.wait_for_selector("html[data-ready]")
    for path in sorted(DOCS.glob("*.md")):
        source = path.read_text(encoding="utf-8")
        html = page.evaluate(
            "async text => (await import('./js/markdown.js')).renderMarkdown(text)", source
        )
        page.evaluate("html => { document.querySelector('main').innerHTML = html; }", html)
        headings = page.locator("main h1, main h2, main h3").count()
        assert headings == len(re.findall(r"^#{1,3} ", source, flags=re.M)), path.name
        tables = len(re.findall(r"^\|\s*:?-{3,}.*\|\s*$", source, flags=re.M))
        assert page.locator("main table").count() == tables, path.name
        assert "<script" not in html
        assert page.locator("main li").count() >= 1


def test_markdown_escapes_markup(page: Any, static_url: str) -> None:
    page.goto(f"{static_url}/index.html#/gallery")
    page.wait_for_selector("html[data-ready]")
    html = page.evaluate(
        "async text => (await import('./js/markdown.js')).renderMarkdown(text)",
        "# T\n\n<img src=x onerror=alert(1)> **bold** `r5c5=7` [x](javascript:alert(1))\n\n"
        "1. one\n2. two\n   - nested\n",
    )
    assert "<img" not in html and "javascript:" not in html
    assert "<strong>bold</strong>" in html and "<code>r5c5=7</code>" in html
    assert html.count("<ol>") == 1 and html.count("<ul>") == 1


def test_samples_are_json_views() -> None:
    for game_id in sansu.game_ids():
        view = json.loads((STATIC_DIR / "samples" / f"{game_id}.json").read_text(encoding="utf-8"))
        assert view["game"] == game_id and view["cells"]
