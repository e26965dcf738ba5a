"""The How to play pages in Chromium: each diagram drawn as a board by the game's
board module, its "Open on a board" link reaching the analysis board at the same
position, no sideways scroll at 390 px, axe-core content; the reference pages for
programmers beside them; and Sansumoku's first position in plain words."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import serving
from tests.web.helpers import TURN_TIMEOUT_MS, open_page
from tests.web.test_newcomer import DESKTOP, PHONE, assert_fits, close, new_page

GAMES = ("uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive")

CELLS = """root => Object.fromEntries([...root.querySelectorAll('[data-cell]')]
    .map(e => [e.dataset.cell, [e.textContent.trim() + '/' + (e.dataset.player ?? ''),
        e.classList.contains('is-open')]]))"""
"""Each cell of a board: its text and whose it is, and whether it is marked open to the
player to move."""


def same_position(diagram: dict[str, Any], board: dict[str, Any]) -> None:
    """The same cells show the same things (the analysis board may mark more cells open)."""
    assert diagram.keys() == board.keys()
    shown = {c for c, (text, open_) in diagram.items() if text != "/" and not open_}
    assert shown, "the diagram shows something"
    for cell in diagram:
        if not diagram[cell][1] and not board[cell][1]:
            assert diagram[cell][0] == board[cell][0], cell


def open_rules(page: Any, base: str, game: str) -> int:
    """Opens the game's How to play page; answers its number of diagrams, once all are drawn."""
    open_page(page, base, f"#/rules/{game}")
    page.wait_for_function(
        "() => document.querySelectorAll('figure.diagram').length > 0 && [...document"
        ".querySelectorAll('figure.diagram')].every(f => f.dataset.drawn !== undefined)"
    )
    return page.locator("figure.diagram").count()


@pytest.fixture(scope="module")
def diagrams_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own: the analysis board refuses a position of a game in
    play that hides information (another test's Sudoku Challenge game of the same puzzle
    on a shared server would make the diagram's board say so)."""
    db = tmp_path_factory.mktemp("rules-db") / "games.db"
    sansu = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"
    with serving(sansu, db) as url:
        yield url


@pytest.mark.parametrize("game", GAMES)
def test_diagrams_are_boards_that_open_on_the_analysis_board(
    browser: Any, diagrams_url: str, screenshots: Any, game: str
) -> None:
    server_url = diagrams_url
    page = new_page(browser, PHONE)
    try:
        count = open_rules(page, server_url, game)
        assert page.locator("figure.diagram[data-drawn=error], .diagram-error").count() == 0
        # Every diagram is a board of buttons labelled by cell, captioned, with its link.
        assert page.locator("figure.diagram .board [data-cell]").count() >= 9 * count
        assert page.locator("figure.diagram > figcaption").count() == count
        assert page.locator("figure.diagram a.open").count() == count
        assert page.locator("figure.diagram pre").count() == 0  # not text
        assert_fits(page, f"rules of {game} at 390 px")
        page.screenshot(path=str(screenshots / f"rules-{game}-390.png"), full_page=True)
        # The last diagram with moves, opened on the analysis board.
        figure = page.locator("figure.diagram:not([data-drawn='0'])").last
        shown = figure.evaluate(CELLS)
        ply = int(figure.get_attribute("data-drawn"))
        figure.locator("a.open").click()
        # The analysis board sets the position up on the server (a Sudoku Challenge's
        # puzzle is generated first): on a busy machine that is more than a moment.
        try:
            page.wait_for_selector(
                f".board-host[data-ply='{ply}'] [data-cell]", timeout=TURN_TIMEOUT_MS
            )
        except Exception as error:  # what the page and the server said, with the failure
            said = page.evaluate("() => document.querySelector('main')?.innerText.slice(0, 600)")
            health = page.evaluate("async () => (await fetch('/api/health')).text()")
            raise AssertionError(f"{error}\npage: {page.url}\n{said}\nhealth: {health}") from error
        same_position(shown, page.locator(".board-host").evaluate(CELLS))
    finally:
        close(page)


@pytest.mark.parametrize("game", GAMES)
def test_rules_at_desktop_width_and_the_reference_for_programmers(
    browser: Any, server_url: str, screenshots: Any, game: str
) -> None:
    page = new_page(browser, DESKTOP)
    try:
        open_rules(page, server_url, game)
        assert_fits(page, f"rules of {game} at 1280 px")
        page.screenshot(path=str(screenshots / f"rules-{game}-1280.png"), full_page=True)
        page.click(f".prose a[href='#/reference/{game}']")
        # the rules' own h1 stays until the reference is drawn: wait for the new one
        page.wait_for_selector(".prose h1:has-text('reference for programmers')")
        assert "reference for programmers" in page.inner_text(".prose h1")
        assert page.locator(".prose pre, .prose table").count() >= 1
        assert_fits(page, f"reference of {game} at 1280 px")
    finally:
        close(page)


def test_an_unknown_reference_page_says_so(browser: Any, server_url: str) -> None:
    page = new_page(browser, PHONE)
    try:
        page.goto(f"{server_url}/#/reference/chess")
        page.wait_for_function("() => /could not be loaded/.test(document.body.innerText)")
    finally:
        close(page)


def test_sansumoku_first_move_is_explained_in_words_not_81_hints(
    browser: Any, server_url: str
) -> None:
    """At the start every cell is open: no pale 1 in each, and the status says so plainly."""
    page = new_page(browser, PHONE)
    try:
        open_rules(page, server_url, "sansumoku")
        start = page.locator("figure.diagram").first
        assert start.locator(".cell.is-open").count() == 81
        assert start.evaluate("f => f.querySelector('.board').textContent.trim()") == ""
        details = page.evaluate(
            """async () => {
                const mod = await import('./boards/sansumoku.js');
                const board = mod.createBoard({propose() {}, explain() {}, playerName: String});
                const post = (moves) => fetch('/api/positions', {method: 'POST',
                    headers: {'Content-Type': 'application/json'},
                    body: JSON.stringify({game: 'sansumoku', moves})}).then(r => r.json());
                const out = [];
                for (const moves of [[], ['r4c4']]) {
                    out.push(board.statusDetail((await post(moves)).view));
                }
                return out;
            }"""
        )
        assert details[0] == "play anywhere: the first digit, a 1, may go in any cell"
        assert details[1] == "must play a 1 in the top-left section"
        # The next position still shows each open cell's digit.
        second = page.locator("figure.diagram").nth(1)
        assert second.locator(".cell.is-open").all_inner_texts() == ["1"] * 9
    finally:
        close(page)


def test_a_diagram_that_cannot_be_read_or_played_says_why(browser: Any, server_url: str) -> None:
    page = new_page(browser, PHONE)
    try:
        open_page(page, server_url, "#/rules/uttt")
        texts = page.evaluate(
            """async () => {
                const {renderMarkdown} = await import('./js/markdown.js');
                const {drawDiagrams} = await import('./js/diagrams.js');
                const out = [];
                for (const body of ['game: uttt\\ncolour: red\\ncaption: x',
                                    'game: uttt\\nmoves: r5c5, r5c5\\ncaption: x',
                                    'game: uttt\\noptions: [1]\\ncaption: x']) {
                    const box = document.createElement('div');
                    box.innerHTML = renderMarkdown('```diagram\\n' + body + '\\n```\\n');
                    document.querySelector('main').append(box);
                    await drawDiagrams(box);
                    out.push(box.textContent);
                }
                return out;
            }"""
        )
        assert 'could not be read: line 2: expected "key: value"' in texts[0]
        assert "could not be drawn: move 2, r5c5" in texts[1]
        assert "could not be read: line 2: the options are not a JSON object" in texts[2]
    finally:
        close(page)
