"""Courtesy between two people in two browsers: a premove, draw offers declined and
accepted, takeback requests declined and accepted, an abort, and a claim once the
opponent left (the offer controls looked at in screenshots at 1280 and 390 px); the
resign button keeps a keyboard user's focus when the opponent moves."""

from __future__ import annotations

import re
from typing import Any

from tests.web.accessibility import violations
from tests.web.helpers import Player
from tests.web.test_online import new_page
from tests.web.test_ratings import rated_between

PHONE = {"width": 390, "height": 844}


def friends(browser: Any, base: str) -> tuple[Player, Player]:
    """X starts a casual Ultimate Tic-Tac-Toe game by link and O joins it."""
    pa, pb = new_page(browser), new_page(browser)
    a = Player(pa, base)
    game_id = a.start("uttt", mode="online")
    pb.goto(pa.input_value("[data-testid=invite-link]"))
    pb.click("button[data-seat='1']")
    pb.wait_for_url(re.compile(rf"#/play/{game_id}$"))
    pa.wait_for_selector("[data-testid=share]", state="hidden")
    return a, Player(pb, base)


def test_premove_offers_and_takebacks_between_two_browsers(
    browser: Any, server_url: str, screenshots: Any
) -> None:
    a, b = friends(browser, server_url)
    pa, pb = a.page, b.page
    try:
        # O chooses r4c4 while X is to move: a premove, outlined, no mark drawn.
        b.cell("r4c4").click()
        assert b.cell("r4c4").get_attribute("data-premove") == ""
        assert b.cell("r4c4").locator("svg").count() == 0
        assert "premove r4c4" in pb.inner_text("[data-testid=explain]")
        b.cell("r6c6").click()  # another cell replaces it; Escape cancels, choose again
        pb.keyboard.press("Escape")
        assert pb.locator("[data-premove]").count() == 0
        b.cell("r4c4").click()
        a.play("r5c5")  # sends O to the centre board, where r4c4 is: played at once
        b.wait_ply(2, timeout=10_000)
        a.wait_ply(2, timeout=10_000)
        assert a.label("r4c4").startswith("r4c4: O") and pb.locator("[data-premove]").count() == 0

        # A draw offer, declined; the offerer sees it pending, the other the answer buttons.
        pa.click("[data-action=offer-draw]")
        pa.wait_for_selector("[data-testid=offer-draw] [data-action=withdraw-draw]")
        pb.wait_for_selector("[data-testid=offer-draw] [data-action=accept-draw]")
        assert pb.inner_text("[data-testid=offer-draw]").startswith("X offers a draw")
        assert "You offered a draw" in pa.inner_text("[data-testid=offer-draw]")
        assert violations(pb) == []
        pa.locator(".controls").screenshot(path=str(screenshots / "offer-sent-1280.png"))
        pb.locator(".controls").screenshot(path=str(screenshots / "offer-pending-1280.png"))
        pb.set_viewport_size(PHONE)
        pb.locator("[data-testid=offer-draw]").scroll_into_view_if_needed()
        pb.screenshot(path=str(screenshots / "offer-pending-390.png"))
        assert pb.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        pb.click("[data-action=decline-draw]")
        pa.wait_for_selector("[data-testid=offer-draw]", state="detached")
        assert "declined" in pa.inner_text("[data-testid=explain]")
        assert a.game()["status"] == "active"

        # X moves and asks to take it back: declined, then asked again and accepted.
        a.play("r2c2")
        pa.click("[data-action=offer-takeback]")
        pb.wait_for_selector("[data-action=accept-takeback]")
        assert "take back" in pb.inner_text("[data-testid=offer-takeback]")
        pb.click("[data-action=decline-takeback]")
        pa.wait_for_selector("[data-testid=offer-takeback]", state="detached")
        assert a.game()["ply"] == 3
        pa.click("[data-action=offer-takeback]")
        pb.click("[data-action=accept-takeback]")
        pa.wait_for_function("() => document.querySelector('.board-host').dataset.ply === '2'")
        assert a.status().startswith("Your move") and not a.label("r2c2").startswith("r2c2: X")

        # A premove the reply makes illegal is dropped with a note, never played.
        b.cell("r9c9").click()
        assert pb.locator("[data-premove]").count() == 1
        a.play("r2c2")  # sends O to the centre board, not to r9c9's
        pb.wait_for_function(
            "() => /dropped/.test(document.querySelector('[data-testid=explain]').textContent)"
        )
        assert pb.locator("[data-premove]").count() == 0 and b.game()["ply"] == 3

        # A draw offer accepted ends the game drawn for both.
        pb.click("[data-action=offer-draw]")
        pa.click("[data-action=accept-draw]")
        for p in (a, b):
            p.wait_over()
        assert a.status().startswith("Draw (drawn by agreement)")
        assert b.status().startswith("Draw")
        assert pa.js_errors == [] and pb.js_errors == []
    finally:
        pa.context.close()
        pb.context.close()


def test_an_abort_and_a_claim_in_rated_games(browser: Any, server_url: str) -> None:
    pa, pb = new_page(browser), new_page(browser)
    try:
        rated_between(pa, pb, server_url)
        # Before every player moved: Abort, not Resign.
        pb.wait_for_selector("[data-action=abort]")
        assert pb.locator("[data-action=resign]").count() == 0
        pa.click("[data-action=abort]")
        for p in (pa, pb):
            Player(p, server_url).wait_over()
        assert "aborted" in Player(pa, server_url).status()

        pc, pd = new_page(browser), new_page(browser)
        try:
            rated_between(pc, pd, server_url)
            c, d = Player(pc, server_url), Player(pd, server_url)
            c.play("r5c5")
            d.wait_turn_or_end(mine=True)
            d.play("r4c4")
            c.wait_turn_or_end(mine=True)
            c.play("r2c2")
            pd.goto("about:blank")  # O, to move, leaves
            countdown = pc.wait_for_selector("[data-testid=claim-countdown]")
            assert re.search(r"O left the game: you may claim it in \d+ s", countdown.inner_text())
            pc.wait_for_selector("[data-action=claim]", timeout=90_000)
            assert pc.locator("[data-action=claim-draw]").count() == 1
            assert violations(pc) == []
            pc.click("[data-action=claim]")
            c.wait_over()
            assert c.status().startswith("You win (O left the game)")
            assert pc.js_errors == []
        finally:
            pc.context.close()
            pd.context.close()
    finally:
        pa.context.close()
        pb.context.close()


def test_the_resign_button_keeps_the_keyboards_focus_across_the_opponents_move(
    browser: Any, server_url: str
) -> None:
    a, b = friends(browser, server_url)
    pa, pb = a.page, b.page
    try:
        a.play("r5c5")
        b.wait_turn_or_end(mine=True)
        pa.focus("[data-action=resign]")
        b.play("r4c4")  # the controls are drawn again with the move
        a.wait_ply(2)
        assert pa.evaluate("() => document.activeElement.dataset.action") == "resign"
        pa.once("dialog", lambda dialog: dialog.accept())
        pa.keyboard.press("Enter")  # so Enter still resigns
        pa.wait_for_selector("[data-testid=status].over")
        assert "resign" in a.status().lower()
    finally:
        pa.context.close()
        pb.context.close()
