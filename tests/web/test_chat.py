"""Chat on the game page: two players and a spectator in three browsers. Hello and a
canned greeting exchanged, the spectators' room kept from the players while they play,
a report, a mute that hides a player's messages in this browser (kept across a reload,
undone by unmute), and both rooms shown to the players once the game is over."""

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
from tests.web.helpers import Player
from tests.web.test_online import new_page

LOG = "[data-testid=chat-log]"


def chat(page: Any, text: str) -> None:
    page.fill("[data-testid=chat-input]", text)
    page.press("[data-testid=chat-input]", "Enter")


def shows(page: Any, text: str) -> None:
    """Waits until the chat's log shows a message of ``text``."""
    page.wait_for_function(
        """([sel, text]) => [...document.querySelectorAll(sel + ' .chat-text')]
            .some((e) => e.textContent === text)""",
        arg=[LOG, text],
        polling=100,  # checked on a timer: a page in the background draws no frames
    )


def texts(page: Any) -> list[str]:
    return page.locator(f"{LOG} .chat-text").all_inner_texts()


@pytest.fixture(scope="module")
def chat_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own, given time to start on a busy machine."""
    db = tmp_path_factory.mktemp("chat-db") / "games.db"
    sansu = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"
    with serving(sansu, db, wait=240) as url:
        yield url


def test_players_and_a_spectator_chat(browser: Any, chat_url: str, screenshots: Path) -> None:
    server_url = chat_url
    pa, pb, pc = new_page(browser), new_page(browser), new_page(browser)
    try:
        game_id = Player(pa, server_url).start("uttt", mode="online")
        pb.goto(pa.input_value("[data-testid=invite-link]"))
        pb.click("button[data-seat='1']")
        pb.wait_for_url(re.compile(rf"#/play/{game_id}$"))
        # The spectator signs up: spectators chat under an account.
        signed = pc.context.request.post(
            f"{server_url}/api/account/signup",
            data={"name": "Watcher", "password": "a long enough password"},
        )
        assert signed.status == 201, signed.text()
        pc.goto(f"{server_url}/#/watch/{game_id}")
        pc.wait_for_selector("[data-testid=chat] h3:has-text('spectators')")
        pa.wait_for_selector("[data-testid=chat] h3:has-text('players')")

        # Hello, typed, with its counter; a canned greeting back.
        pa.fill("[data-testid=chat-input]", "hello")
        pa.dispatch_event("[data-testid=chat-input]", "input")
        assert pa.inner_text("#chat-count") == "5/140"
        pa.press("[data-testid=chat-input]", "Enter")
        shows(pb, "hello")
        assert pa.input_value("[data-testid=chat-input]") == ""
        pb.click("[data-greeting='Good luck']")
        shows(pa, "Good luck")
        # Text only: markup is shown as it was typed.
        chat(pb, "<b>bold?</b>")
        shows(pa, "<b>bold?</b>")
        assert pa.locator(f"{LOG} b").count() == 0

        # The spectators' room: its own, never shown to the players during play.
        chat(pc, "go X!")
        shows(pc, "go X!")
        assert "hello" not in texts(pc)
        chat(pa, "after the gallery")
        shows(pb, "after the gallery")
        assert "go X!" not in texts(pa) + texts(pb)

        # A report: a small menu on someone else's message.
        b_message = f"{LOG} li:has(.chat-text:text-is('Good luck'))"
        # By keyboard too: the menu opens with Enter, and Escape closes it.
        pa.focus(f"{b_message} summary")
        pa.keyboard.press("Enter")
        pa.keyboard.press("Escape")
        assert pa.evaluate("() => document.activeElement.tagName") == "SUMMARY"
        assert pa.get_attribute(f"{b_message} details", "open") is None
        pa.keyboard.press("Enter")
        pa.click(f"{b_message} [data-report=spam]")
        pa.wait_for_selector("[data-testid=chat-note]:has-text('Reported')")
        assert violations(pa) == []
        pa.set_viewport_size({"width": 1280, "height": 900})
        pa.locator("[data-testid=chat]").scroll_into_view_if_needed()
        pa.screenshot(path=str(screenshots / "chat-1280.png"))
        pc.screenshot(path=str(screenshots / "chat-spectator.png"))

        # A mute hides B's messages in A's browser, and stays after a reload.
        pa.click(f"{b_message} summary")
        pa.click(f"{b_message} [data-action=mute]")
        pa.wait_for_selector("[data-testid=chat-muted] summary:has-text('Muted (1)')")
        assert texts(pa) == ["hello", "after the gallery"]
        chat(pb, "are you there?")
        shows(pb, "are you there?")
        pa.reload()
        shows(pa, "after the gallery")
        assert texts(pa) == ["hello", "after the gallery"]
        assert texts(pb) == [
            "hello",
            "Good luck",
            "<b>bold?</b>",
            "after the gallery",
            "are you there?",
        ]
        pa.click("[data-testid=chat-muted] summary")
        pa.click("[data-testid=chat-muted] [data-unmute]")
        shows(pa, "are you there?")
        assert pa.locator("[data-testid=chat-muted]").is_hidden()

        # At 390 px the panel fits: nothing sticks out sideways.
        pa.set_viewport_size({"width": 390, "height": 844})
        pa.locator("[data-testid=chat]").scroll_into_view_if_needed()
        wide = pa.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= 390, wide
        assert violations(pa) == []
        pa.screenshot(path=str(screenshots / "chat-390.png"), full_page=True)
        pa.set_viewport_size({"width": 1280, "height": 900})

        # Once the game is over, the players read the spectators' room too.
        pb.click("[data-action=resign]")
        pa.wait_for_selector("[data-testid=status].over")
        pa.wait_for_selector("[role=tab][data-room=spectators]")  # shown with the end
        # By keyboard: the arrow keys move between the tabs.
        pa.focus("[role=tab][data-room=players]")
        pa.keyboard.press("ArrowRight")
        shows(pa, "go X!")
        assert pa.evaluate("() => document.activeElement.dataset.room") == "spectators"
        assert pa.get_attribute("[role=tab][data-room=spectators]", "aria-selected") == "true"
        assert violations(pa) == [] and violations(pc) == []
        pa.locator("[data-testid=chat]").scroll_into_view_if_needed()
        pa.screenshot(path=str(screenshots / "chat-over-1280.png"))
        for p in (pa, pb, pc):
            assert not p.js_errors, p.js_errors
    finally:
        for p in (pa, pb, pc):
            p.context.close()


def test_no_chat_against_the_computer(page: Any, chat_url: str) -> None:
    Player(page, chat_url).start("uttt")
    page.wait_for_selector("[data-testid=seats] .seat")
    assert page.locator("[data-testid=chat]").count() == 0
