"""Told when it is your move: the tab's title and icon, sounds on by default, and
browser notifications (opt-in) while the tab is hidden."""

from __future__ import annotations

import re
from typing import Any

from tests.web.helpers import Player

FAKE_NOTIFICATIONS = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, options.body]); }
  close() {}
  static permission = 'granted';
  static requestPermission() { return Promise.resolve('granted'); }
};
"""


def test_the_title_and_icon_say_when_it_is_your_move(browser: Any, server_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(FAKE_NOTIFICATIONS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server_url}/#/")
        page.wait_for_selector("html[data-ready]")
        # Sounds are on by default; notifications wait for the player's yes.
        assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
        assert page.get_attribute("#notify-toggle", "aria-pressed") == "false"
        page.click("#notify-toggle")
        page.wait_for_selector("#notify-toggle[aria-pressed=true]")
        assert not page.title().startswith("(")

        player = Player(page, server_url)
        player.start("uttt")
        page.wait_for_function("() => document.title.startsWith('(1) Your move · ')")
        assert page.title() == "(1) Your move · Ultimate Tic-Tac-Toe — sansu"
        assert page.get_attribute("link[rel=icon]", "href") == "favicon-move.svg"
        # The tab goes to the background; the computer's reply brings the turn back.
        page.evaluate("Object.defineProperty(document, 'hidden', {get: () => true})")
        player.play("r5c5")
        player.wait_ply(2)
        page.wait_for_function("() => window.__notes.length === 1")
        title, body = page.evaluate("window.__notes[0]")
        assert title == "Your move" and body.startswith("Ultimate Tic-Tac-Toe: ")
        assert page.title().startswith("(1) Your move · ")
        # Over: nothing waits any more.
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("[data-action=resign]")
        page.wait_for_selector("[data-testid=status].over")
        page.wait_for_function("() => !document.title.startsWith('(')")
        assert page.get_attribute("link[rel=icon]", "href") == "favicon.svg"
        assert page.evaluate("window.__notes.length") == 1
        assert not errors, errors
    finally:
        context.close()


def test_a_page_left_forgets_its_game_and_friends_on_one_screen_are_not_told(
    browser: Any, server_url: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        player = Player(page, server_url)
        player.start("uttt")
        page.wait_for_function("() => document.title.startsWith('(1) Your move · ')")
        page.goto(f"{server_url}/#/lobby")
        page.wait_for_function("() => document.title === 'Lobby — sansu'")
        assert page.get_attribute("link[rel=icon]", "href") == "favicon.svg"
        player.start("uttt", mode="local")
        page.wait_for_selector("[data-testid=status] span")
        assert re.fullmatch(r"Ultimate Tic-Tac-Toe — sansu", page.title())
    finally:
        context.close()


def test_the_playing_strip_leads_a_signed_in_player_to_the_game_that_waits(
    browser: Any, server_url: str
) -> None:
    from tests.web.test_ratings import new_page, rated_between

    pa = new_page(browser, {"width": 1280, "height": 800})
    pb = new_page(browser, {"width": 390, "height": 844})
    try:
        _alice, _bob, game_id = rated_between(pa, pb, server_url)
        chip = f"[data-testid=playing-strip] a[data-game-id='{game_id}']"
        pb.goto(f"{server_url}/#/lobby")
        pb.wait_for_selector(chip)
        assert pb.inner_text(chip).endswith("· waiting")
        assert not pb.title().startswith("(")
        pa.goto(f"{server_url}/#/watch")
        pa.wait_for_selector(f"{chip}.your-turn")
        pa.wait_for_function("() => document.title.startsWith('(1) Your move · ')")
        # At the top of the page on a phone: above everything the page shows.
        pb.goto(f"{server_url}/#/")
        pb.wait_for_selector("[data-testid=playing-strip]:not([hidden])")
        top = pb.locator("[data-testid=playing-strip]").bounding_box()["y"]
        assert top < pb.locator("#main").bounding_box()["y"]
        pa.click(chip)
        pa.wait_for_url(re.compile(rf"#/play/{game_id}$"))
        Player(pa, server_url).play("r5c5")
        pb.goto(f"{server_url}/#/watch")
        pb.wait_for_selector(f"{chip}.your-turn")
        pb.wait_for_function("() => document.title.startsWith('(1) Your move · ')")
        assert not pa.js_errors and not pb.js_errors
    finally:
        pa.context.close()
        pb.context.close()


def test_a_person_challenges_another_by_name_from_their_profile(
    browser: Any, server_url: str
) -> None:
    import uuid

    from tests.web.test_ratings import new_page, sign_up

    pa = new_page(browser, {"width": 1280, "height": 800})
    pb = new_page(browser, {"width": 390, "height": 844})
    try:
        alice, bob = f"a{uuid.uuid4().hex[:8]}", f"b{uuid.uuid4().hex[:8]}"
        sign_up(pa, server_url, alice)
        sign_up(pb, server_url, bob)
        for answer in ("decline", "accept"):
            pa.goto(f"{server_url}/#/@/{bob}")
            pa.wait_for_selector("#challenge-game")
            pa.select_option("#challenge-game", "uttt")
            pa.fill("#challenge-minutes", "0")
            pa.select_option("#challenge-seat", "0")
            pa.click("form[aria-labelledby=challenge-h] button[type=submit]")
            pa.wait_for_selector("[data-action=cancel-challenge]")
            pb.goto(f"{server_url}/#/watch")  # any page: the strip shows the challenge
            offer = pb.locator("[data-testid=playing-strip] .challenge")
            offer.wait_for()
            assert offer.inner_text().startswith(f"{alice} challenges you: Ultimate Tic-Tac-Toe")
            pb.click(f"[data-testid=playing-strip] [data-action={answer}-challenge]")
            if answer == "decline":
                pa.wait_for_selector("[data-testid=challenge-status]:has-text('declined')")
                pb.wait_for_selector("[data-testid=playing-strip] .challenge", state="detached")
        pb.wait_for_url(re.compile(r"#/play/\w+$"))
        pa.wait_for_url(re.compile(r"#/play/\w+$"))
        assert pa.url.rsplit("/", 1)[1] == pb.url.rsplit("/", 1)[1]
        Player(pa, server_url).play("r5c5")
        Player(pb, server_url).wait_ply(1)
        # One's own profile offers no challenge, and a bot's sends to the bot's page.
        pa.goto(f"{server_url}/#/@/{alice}")
        pa.wait_for_selector(".profile-name")
        assert pa.locator("#challenge-game").count() == 0
        assert not pa.js_errors and not pb.js_errors
    finally:
        pa.context.close()
        pb.context.close()
