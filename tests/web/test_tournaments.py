"""Tournament pages in a browser at 390 px: create a Swiss, two players join from their own
browsers, it starts and each page goes to its player's game, one opens her game again from
the tournament page and resigns it there, and
both pages show the new standings and the podium; axe finds nothing on the list or the
tournament page."""

from __future__ import annotations

import uuid
from typing import Any

from tests.web.helpers import TURN_TIMEOUT_MS
from tests.web.test_account import PHONE, fits

PASSWORD = "a long enough password"


def signed_in(browser: Any, server_url: str) -> tuple[Any, Any, str]:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    name = f"t{uuid.uuid4().hex[:8]}"
    page.goto(f"{server_url}/#/account")
    page.wait_for_selector("#signup-name")
    status = page.evaluate(
        """([name, password]) => fetch('/api/account/signup', {method: 'POST',
            headers: {'Content-Type': 'application/json'},
            body: JSON.stringify({name, password})}).then(r => r.status)""",
        [name, PASSWORD],
    )
    assert status == 201
    return context, page, name


def press(page: Any, selector: str) -> None:
    page.focus(selector)
    page.keyboard.press("Enter")


def test_create_join_play_standings(browser: Any, server_url: str) -> None:
    alice_ctx, alice, alice_name = signed_in(browser, server_url)
    bob_ctx, bob, bob_name = signed_in(browser, server_url)
    errors: list[str] = []
    for page in (alice, bob):
        page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        alice.goto(f"{server_url}/#/tournaments")
        alice.wait_for_selector("[data-testid=create-tournament]")
        fits(alice)
        alice.focus("#t-name")
        alice.keyboard.type("Night Swiss")
        alice.select_option("#t-format", "swiss")
        alice.fill("#t-rounds", "1")
        press(alice, "[data-testid=create-tournament] button[type=submit]")
        alice.wait_for_url("**/#/tournament/*")
        tid = alice.url.rsplit("/", 1)[1]
        alice.wait_for_selector("text=Join")
        press(alice, "button:has-text('Join')")
        alice.wait_for_selector(f"[data-player='{alice_name}']")
        fits(alice)

        bob.goto(f"{server_url}/#/tournament/{tid}")
        press(bob, "button:has-text('Join')")
        bob.wait_for_selector(f"[data-player='{bob_name}']")
        alice.wait_for_selector(f"[data-player='{bob_name}']")  # Alice's page follows
        press(alice, "button:has-text('Start now')")
        # Each page takes its player to their game of the new round by itself.
        for page in (alice, bob):
            page.wait_for_url("**/#/play/*")
            page.wait_for_selector(".board-host[data-ply]")
        game_id = alice.url.rsplit("/", 1)[1]
        assert bob.url.rsplit("/", 1)[1] == game_id
        # Back on the tournament page she stays there, and opens her game by its button.
        alice.goto(f"{server_url}/#/tournament/{tid}")
        alice.wait_for_selector("[data-testid=pairings] button:has-text('Play your game')")
        assert "1 rounds" in alice.inner_text("main") and "object" not in alice.inner_text("main")
        assert alice.locator(".game-page").count() == 0  # the game page left with its route
        fits(alice)
        press(alice, "button:has-text('Play your game')")
        alice.wait_for_url(f"**/#/play/{game_id}")
        alice.wait_for_selector("[data-testid=status]")
        assert alice.evaluate(
            "(gid) => Object.keys(JSON.parse(localStorage.getItem('sansu.seats') || '{}'))"
            ".includes(gid)",
            game_id,
        )
        # Alice plays her game in the game page: she resigns it there, by keyboard.
        alice.on("dialog", lambda dialog: dialog.accept())
        press(alice, "[data-action=resign]")
        alice.wait_for_selector("[data-testid=status]:has-text('resign')", timeout=TURN_TIMEOUT_MS)
        # Bob's game page says the tournament is over, and links to it.
        bob.click("[data-testid=tournament-next] a:has-text('Night Swiss')")
        alice.goto(f"{server_url}/#/tournament/{tid}")
        for page in (alice, bob):
            page.wait_for_selector("[data-testid=podium]", timeout=TURN_TIMEOUT_MS)
            score = page.text_content(f"[data-player='{bob_name}'] [data-testid=score]")
            assert score == "1"
            assert page.text_content(f"[data-player='{alice_name}'] [data-testid=score]") == "0"
        fits(alice)
        alice.goto(f"{server_url}/#/tournaments")
        alice.wait_for_selector(f"[data-testid=tournaments-finished] [data-tournament='{tid}']")
        fits(alice)
    finally:
        alice_ctx.close()
        bob_ctx.close()
    assert not errors, errors
