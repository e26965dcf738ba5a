"""Sumodoku's honour variant in the browser: a spectator reports a duplicate, the players see it."""

from __future__ import annotations

from typing import Any

from tests.web.accessibility import violations
from tests.web.helpers import Player, api_get, api_post
from tests.web.test_online import new_page


def test_a_spectator_reports_a_duplicate(browser: Any, server_url: str, screenshots: Any) -> None:
    pa, pc = new_page(browser), new_page(browser)
    try:
        a = Player(pa, server_url)
        gid = a.start("sumodoku", mode="online", options={"honour": True})
        # A friend's game is private: the friend joins with the invitation's secret.
        invite = {"seat": 1, "secret": a.invite_secret}
        second = api_post(server_url, f"/api/games/{gid}/join", invite)["token"]
        a.play("r1c1=1")
        game = api_get(server_url, f"/api/games/{gid}", second)
        api_post(
            server_url,
            f"/api/games/{gid}/moves",
            {"move": "r9c9=5", "state": game["state"]},
            second,
        )
        a.wait_ply(2, timeout=10_000)
        a.play("r1c5=1")  # a duplicate in row 1, accepted in the honour variant
        # The player sees the control too (a report is open to anyone), but no note for spectators.
        pa.wait_for_selector("[data-action=report]")

        c = Player(pc, server_url)
        pc.goto(f"{server_url}/#/watch/{gid}")
        c.wait_ply(3, timeout=10_000)
        pc.wait_for_selector("[data-action=report]")
        assert "Anyone watching may point out" in pc.inner_text(".sd-side")
        assert violations(pc) == []
        pc.click("[data-action=report]")
        assert pc.get_attribute("[data-action=report]", "aria-pressed") == "true"
        assert "choose the piece" in pc.inner_text("[data-testid=explain]")
        c.cell("r2c2").click()  # an empty cell reports nothing
        assert "empty" in pc.inner_text("[data-testid=explain]")
        c.cell("r1c5").click()
        for watcher in (c, a):
            watcher.wait_ply(4, timeout=10_000)
            assert "a hole left by a removed piece" in watcher.label("r1c5")
        assert pc.get_attribute("[data-action=report]", "aria-pressed") == "false"
        assert "spectator" in pa.inner_text("[data-testid=moves]")
        assert violations(pc) == []
        pc.screenshot(path=str(screenshots / "sumodoku-spectator-report.png"), full_page=True)

        game = api_get(server_url, f"/api/games/{gid}", second)
        assert game["moves"][-1] == {**game["moves"][-1], "move": "report r1c5", "seat": None}
        assert game["view"]["to_move"] == 1  # nobody's turn was used

        # A refused report is explained and changes nothing.
        pc.click("[data-action=report]")
        c.cell("r9c9").click()
        pc.wait_for_function(
            "() => /no piece there broke a rule/"
            ".test(document.querySelector('[data-testid=explain]').textContent)"
        )
        assert api_get(server_url, f"/api/games/{gid}")["state"] == game["state"]
        for p in (pa, pc):
            assert not p.js_errors, p.js_errors
    finally:
        for p in (pa, pc):
            p.context.close()


def test_no_report_control_without_the_honour_variant(page: Any, server_url: str) -> None:
    created = api_post(server_url, "/api/games", {"game": "sumodoku", "take": [0, 1]})
    page.goto(f"{server_url}/#/watch/{created['id']}")
    page.wait_for_selector("[data-testid=status] span")
    page.wait_for_selector(".sd-side")
    assert page.locator("[data-action=report]").is_hidden()
