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
    for path in sorted([*DOCS.glob("*.md"), *DOCS.glob("reference/*.md")]):
        source = path.read_text(encoding="utf-8")
        html = page.evaluate(
            "async text => (await import('./js/markdown.js')).renderMarkdown(text)", source
        )
        page.evaluate("html => { document.querySelector('main').innerHTML = html; }", html)
        headings = page.locator("main h1, main h2, main h3").count()
        assert headings == len(re.findall(r"^#{1,3} ", source, flags=re.M)), path.name
        tables = len(re.findall(r"^ *\|\s*:?-{3,}.*\|\s*$", source, flags=re.M))  # nested too
        assert page.locator("main table").count() == tables, path.name
        assert "<script" not in html
        assert page.locator("main li").count() >= 1 or "```diagram" in source
        diagrams = len(re.findall(r"^```diagram$", source, flags=re.M))
        assert page.locator("main figure.diagram figcaption a.open").count() == diagrams


def render_markdown(page: Any, static_url: str, text: str) -> str:
    page.goto(f"{static_url}/index.html#/gallery")
    page.wait_for_selector("html[data-ready]")
    return page.evaluate(
        "async text => (await import('./js/markdown.js')).renderMarkdown(text)", text
    )


def test_markdown_escapes_markup(page: Any, static_url: str) -> None:
    html = render_markdown(
        page,
        static_url,
        "# T\n\n<img src=x onerror=alert(1)> **bold** `r5c5=7` [x](javascript:alert(1))\n\n"
        "1. one\n2. two\n   - nested\n\n<script>alert(1)</script>\n",
    )
    assert "<img" not in html and "<script" not in html and 'href="javascript' not in html
    assert "&lt;img" in html and "&lt;script&gt;" in html
    assert "<strong>bold</strong>" in html and "<code>r5c5=7</code>" in html
    assert html.count("<ol>") == 1 and html.count("<ul>") == 1


def test_markdown_is_commonmark_by_a_library(page: Any, static_url: str) -> None:
    """The rules are drawn by the vendored markdown-it, with CommonMark's corners right."""
    module = (STATIC_DIR / "js" / "markdown.js").read_text(encoding="utf-8")
    assert "from '../vendor/markdown-it.min.js'" in module
    assert (STATIC_DIR / "vendor" / "markdown-it.LICENSE.txt").is_file()
    html = render_markdown(
        page,
        static_url,
        "Title\n=====\n\nline one  \nline two *a **b** c* \\*not\\* &amp; &copy;\n\n"
        "> quoted\n> - item\n\n```\n┏━━━┓ a board\n```\n\n    indented code\n\n"
        "See [Sumodoku](sumodoku.md) and <https://example.org>.\n",
    )
    assert "<h1>Title</h1>" in html  # a setext heading
    assert "line one<br>" in html  # a hard line break
    assert "<em>a <strong>b</strong> c</em>" in html and "*not*" in html
    assert "&amp; ©" in html
    assert "<blockquote>" in html and "<li>item</li>" in html
    assert '<pre tabindex="0"><code>┏━━━┓ a board' in html  # keyboard can scroll it
    assert '<pre tabindex="0"><code>indented code' in html
    assert '<a href="#/rules/sumodoku">Sumodoku</a>' in html
    assert '<a href="https://example.org">https://example.org</a>' in html


def test_samples_are_json_views() -> None:
    for game_id in sansu.game_ids():
        view = json.loads((STATIC_DIR / "samples" / f"{game_id}.json").read_text(encoding="utf-8"))
        assert view["game"] == game_id and view["cells"]
