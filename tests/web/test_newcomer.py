"""What a newcomer tripped on: the Sumodoku pad on a phone and after a refused move,
replays that only replay, Page Up / Page Down without focus, and no page wider
than a phone. Every page met here also passes axe-core with no violation."""

from __future__ import annotations

from typing import Any

import pytest

from sansu.sudoku.grid import PEERS
from sansu.sudoku.trainer import parse_cell
from tests.web.accessibility import violations
from tests.web.helpers import STATIC_PAGES, Player, open_page

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def new_page(browser: Any, viewport: dict[str, int], **options: Any) -> Any:
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("dialog", lambda dialog: dialog.accept())
    page.js_errors = errors
    return page


def close(page: Any) -> None:
    errors = page.js_errors
    page.context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def assert_fits(page: Any, where: str) -> None:
    """No horizontal scroll, and axe-core (WCAG 2 A and AA) finds nothing."""
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"{where}: {widths[0]} px wide in a {widths[1]} px window"
    found = violations(page)
    assert not found, f"{where}: {found}"


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_without_a_game_fits_and_passes_axe(browser: Any, server_url: str,
                                                       viewport: dict[str, int]) -> None:
    page = new_page(browser, viewport)
    try:
        for address in STATIC_PAGES:
            open_page(page, server_url, address)
            assert_fits(page, f"{address} at {viewport['width']} px")
    finally:
        close(page)


def test_rules_code_blocks_scroll_with_the_keyboard(browser: Any, server_url: str) -> None:
    page = new_page(browser, PHONE)
    try:
        open_page(page, server_url, "#/reference/uttt")
        block = page.locator(".prose pre").first
        assert block.evaluate("e => e.scrollWidth > e.clientWidth")  # a board wider than a phone
        block.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function("e => e.scrollLeft > 0", arg=block.element_handle())
    finally:
        close(page)
    page = new_page(browser, DESKTOP)
    try:  # on a desktop the worked examples are shown whole
        for game in ("uttt", "sansumoku", "thirtyfive"):
            open_page(page, server_url, f"#/reference/{game}")
            cut = page.evaluate(
                "() => [...document.querySelectorAll('.prose pre')]"
                ".filter(e => e.scrollWidth > e.clientWidth).length"
            )
            assert cut == 0, game
    finally:
        close(page)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("game", ["uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive"])
def test_game_pages_fit_and_pass_axe(
    browser: Any, server_url: str, screenshots: Any, game: str, viewport: dict[str, int]
) -> None:
    page = new_page(browser, viewport)
    where = f"{game} at {viewport['width']} px"
    try:
        player = Player(page, server_url)
        game_id = player.start(game)
        assert_fits(page, f"play {where}")
        page.screenshot(path=str(screenshots / f"newcomer-{game}-{viewport['width']}.png"))
        if game == "sumodoku" and viewport is PHONE:
            # The pad is under the board: both in view at once, no scrolling to move.
            assert page.locator(".under-board .digit-pad").count() == 1
            assert in_view(page, ".board-host") and in_view(page, ".digit-pad")
            keys = page.locator(".digit-pad .pad-key")
            assert min(k["height"] for k in (keys.nth(i).bounding_box() for i in range(9))) >= 44
        if viewport is PHONE and game in ("challenge", "thirtyfive"):
            assert in_view(page, ".board-host") and in_view(page, ".under-board .digit-pad")
        if game == "sumodoku" and viewport is DESKTOP:
            assert page.locator(".side .digit-pad").count() == 1
            key = page.locator(".digit-pad .pad-key").first.bounding_box()
            assert key["width"] >= 44 and key["height"] >= 44
        page.click("[data-action=resign]")
        page.wait_for_selector("[data-testid=status].over")
        assert_fits(page, f"finished {where}")
        page.goto(f"{server_url}/#/replay/{game_id}")
        page.wait_for_selector("[data-testid=status].over")
        assert_fits(page, f"replay {where}")
    finally:
        close(page)


def test_join_and_watch_pages_fit_and_pass_axe(browser: Any, server_url: str) -> None:
    host = new_page(browser, DESKTOP)
    guest = new_page(browser, PHONE)
    try:
        game_id = Player(host, server_url).start("uttt", mode="online")
        guest.goto(f"{server_url}/#/join/{game_id}")
        guest.wait_for_selector("button[data-seat='1']")
        assert_fits(guest, "join at 390 px")
        guest.goto(f"{server_url}/#/watch/{game_id}")
        guest.wait_for_selector("[data-testid=status] span")
        assert_fits(guest, "watch at 390 px")
    finally:
        close(guest)
        close(host)


def free_of(move: str, cells: list[str]) -> str:
    """The first of ``cells`` sharing no row, column or box with ``move``'s cell."""
    taken = parse_cell(move.partition("=")[0])
    for cell in cells:
        if parse_cell(cell) != taken and parse_cell(cell) not in PEERS[taken]:
            return cell
    raise AssertionError(f"no cell of {cells} is clear of {move}")


def test_sumodoku_lets_go_of_a_refused_cell(browser: Any, server_url: str) -> None:
    page = new_page(browser, DESKTOP)
    try:
        player = Player(page, server_url)
        player.start("sumodoku")
        player.play("r1c1=1", how="pad")
        player.wait_turn_or_end()
        # A second 1 in row 1: only the referee can tell, and it refuses. The cell is
        # one the computer's reply left empty (it may have played r1c5 itself).
        reply = player.game()["moves"][1]["move"].partition("=")[0]
        refused = next(f"r1c{c}" for c in range(5, 10) if f"r1c{c}" != reply)
        player.cell(refused).click()
        page.click(".digit-pad [data-digit='1']")
        page.wait_for_function(
            "() => /row|already|repeat/i.test(document.querySelector('[data-testid=explain]')"
            ".textContent)"
        )
        assert page.locator(".board-host .cell.is-selected").count() == 0
        # The next colour picked is armed for a cell to choose, not played into the refused cell.
        page.click(".digit-pad [data-digit='2']")
        assert page.get_attribute(".digit-pad [data-digit='2']", "aria-pressed") == "true"
        assert "Now choose an empty cell for colour 2" in page.inner_text("[data-testid=explain]")
        moves = player.game()["moves"]
        assert player.shown_ply() == 2 and len(moves) == 2
        # A cell where colour 2 is legal whatever the computer played: out of the row,
        # the column and the box of its piece (its move depends on the time its search had).
        target = free_of(moves[1]["move"], ["r2c5", "r5c9", "r9c2", "r8c8"])
        player.cell(target).click()
        player.wait_ply(3)
        assert player.game()["moves"][2]["move"] == f"{target}=2"
    finally:
        close(page)


def test_replay_only_replays_and_page_keys_need_no_focus(browser: Any, server_url: str) -> None:
    page = new_page(browser, DESKTOP)
    try:
        player = Player(page, server_url)
        game_id = player.start("uttt")
        for _ in range(2):
            player.play(player.game()["view"]["legal_moves"][0])
            player.wait_turn_or_end()
        # Page Up / Page Down with nothing focused (the page says they work).
        page.evaluate("() => document.activeElement?.blur()")
        page.keyboard.press("PageUp")
        page.wait_for_function("() => document.querySelector('.board-host').dataset.ply === '3'")
        page.keyboard.press("PageDown")
        page.wait_for_function("() => document.querySelector('.board-host').dataset.ply === '4'")
        assert page.locator("[data-action=takeback]").count() == 1
        page.click("[data-action=resign]")
        page.wait_for_selector("[data-testid=status].over")
        # The game against the computer is over: nothing to take back any more.
        assert page.locator("[data-action=takeback]").count() == 0
        assert page.locator("[data-action=rematch]").count() == 1

        page.goto(f"{server_url}/#/replay/{game_id}")
        page.wait_for_selector("[data-testid=status].over")
        assert page.locator("[data-action=rematch], [data-action=takeback], "
                            "[data-action=resign]").count() == 0  # fmt: skip
        assert "static" in (page.get_attribute(".board-host .board", "class") or "")
        page.evaluate("() => document.activeElement?.blur()")
        page.keyboard.press("PageUp")
        page.wait_for_function("() => document.querySelector('.board-host').dataset.ply === '3'")
        assert "Back to the end" in page.inner_text("[data-testid=history-banner]")
    finally:
        close(page)


def test_the_claim_note_names_a_button_that_exists() -> None:
    from sansu.web import STATIC_DIR

    text = (STATIC_DIR / "boards" / "sumodoku.js").read_text(encoding="utf-8")
    assert "the button above" not in text
    assert text.count('"Take back this piece"') == 1 and "'Take back this piece'" in text


def test_a_losing_sumodoku_claim_shows_its_result_at_once(browser: Any, server_url: str) -> None:
    """A claim on a grid without a completion loses at once; the page says so (no reload)."""
    page = new_page(browser, DESKTOP)
    # Box 1 gets no room for a 1: 1s in rows 1 and 2 and columns 1 and 2, a 2 on r3c3.
    opening = ["r1c4=1", "r2c7=2", "r2c8=1", "r4c1=1", "r7c2=1", "r3c3=2"]
    try:
        player = Player(page, server_url)
        player.start("sumodoku")
        for turn in range(1, 16):
            assert player.wait_turn_or_end()
            game = player.game()
            legal = [m for m in game["view"]["legal_moves"] if "=" in m]
            wanted = opening[turn - 1] if turn <= len(opening) else None
            move = wanted if wanted in legal else next(
                m for m in legal
                if not m.endswith("=1") and m.split("=")[0] not in ("r3c1", "r3c2", "r1c1")
            )
            player.play(move, how="pad")
        assert player.wait_turn_or_end()
        page.wait_for_selector(".claim-btn:not([hidden])")
        page.click(".claim-btn")
        page.click("[data-testid=claim-dialog] [data-answer=yes]")  # asked first
        page.wait_for_selector("[data-testid=status].over", timeout=10_000)
        status = player.status()
        assert "you lose" in status.lower(), status
        finished = player.game()
        assert finished["status"] == "finished" and finished["result"]["winners"] == [1]
        assert "complet" in finished["result"]["reason"], finished["result"]
    finally:
        close(page)
