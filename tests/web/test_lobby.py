"""The lobby in two browsers: a challenge posted in one, accepted in the other, both in
the game; quick pairing; a signed-in player continues a game from another browser;
the lobby at 390 px, by keyboard, with nothing for axe to find."""

from __future__ import annotations

import re
import urllib.error
import uuid
from typing import Any

import pytest

from tests.web.helpers import Player, api_get
from tests.web.test_account import PHONE, fits, type_into

PASSWORD = "a long enough password"


def new_page(browser: Any, viewport: dict[str, int] | None = None) -> Any:
    context = browser.new_context(viewport=viewport or {"width": 1200, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    return page


def sign_up(page: Any, base: str) -> str:
    name = f"u{uuid.uuid4().hex[:10]}"
    page.goto(f"{base}/#/account")
    page.wait_for_selector("#signup-name")
    type_into(page, "#signup-name", name)
    type_into(page, "#signup-password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=account-name]")
    return name


def open_lobby(page: Any, base: str) -> None:
    page.goto(f"{base}/#/lobby")
    page.wait_for_selector("[data-testid=seeks] p, [data-testid=seeks] ul")


def test_a_challenge_posted_in_one_browser_is_accepted_in_another(
    browser: Any, server_url: str, screenshots: Any
) -> None:
    pa, pb = new_page(browser, PHONE), new_page(browser)
    try:
        open_lobby(pa, server_url)
        fits(pa)
        # By keyboard: choose the game and post.
        pa.focus("#seek-game")
        pa.select_option("#seek-game", "sansumoku")
        pa.focus("[data-action=post-seek]")
        pa.keyboard.press("Enter")
        pa.wait_for_selector("[data-action=cancel-seek]")
        seek = pa.get_attribute("[data-testid=seeks] li[data-seek]", "data-seek")
        fits(pa)
        pa.screenshot(path=str(screenshots / "lobby-390.png"), full_page=True)

        open_lobby(pb, server_url)
        pb.wait_for_selector(f"li[data-seek='{seek}'] [data-action=accept]")
        pb.click(f"li[data-seek='{seek}'] [data-action=accept]")
        pb.wait_for_url(re.compile(r"#/play/\w+$"))
        pa.wait_for_url(re.compile(r"#/play/\w+$"), timeout=15_000)
        a, b = Player(pa, server_url), Player(pb, server_url)
        assert a.game_id == b.game_id
        seats = sorted([*a.game()["you"], *b.game()["you"]])
        assert seats == [0, 1]
        assert not pa.js_errors and not pb.js_errors
    finally:
        pa.context.close()
        pb.context.close()


def test_quick_pairing_pairs_two_browsers(browser: Any, server_url: str) -> None:
    pa, pb = new_page(browser), new_page(browser)
    try:
        for page in (pa, pb):
            open_lobby(page, server_url)
            page.select_option("#pair-game", "thirtyfive")
        pa.click("[data-action=play-now]")
        status = pa.wait_for_selector("[data-testid=pairing-status] p")
        assert re.search(r"Waiting \d+ s · rating 1500 ± 100", status.text_content())
        pb.click("[data-action=play-now]")
        pb.wait_for_url(re.compile(r"#/play/\w+$"))
        pa.wait_for_url(re.compile(r"#/play/\w+$"), timeout=15_000)
        assert Player(pa, server_url).game_id == Player(pb, server_url).game_id
    finally:
        pa.context.close()
        pb.context.close()


def test_a_signed_in_player_continues_from_another_browser(browser: Any, server_url: str) -> None:
    pa, pb, friend = new_page(browser), new_page(browser, PHONE), new_page(browser)
    try:
        name = sign_up(pa, server_url)
        a = Player(pa, server_url)
        game_id = a.start("uttt", mode="online")
        link = pa.input_value("[data-testid=invite-link]")
        secret = link.rsplit("/", 1)[1]
        sent: list[str] = []
        friend.on("request", lambda request: sent.append(request.url))
        friend.goto(link)
        friend.click("button[data-seat='1']")
        friend.wait_for_url(re.compile(rf"#/play/{game_id}$"))
        # The join secret went in the join's body, never in a URL a server sees.
        assert sent and not any(secret in url for url in sent), sent
        # The creator turns watching off: a spectator's look is refused.
        pa.click("[data-action=watching]")
        pa.wait_for_selector("[data-action=watching][aria-pressed=false]")
        with pytest.raises(urllib.error.HTTPError) as refused:
            api_get(server_url, f"/api/games/{game_id}")
        assert refused.value.code == 403

        # Another browser, no token in it: log in, find the game in "My games", play.
        pb.goto(f"{server_url}/#/account")
        pb.wait_for_selector("#login-name")
        type_into(pb, "#login-name", name)
        type_into(pb, "#login-password", PASSWORD)
        pb.keyboard.press("Enter")
        pb.wait_for_selector("[data-testid=account-name]")
        open_lobby(pb, server_url)
        pb.wait_for_selector(f"[data-testid=my-games] li[data-game-id='{game_id}']")
        fits(pb)
        pb.click(f"[data-testid=my-games] li[data-game-id='{game_id}'] a")
        pb.wait_for_url(re.compile(rf"#/play/{game_id}$"))
        b = Player(pb, server_url)
        assert b.token is None
        assert b.wait_turn_or_end()
        b.play("r5c5")
        assert Player(friend, server_url).wait_turn_or_end()
        assert not pb.js_errors
    finally:
        for page in (pa, pb, friend):
            page.context.close()
