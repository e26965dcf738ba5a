"""Following and who is online, in two browsers: A follows B from B's profile (by
keyboard); B opens a game; A's following page shows B online and playing, with a watch
link that opens B's game; B leaves, and A's page shows B offline; A unfollows B there.
The pages pass axe, on a desk and on a phone."""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.accessibility import violations
from tests.web.conftest import serving
from tests.web.helpers import TURN_TIMEOUT_MS, Player
from tests.web.test_online import new_page

WINDOW = 3
"""Seconds a player counts as online after their last request (a minute on a real site)."""
B_ROW = "[data-testid=following-list] li[data-player=Bee]"


@pytest.fixture(scope="module")
def follow_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own, with a short online window."""
    db = tmp_path_factory.mktemp("following-db") / "games.db"
    sansu = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"
    with serving(sansu, db, wait=600, extra=("--online-window", str(WINDOW))) as url:
        yield url


def sign_up(page: Any, url: str, name: str) -> None:
    signed = page.context.request.post(
        f"{url}/api/account/signup", data={"name": name, "password": "a long enough password"}
    )
    assert signed.status == 201, signed.text()


def on_a_phone(page: Any, picture: Path) -> None:
    """The page at 390 px: nothing wider than the screen, and no axe violation."""
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        assert violations(page) == []
        page.screenshot(path=str(picture), full_page=True)
    finally:
        page.set_viewport_size({"width": 1200, "height": 860})


def test_a_follows_b_and_sees_b_online_playing_then_gone(
    browser: Any, follow_url: str, screenshots: Path
) -> None:
    url = follow_url
    pa, pb = new_page(browser), new_page(browser)
    try:
        sign_up(pa, url, "Ay")
        sign_up(pb, url, "Bee")

        # A follows B from B's profile, by keyboard.
        pa.goto(f"{url}/#/@/Bee")
        button = pa.locator("[data-action=follow]")
        button.wait_for(timeout=TURN_TIMEOUT_MS)
        assert button.get_attribute("aria-pressed") == "false"
        button.focus()
        pa.keyboard.press("Enter")
        pa.wait_for_selector("[data-action=follow][aria-pressed=true]")
        pa.wait_for_selector("[data-testid=follow-counts]:has-text('1 follower')")
        assert violations(pa) == []
        on_a_phone(pa, screenshots / "profile-follow-390.png")

        # B opens a game.
        game_id = Player(pb, url).start("uttt", mode="computer")

        # A's following page: B online and playing, with a link to watch.
        pa.goto(f"{url}/#/following")
        pa.wait_for_selector(
            f"{B_ROW}[data-online=true] [data-testid=watch]", timeout=TURN_TIMEOUT_MS
        )
        assert pa.locator(f"{B_ROW} [data-action=challenge]").is_visible()
        pa.wait_for_selector("[data-testid=online-list] li[data-player=Bee]")
        assert "null" not in pa.inner_text("main")
        assert violations(pa) == []
        on_a_phone(pa, screenshots / "following-390.png")

        # The challenge form opens for B from the list.
        pa.click(f"{B_ROW} [data-action=challenge]")
        pa.wait_for_selector("[data-testid=challenge-area] form h2:has-text('Challenge Bee')")

        # The watch link opens B's game.
        pa.click(f"{B_ROW} [data-testid=watch]")
        pa.wait_for_url(re.compile(rf"#/watch/{game_id}$"))
        pa.wait_for_selector("[data-testid=status] span", timeout=TURN_TIMEOUT_MS)

        # B leaves: A sees B offline once B's window has passed (the page asks again).
        pb.context.close()
        pa.goto(f"{url}/#/following")
        pa.wait_for_selector(f"{B_ROW}[data-online=false]", timeout=TURN_TIMEOUT_MS)
        assert pa.locator(f"{B_ROW} [data-testid=watch]").count() == 0

        # Unfollowed from the list, by keyboard: the list empties, focus stays on the page.
        pa.focus(f"{B_ROW} [data-action=unfollow]")
        pa.keyboard.press("Enter")
        pa.wait_for_selector("[data-testid=following-list]:has-text('You follow nobody yet')")
        assert pa.evaluate("() => document.activeElement.id") == "following-h"

        # The home page counts who is online.
        pa.goto(f"{url}/#/")
        pa.wait_for_selector("[data-testid=online-count]:has-text('online')")
        assert violations(pa) == []
        assert pa.js_errors == []
    finally:
        pa.context.close()
        if not pb.is_closed():
            pb.context.close()
