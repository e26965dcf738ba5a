"""Two browsers sign up, play a rated game by link, and see the rating change at its end;
the profile then shows the new rating, its chart and the game; the leaderboard and the
profile are readable at 390 px and axe finds nothing on them."""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

from tests.web.helpers import Player
from tests.web.test_account import fits

PASSWORD = "a long enough password"
PHONE = {"width": 390, "height": 844}


def new_page(browser: Any, viewport: dict[str, int]) -> Any:
    page = browser.new_context(viewport=viewport).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/#/account")
    page.wait_for_selector("#signup-name")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.press("#signup-password", "Enter")
    page.wait_for_selector("[data-testid=account-name]")


def rated_between(pa: Any, pb: Any, base: str) -> tuple[str, str, str]:
    """Two new accounts in ``pa`` and ``pb``; ``pa`` starts a rated game of Ultimate
    Tic-Tac-Toe and ``pb`` joins it by its link. Their names and the game's id."""
    alice, bob = f"a{uuid.uuid4().hex[:8]}", f"b{uuid.uuid4().hex[:8]}"
    sign_up(pa, base, alice)
    sign_up(pb, base, bob)
    pa.goto(f"{base}/#/game/uttt")
    pa.wait_for_selector("form.play-form")
    level = pa.inner_text("#level option[value=medium]")
    assert re.fullmatch(r"medium \(rated \d+\)", level), level
    pa.check("input[name=mode][value=online]")
    pa.check("[data-testid=rated]")
    pa.click("[data-action=start]")
    pa.wait_for_url(re.compile(r"#/play/\w+"))
    game_id = pa.url.rsplit("/", 1)[1]
    pa.wait_for_selector("[data-testid=rating-0]")
    assert pa.inner_text("[data-testid=rating-0]").strip() == "1500?"
    secret = Player(pa, base).invite_secret  # a friend's game is private
    pb.goto(f"{base}/#/join/{game_id}/{secret}")
    note = pb.locator("[data-testid=rated-note]")
    said = note.inner_text()
    assert said == f"A rated game: you play it as {bob}, and it counts for your rating."
    pb.click("button[data-seat='1']")
    pb.wait_for_url(re.compile(rf"#/play/{game_id}$"))
    pb.wait_for_selector("[data-testid=rating-1]")
    return alice, bob, game_id


def test_rated_game_then_profile(browser: Any, server_url: str, screenshots: Any) -> None:
    pa = new_page(browser, {"width": 1200, "height": 860})
    pb = new_page(browser, PHONE)
    try:
        alice, _bob, game_id = rated_between(pa, pb, server_url)
        a, b = Player(pa, server_url), Player(pb, server_url)
        a.wait_turn_or_end()
        a.play("r5c5")
        b.wait_ply(1)
        b.play("r4c4")  # each side moved: the game now ends with a result
        pb.wait_for_selector("[data-action=resign]")
        pb.click("[data-action=resign]")
        for page in (pa, pb):
            page.wait_for_selector("[data-testid=status].over")
            page.wait_for_selector("[data-testid=rating-change-0]")
        gain = pa.inner_text("[data-testid=rating-change-0]").strip()
        loss = pa.inner_text("[data-testid=rating-change-1]").strip()
        assert re.fullmatch(r"\+\d+", gain) and re.fullmatch(r"-\d+", loss), (gain, loss)
        assert pb.inner_text("[data-testid=rating-change-1]").strip() == loss
        pb.screenshot(path=str(screenshots / "rated-game-end-390.png"))

        pb.goto(f"{server_url}/#/@/{alice}")
        pb.wait_for_selector("[data-testid=rating-uttt-untimed]")
        shown = pb.inner_text("[data-testid=rating-uttt-untimed] [data-testid=rating-value]")
        assert shown == f"{1500 + int(gain)}?"
        assert pb.locator("[data-testid=rating-uttt-untimed] svg.rating-chart circle").count() == 1
        item = pb.locator(f"li.recent-game[data-game='{game_id}']")
        assert "won" in item.inner_text() and gain in item.inner_text()
        assert item.locator("a").first.get_attribute("href") == f"#/replay/{game_id}"
        fits(pb)
        pb.screenshot(path=str(screenshots / "profile-390.png"), full_page=True)

        pb.goto(f"{server_url}/#/leaderboard/uttt")
        pb.wait_for_selector("text=The computer levels")
        fits(pb)
        assert not pa.js_errors and not pb.js_errors, (pa.js_errors, pb.js_errors)
    finally:
        pa.context.close()
        pb.context.close()


def test_a_rated_game_is_aborted_before_each_side_moved(browser: Any, server_url: str) -> None:
    """Bob clicks Abort while Alice's first move is on its way to him (his game socket's
    news are held back): the abort still stands, as Bob has not moved."""
    pa = new_page(browser, {"width": 1200, "height": 860})
    pb = new_page(browser, PHONE)
    held: list[tuple[Any, Any]] = []  # (Bob's socket, a message to it) while holding
    holding = [False]

    def hold_news(ws: Any) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda m: held.append((ws, m)) if holding[0] else ws.send(m))

    pb.route_web_socket(re.compile(r".*/ws(\?.*)?$"), hold_news)
    try:
        _alice, _bob, _game = rated_between(pa, pb, server_url)
        a = Player(pa, server_url)
        a.wait_turn_or_end()
        pb.wait_for_selector("[data-action=abort]")  # Bob has not moved: abort, not resign
        assert pb.locator("[data-action=resign]").count() == 0
        holding[0] = True
        a.play("r5c5")
        deadline = time.monotonic() + 30
        while not any('"move"' in str(m) for _, m in held):  # the move reached Bob's socket
            assert time.monotonic() < deadline, held
            pb.wait_for_timeout(50)
        pa.wait_for_selector("[data-action=abort]")
        pb.click("[data-action=abort]")
        pa.wait_for_selector("[data-testid=status].over")  # the abort stood
        for ws, m in held:  # Bob's sockets get the news they were held from, in order
            ws.send(m)
        holding[0] = False
        for page in (pa, pb):
            page.wait_for_selector("[data-testid=status].over")
            status = page.inner_text("[data-testid=status]")
            assert "aborted" in status and "not rated" in status, status
            assert page.locator("[data-action=abort], [data-action=resign]").count() == 0
            assert page.locator("[data-testid=rating-change-0]").count() == 0
        assert a.game()["status"] == "aborted"
        assert not pa.js_errors and not pb.js_errors, (pa.js_errors, pb.js_errors)
    finally:
        pa.context.close()
        pb.context.close()


def test_a_reply_the_news_overtook_never_takes_the_page_back(browser: Any, server_url: str) -> None:
    """In a rated game Bob's page asks for the game again when Alice comes and goes (for
    the time a claim may wait). Alice's move reaches his socket while that reply, made
    before the move, is on its way: the page keeps the move, asks again, and Bob plays."""
    pa = new_page(browser, {"width": 1200, "height": 860})
    pb = new_page(browser, {"width": 1200, "height": 860})
    held: list[Any] = []  # Bob's page's requests for the game, held back
    stale: list[Any] | None = None
    try:
        _alice, _bob, game_id = rated_between(pa, pb, server_url)
        a, b = Player(pa, server_url), Player(pb, server_url)
        for seat in (0, 1):
            pb.wait_for_selector(f".seats [data-seat='{seat}'] .presence.on")
        before = b.game()  # what a reply made before Alice's move holds
        assert before["moves"] == []
        game_url = re.compile(rf".*/api/games/{game_id}$")

        def hold(route: Any) -> None:
            if stale is None:
                held.append(route)
            else:
                route.fallback()

        pb.route(game_url, hold)
        pa.reload()  # Alice's seat is away, then back: Bob's page asks for the game
        deadline = time.monotonic() + 30
        while not held:
            assert time.monotonic() < deadline, "Bob's page never asked for the game"
            pb.wait_for_timeout(50)
        a.wait_turn_or_end(mine=True)
        a.play("r5c5")
        b.wait_ply(1)
        stale = list(held)  # from now on Bob's page's requests go through
        with pb.expect_response(
            lambda r: (
                game_url.match(r.url) is not None and r.request not in [s.request for s in stale]
            )
        ):
            for route in stale:
                route.fulfill(json=before)
        b.wait_turn_or_end(mine=True, timeout=10_000)
        assert b.shown_ply() == 1 and b.label("r5c5").startswith("r5c5: X")
        b.play("r4c4")
        a.wait_ply(2)
        assert not pa.js_errors and not pb.js_errors, (pa.js_errors, pb.js_errors)
    finally:
        pa.context.close()
        pb.context.close()


def test_a_signed_out_visitor_logs_in_from_a_rated_join_page_and_comes_back(
    browser: Any, server_url: str
) -> None:
    pa = new_page(browser, {"width": 1200, "height": 860})
    pb = new_page(browser, {"width": 390, "height": 800})
    try:
        sign_up(pb, server_url, bob := f"b{uuid.uuid4().hex[:8]}")
        pb.click("form[aria-labelledby=logout-h] button[type=submit]")
        pb.wait_for_selector("#login-name")
        sign_up(pa, server_url, f"a{uuid.uuid4().hex[:8]}")
        pa.goto(f"{server_url}/#/game/uttt")
        pa.wait_for_selector("form.play-form")
        pa.check("input[name=mode][value=online]")
        pa.check("[data-testid=rated]")
        pa.click("[data-action=start]")
        pa.wait_for_url(re.compile(r"#/play/\w+"))
        game_id = pa.url.rsplit("/", 1)[1]
        secret = Player(pa, server_url).invite_secret
        pb.goto(f"{server_url}/#/join/{game_id}/{secret}")
        note = pb.locator("[data-testid=rated-note]")
        assert "under your account" in note.inner_text()
        note.locator("a", has_text="Log in first").click()
        pb.fill("#login-name", bob)
        pb.fill("#login-password", PASSWORD)
        pb.press("#login-password", "Enter")
        pb.wait_for_url(re.compile(rf"#/join/{game_id}(/\w+)?$"))
        assert "you play it as" in note.inner_text()
        assert not pa.js_errors and not pb.js_errors
    finally:
        pa.context.close()
        pb.context.close()
