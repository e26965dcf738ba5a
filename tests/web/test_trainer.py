"""The technique trainer in Chromium: the list by level, a single answered right by keyboard,
an x-wing answered wrong on a phone, the step shown on the board and explained, another grid;
no sideways scroll at 390 px, and axe-core finds nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sansu.sudoku.logic.board import NAMES
from sansu.sudoku.trainer import exercise, techniques
from tests.web.helpers import open_page
from tests.web.test_newcomer import assert_fits

PHONE = {"width": 390, "height": 844}
VERDICT = ".verdict[data-right]"


def open_exercise(page: Any, base: str, technique: str, seed: int) -> None:
    open_page(page, base, f"#/trainer/{technique}?seed={seed}")
    page.wait_for_selector(".tr .pm text")


def test_the_list_groups_the_techniques_by_level(
    page: Any, server_url: str, screenshots: Path
) -> None:
    open_page(page, server_url, "#/trainer")
    page.wait_for_selector("[data-technique]")
    shown = page.eval_on_selector_all(
        "[data-technique]", "links => links.map(a => a.dataset.technique)"
    )
    assert shown == [t.id for t in techniques()]
    headings = page.eval_on_selector_all(".trainer-levels h2", "hs => hs.map(h => h.textContent)")
    assert headings[0] == "Easy" and "Extreme" in headings
    assert_fits(page, "trainer list, 1280 px")
    page.screenshot(path=str(screenshots / "trainer-list.png"), full_page=True)
    page.click("[data-technique=naked-single]")
    page.wait_for_url(re.compile(r"#/trainer/naked-single\?seed=\d+$"))
    page.wait_for_selector(".tr .cell")


def test_a_hidden_single_answered_right_by_keyboard(
    page: Any, server_url: str, screenshots: Path
) -> None:
    drill = exercise("hidden-single-box", 5)
    ((cell, digit),) = drill.answers
    open_exercise(page, server_url, "hidden-single-box", 5)
    # A digit the cell cannot hold is refused on the page, and nothing is judged.
    page.focus("[data-cell=r1c1]")
    row, col = divmod(cell, 9)
    for _ in range(row):
        page.keyboard.press("ArrowDown")
    for _ in range(col):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.cell") == NAMES[cell]
    page.keyboard.press(str(digit))
    page.wait_for_selector(VERDICT)
    assert page.get_attribute(VERDICT, "data-right") == "true"
    assert page.inner_text("[data-testid=explanation]") == drill.step.description
    tinted = page.eval_on_selector_all(
        ".tr .cell.in-pattern", "cs => cs.map(c => +c.dataset.index)"
    )
    assert tinted == list(drill.step.pattern)
    placed = page.locator(f".pm text.is-place[data-cell={NAMES[cell]}]")
    assert placed.text_content() == str(digit)
    assert_fits(page, "trainer, hidden single, 1280 px")
    page.screenshot(path=str(screenshots / "trainer-hidden-single.png"), full_page=True)


def test_an_x_wing_answered_wrong_on_a_phone(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        open_page(page, server_url, "#/trainer")
        page.wait_for_selector("[data-technique]")
        assert_fits(page, "trainer list, 390 px")
        drill = exercise("x-wing", 3)
        cell = drill.answers[0][0]
        keep = drill.solution[cell]  # the cell's own digit: removing it is wrong
        open_exercise(page, server_url, "x-wing", 3)
        assert_fits(page, "trainer, x-wing, 390 px")
        page.click(f"[data-cell={NAMES[cell]}]")
        assert NAMES[cell] in page.inner_text(".pick")
        page.click(f".digit-pad [data-digit='{keep}']")
        page.wait_for_selector(VERDICT)
        assert page.get_attribute(VERDICT, "data-right") == "false"
        assert "cannot be removed" in page.inner_text("[data-testid=verdict-message]")
        assert page.inner_text("[data-testid=explanation]") == drill.step.description
        removed = page.eval_on_selector_all(
            ".tr .pm text.is-remove",
            "ms => ms.map(m => [m.dataset.cell, +m.textContent])",
        )
        assert sorted(removed) == sorted([NAMES[c], d] for c, d in drill.step.eliminations)
        page.wait_for_selector(".verdict h2")
        assert_fits(page, "trainer, x-wing verdict, 390 px")
        page.screenshot(path=str(screenshots / "trainer-x-wing-phone.png"), full_page=True)
        # Try again clears the verdict; another grid draws a new seed.
        page.click("[data-action=again]")
        assert page.locator(VERDICT).count() == 0
        page.click("[data-action=another]")
        page.wait_for_url(re.compile(r"#/trainer/x-wing\?seed=(?!3$)\d+$"))
        page.wait_for_selector(".tr .pm text")
    finally:
        context.close()
    assert not errors, errors
