"""Two browsers play an online game by link while a third one watches."""

from __future__ import annotations

import re
from typing import Any

from tests.web.helpers import Player


def new_page(browser: Any, **options: Any) -> Any:
    context = browser.new_context(viewport={"width": 1200, "height": 860}, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def test_online_game_by_link_with_a_spectator(
    browser: Any, server_url: str, screenshots: Any
) -> None:
    pa = new_page(browser, permissions=["clipboard-read", "clipboard-write"])
    pb, pc = new_page(browser), new_page(browser)
    try:
        a = Player(pa, server_url)
        game_id = a.start("uttt", mode="online")
        link = pa.input_value("[data-testid=invite-link]")
        # A friend's game is private: its link carries the join secret in the fragment.
        assert re.search(rf"#/join/{game_id}/[\w-]{{16,}}$", link)
        pa.click("[data-action=copy]")
        assert pa.evaluate("navigator.clipboard.readText()") == link
        assert "Waiting for" not in a.status()  # X moves first, even before O arrives

        # The friend follows the link and takes the free seat.
        pb.goto(link)
        pb.click("button[data-seat='1']")
        pb.wait_for_url(re.compile(rf"#/play/{game_id}$"))
        b = Player(pb, server_url)
        pa.wait_for_selector("[data-testid=share]", state="hidden")

        # A third browser watches by the game's link (a private game is not listed).
        pc.goto(f"{server_url}/#/watch/{game_id}")
        c = Player(pc, server_url)
        pc.wait_for_selector("[data-testid=status] span")
        assert pc.locator("[data-action=resign]").count() == 0
        # Everyone is here: both seats are shown present to the players.
        pa.wait_for_function(
            "() => document.querySelectorAll('[data-testid=seats] .presence.on').length === 2"
        )
        pa.wait_for_function("() => /1 watching/.test(document.body.innerText)")

        moves = ["r5c5", "r4c4", "r2c2", "r5c4", "r6c2", "r8c5"]
        for k, move in enumerate(moves):
            mover, other = (a, b) if k % 2 == 0 else (b, a)
            mover.wait_turn_or_end()
            assert other.status().endswith("to move") or "to move" in other.status()
            # The player not to move is told so when they try.
            other.cell(move).click()
            assert "turn" in other.page.inner_text("[data-testid=explain]")
            mover.play(move)
            for watcher in (other, c):
                watcher.wait_ply(k + 1, timeout=10_000)
                mark = "X" if k % 2 == 0 else "O"
                assert watcher.label(move).startswith(f"{move}: {mark}")
        # The spectator can never move.
        c.cell("r1c1").click()
        assert pc.inner_text("[data-testid=explain]") == "You are watching this game."
        pc.screenshot(path=str(screenshots / "online-spectator.png"))

        # O resigns; everyone sees the result.
        pb.click("[data-action=resign]")
        for p in (pa, pb, pc):
            p.wait_for_selector("[data-testid=status].over")
        assert a.status().startswith("You win")
        assert "you lose" in b.status()
        assert c.status().startswith("X wins") and "O resigned" in c.status()

        # A rematch once both agree: seats turn by one, each keeps their browser's seat.
        pa.click("[data-action=rematch]")
        pb.wait_for_selector("[data-action=rematch]:has-text('Accept')")
        pb.click("[data-action=rematch]")
        for p in (pa, pb):
            p.wait_for_function(
                "old => location.hash.startsWith('#/play/') && !location.hash.endsWith(old)",
                arg=game_id,
            )
            p.wait_for_selector("[data-testid=status] span")
        assert Player(pa, server_url).game()["you"] == [1]
        assert Player(pb, server_url).game()["you"] == [0]
        pb.wait_for_function(
            "() => /^Your move/.test(document.querySelector('[data-testid=status]').textContent)"
        )
        for p in (pa, pb, pc):
            assert not p.js_errors, p.js_errors
    finally:
        for p in (pa, pb, pc):
            p.context.close()
