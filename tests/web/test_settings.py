"""Settings: board looks and zen mode, kept in the browser and applied before the first paint."""

from __future__ import annotations

from typing import Any

from tests.web.accessibility import violations
from tests.web.helpers import Player


def test_board_looks_and_zen_mode_are_chosen_once_and_stay(
    browser: Any, server_url: str, screenshots: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server_url}/#/account")
        page.click("a[href='#/settings']")
        page.wait_for_selector("#setting-board")
        assert violations(page) == []
        before = page.evaluate("getComputedStyle(document.body).getPropertyValue('--board-bg')")
        page.select_option("#setting-board", "wood")
        page.check("#setting-zen")
        player = Player(page, server_url)
        player.start("uttt")
        board_bg = page.evaluate(
            "getComputedStyle(document.querySelector('.board')).getPropertyValue('--board-bg')"
        )
        assert board_bg.strip() == "#e8c793" and board_bg != before
        # Zen: the board, the status and the players; no header, no move list.
        assert not page.is_visible(".topbar") and not page.is_visible("[data-step=first]")
        assert page.is_visible(".board-host") and page.is_visible("[data-testid=seats]")
        page.screenshot(path=str(screenshots / "zen-wood.png"))
        page.reload()
        page.wait_for_selector("[data-testid=status] span")
        assert page.evaluate("document.documentElement.dataset.zen") == "on"
        page.keyboard.press("z")
        page.wait_for_selector(".topbar", state="visible")
        assert page.is_visible("[data-step=first]")
        page.keyboard.press("z")
        page.wait_for_selector(".topbar", state="hidden")
        page.click("[data-action=zen]")
        page.wait_for_selector(".topbar", state="visible")
        assert page.evaluate("localStorage.getItem('sansu.zen')") == "off"
        assert page.evaluate("document.documentElement.dataset.board") == "wood"
        assert not errors, errors
    finally:
        context.close()
