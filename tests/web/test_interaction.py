"""Playing by keyboard alone, explanations of refused moves, the Sansumoku
rule text's opening, reloading mid-game, takebacks, stepping through the
moves, the home page and the phone layout."""

from __future__ import annotations

import re
from typing import Any

from tests.web.helpers import Player
from tests.web.test_play import keyboard_to


def open_cells(player: Player) -> dict[str, str]:
    return player.page.eval_on_selector_all(
        ".board-host .cell.is-open",
        "els => Object.fromEntries(els.map(e => [e.dataset.cell, e.textContent.trim()]))",
    )


def test_sansumoku_opening_of_the_rule_text(page: Any, server_url: str, screenshots: Any) -> None:
    """Blue r4c4, Orange r1c2, Blue r2c5: each time, exactly the open cells the text describes."""
    player = Player(page, server_url)
    player.start("sansumoku", mode="local")
    assert len(open_cells(player)) == 81 and set(open_cells(player).values()) == {""}
    assert "play anywhere: the first digit, a 1, may go in any cell" in player.status()
    player.play("r4c4")
    # "Orange now must play in top left section ... all cells open ... must play 1."
    assert open_cells(player) == {f"r{r}c{c}": "1" for r in (1, 2, 3) for c in (1, 2, 3)}
    assert "is-last" in player.cell("r4c4").get_attribute("class")
    player.play("r1c2")
    # "So there are only 4 cells that are open for play now."
    assert open_cells(player) == {"r2c5": "1", "r2c6": "1", "r3c5": "1", "r3c6": "1"}
    # Refused moves are explained: by the board itself, or by the server's referee.
    player.cell("r5c5").click()
    assert "top-centre" in page.inner_text("[data-testid=explain]")
    player.cell("r1c5").click()
    page.wait_for_function(
        "() => /a 1 is already in row 1/"
        ".test(document.querySelector('[data-testid=explain]').textContent)"
    )
    assert player.shown_ply() == 2
    player.play("r2c5")
    # "Now Orange must play in the central section ... Orange must play 2."
    assert open_cells(player) == {
        f"r{r}c{c}": "2" for r in (4, 5, 6) for c in (4, 5, 6) if (r, c) != (4, 4)
    }
    assert "2 in the centre section" in player.status()
    page.locator(".board-host").screenshot(path=str(screenshots / "live-sansumoku-opening.png"))


def test_keyboard_only_play(page: Any, server_url: str) -> None:
    """From the game's page to a played move without the mouse."""
    page.goto(f"{server_url}/#/game/thirtyfive")
    page.wait_for_selector("form.play-form")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.action") == "start":
            break
    else:
        raise AssertionError("Tab never reached the start button")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"#/play/\w+"))
    page.wait_for_selector("[data-testid=status] span")
    player = Player(page, server_url)
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.cell || ''"):
            break
    else:
        raise AssertionError("Tab never reached the board")
    # Arrows move the selection, a digit plays it.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.cell") == "r2c2"
    page.keyboard.press("7")
    player.wait_ply(1)
    assert player.label("r2c2").startswith("r2c2: red 7")
    player.wait_turn_or_end()
    # Enter alone on an empty square asks for a number; a filled square refuses one.
    page.keyboard.press("2")
    assert "already holds" in page.inner_text("[data-testid=explain]")
    # The computer's answer may have taken any square: go to one still empty.
    empty = next(c for c in ("r4c4", "r5c5", "r6c6") if player.label(c).startswith(f"{c}: empty"))
    keyboard_to(player, empty)
    page.keyboard.press("Enter")
    assert "type a number" in page.inner_text("[data-testid=explain]")
    page.keyboard.press("9")
    player.wait_ply(3)
    assert player.label(empty).startswith(f"{empty}: red 9")


def test_reload_restores_the_game(page: Any, server_url: str) -> None:
    player = Player(page, server_url)
    game_id = player.start("uttt")
    player.play("r5c5")
    player.wait_turn_or_end()
    game = player.game()
    second = game["view"]["legal_moves"][0]
    player.play(second)
    player.wait_turn_or_end()
    labels = page.eval_on_selector_all(
        ".board-host [data-cell]", "els => els.map(e => e.ariaLabel)"
    )
    moves = page.locator("[data-testid=moves] li").count()
    page.reload()
    page.wait_for_selector("[data-testid=status] span")
    assert player.game_id == game_id
    assert player.status().startswith("Your move")
    again = page.eval_on_selector_all(".board-host [data-cell]", "els => els.map(e => e.ariaLabel)")
    assert again == labels and moves == 4
    assert page.locator("[data-testid=moves] li").count() == moves
    # The seat is still this browser's: it can move on.
    player.play(player.game()["view"]["legal_moves"][0])


def test_takeback_and_stepping(page: Any, server_url: str) -> None:
    player = Player(page, server_url)
    player.start("uttt")
    player.play("r1c1")
    player.wait_turn_or_end()
    player.play(player.game()["view"]["legal_moves"][0])
    player.wait_turn_or_end()
    assert player.shown_ply() == 4
    # Step back: the board shows the earlier position and cannot be played there.
    page.click("[data-step=previous]")
    page.wait_for_selector("[data-testid=history-banner]:not([hidden])")
    assert player.shown_ply() == 3
    page.click("[data-step=first]")
    page.wait_for_function("() => document.querySelector('.board-host').dataset.ply === '0'")
    assert player.label("r1c1") == "r1c1: empty, open for X, top-left board"
    player.cell("r5c5").click()
    assert "earlier position" in page.inner_text("[data-testid=explain]")
    page.keyboard.press("PageDown")
    page.wait_for_function("() => document.querySelector('.board-host').dataset.ply === '1'")
    assert player.label("r1c1").startswith("r1c1: X")
    page.click("[data-step=last]")
    page.wait_for_selector("[data-testid=history-banner]", state="hidden")
    # Take back: my last move and the computer's reply are undone.
    page.click("[data-action=takeback]")
    page.wait_for_function("() => document.querySelector('.board-host').dataset.ply === '2'")
    assert page.locator("[data-testid=moves] li").count() == 2
    assert player.status().startswith("Your move")


def test_home_archive_and_phone_layout(browser: Any, server_url: str, screenshots: Any) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{server_url}/#/")
        page.wait_for_function(
            "() => document.querySelectorAll('.card .thumb .board').length === 5"
        )
        titles = page.locator(".card h2").all_inner_texts()
        assert titles == ["Ultimate Tic-Tac-Toe", "Sansumoku", "Sumodoku", "Sudoku Challenge", "35"]
        page.screenshot(path=str(screenshots / "phone-home.png"))
        player = Player(page, server_url)
        game_id = player.start("sansumoku")
        box = page.locator(".board-host").bounding_box()
        assert box["width"] <= 390 and box["width"] > 300  # the board fills a phone's width
        player.cell("r5c5").tap()
        player.wait_ply(1)
        player.wait_turn_or_end()
        page.screenshot(path=str(screenshots / "phone-sansumoku.png"))
        # Dark theme, chosen once, stays; the button names the theme it switches to.
        assert page.evaluate("document.documentElement.dataset.theme") == "light"
        assert page.locator("#theme-toggle").get_attribute("aria-label") == "Dark theme"
        page.click("#theme-toggle")
        page.reload()
        page.wait_for_selector("[data-testid=status] span")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        toggle = page.locator("#theme-toggle")
        assert toggle.get_attribute("aria-label") == "Light theme"
        assert toggle.locator(".label").text_content() == "Light theme"
        page.screenshot(path=str(screenshots / "phone-sansumoku-dark.png"))
        # The archive lists finished games and replays them.
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("[data-action=resign]")
        page.wait_for_selector("[data-testid=status].over")
        page.goto(f"{server_url}/#/archive")
        page.select_option("#archive-filter", "sansumoku")
        page.wait_for_selector(f"li[data-match='{game_id}']")
        page.click(f"li[data-match='{game_id}'] a:has-text('Replay')")
        page.wait_for_selector("[data-testid=status].over")
        page.click("[data-step=first]")
        page.wait_for_function("() => document.querySelector('.board-host').dataset.ply === '0'")
        assert not errors, errors
    finally:
        context.close()
