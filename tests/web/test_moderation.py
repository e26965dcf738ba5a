"""Moderation in three browsers: a player reports another's chat message and profile; a
moderator (granted with ``sansu admin grant``) works through the queue at phone width,
removes the message (the other player no longer sees it), closes the account by
keyboard, confirmed (its next request is refused) and finds both actions in the audit log."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.accessibility import violations
from tests.web.conftest import serving
from tests.web.helpers import TURN_TIMEOUT_MS, Player
from tests.web.test_chat import LOG, chat, shows
from tests.web.test_online import new_page

PASSWORD = "a long enough password"
SANSU = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"


@pytest.fixture(scope="module")
def mod_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A server of this module's own, and its database (the operator grants a role in it)."""
    db = tmp_path_factory.mktemp("mod-db") / "games.db"
    with serving(SANSU, db, wait=240) as url:
        yield url, db


def sign_up(page: Any, base: str, name: str) -> None:
    r = page.context.request.post(
        f"{base}/api/account/signup", data={"name": name, "password": PASSWORD}
    )
    assert r.status == 201, r.text()


def grant_moderator(db: Path, name: str) -> None:
    """The operator's ``sansu admin grant NAME moderator`` on the running server's database."""
    granted = subprocess.run(
        [SANSU, "admin", "grant", name, "moderator", "--db", f"sqlite:///{db}"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert granted.returncode == 0, granted.stderr


def test_a_report_reaches_a_moderator_who_removes_the_message_and_closes_the_account(
    browser: Any, mod_server: tuple[str, Path], screenshots: Path
) -> None:
    base, db = mod_server
    rude, ann, mod = new_page(browser), new_page(browser), new_page(browser)
    try:
        for page, name in ((rude, "Rude"), (ann, "Ann"), (mod, "Moddy")):
            sign_up(page, base, name)
        grant_moderator(db, "Moddy")

        # Rude and Ann play; Rude is rude in the players' room.
        game_id = Player(rude, base).start("uttt", mode="online")
        ann.goto(rude.input_value("[data-testid=invite-link]"))
        ann.click("button[data-seat='1']")
        ann.wait_for_url(re.compile(rf"#/play/{game_id}$"), timeout=TURN_TIMEOUT_MS)
        chat(rude, "you are dreadful")
        shows(ann, "you are dreadful")

        # Ann reports the message, then the account from its profile.
        message = f"{LOG} li:has(.chat-text:text-is('you are dreadful'))"
        ann.click(f"{message} summary")
        ann.click(f"{message} [data-report=insult]")
        ann.wait_for_selector("[data-testid=chat-note]:has-text('Reported')")
        profile = new_page(browser, storage_state=ann.context.storage_state())
        profile.goto(f"{base}/#/@/Rude")
        profile.click("[data-testid=report-account]")
        dialog = profile.locator("[data-testid=report-dialog]")
        dialog.locator("#report-category").select_option("abuse")
        dialog.locator("#report-text").fill("insults in the chat of our game")
        assert violations(profile) == []
        dialog.locator("[data-answer=yes]").click()
        profile.wait_for_selector(".report-status:has-text('Reported Rude')")
        profile.close()

        # The moderator's link is in the top bar; the page works at phone width.
        mod.set_viewport_size({"width": 390, "height": 844})
        mod.goto(f"{base}/#/")
        mod.click("[data-nav=mod]")
        queue = mod.locator("[data-testid=mod-reports]")
        queue.locator("[data-report]").nth(1).wait_for()
        assert queue.locator("[data-report]").count() == 2
        account_report = queue.locator("[data-report]").nth(0)
        message_report = queue.locator("[data-report]").nth(1)
        assert "insults in the chat of our game" in account_report.inner_text()
        assert "you are dreadful" in message_report.locator(".mod-context").inner_text()
        wide = mod.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= 390, wide
        assert violations(mod) == []
        mod.screenshot(path=str(screenshots / "mod-queue-390.png"), full_page=True)

        # The message goes: Ann's chat drops it at once.
        message_report.locator("input[name=reason]").fill("an insult")
        message_report.locator("[data-action=remove]").click()
        ann.wait_for_function(
            """sel => ![...document.querySelectorAll(sel + ' .chat-text')]
                .some((e) => e.textContent === 'you are dreadful')""",
            arg=LOG,
            polling=100,
            timeout=TURN_TIMEOUT_MS,
        )
        mod.wait_for_selector("[data-testid=mod-audit] li[data-action=remove_message]")

        # The account is closed by keyboard: a reason typed, Enter.
        account_report.locator("[data-action=look]").click()
        card = mod.locator("[data-testid=mod-account] [data-account=Rude]")
        card.wait_for()
        card.locator("input[name=reason]").focus()
        mod.keyboard.type("insults players")
        mod.keyboard.press("Enter")
        confirm = mod.locator("[data-testid=mod-confirm]")
        confirm.wait_for()
        assert violations(mod) == []
        # The safe answer has the focus; the closing is one Tab away.
        assert mod.evaluate("() => document.activeElement.dataset.answer") == "no"
        mod.keyboard.press("Tab")
        mod.keyboard.press("Enter")
        mod.wait_for_selector("[data-testid=mod-account-status]:text-is('closed')")
        mod.wait_for_selector("[data-testid=mod-audit] li[data-action=close]")
        closing = mod.locator("[data-testid=mod-audit] li[data-action=close]").inner_text()
        assert "Moddy" in closing and "Rude" in closing and "insults players" in closing

        # Rude's very next requests: signed out, a write refused, the game resigned.
        me = rude.context.request.get(f"{base}/api/account").json()
        assert me["user"] is None
        wrote = rude.context.request.post(
            f"{base}/api/users/Ann/report", data={"category": "spam", "text": ""}
        )
        assert wrote.status == 401
        game = ann.context.request.get(f"{base}/api/games/{game_id}").json()
        assert game["status"] == "finished" or game["status"] == "aborted"

        # The report is closed with a resolution and leaves the open queue.
        account_report.locator("input[name=reason]").fill("account closed")
        account_report.locator("[data-action=close_report]").click()
        mod.wait_for_selector("[data-testid=mod-audit] li[data-action=close_report]")
        mod.wait_for_function(  # the queue and the log are drawn each in its own time
            "() => document.querySelectorAll('[data-testid=mod-reports] [data-report]').length"
            " === 1",
            polling=100,
            timeout=TURN_TIMEOUT_MS,
        )
        assert violations(mod) == []
        mod.screenshot(path=str(screenshots / "mod-audit-390.png"), full_page=True)
        for page in (rude, ann, mod):
            assert page.js_errors == []
    finally:
        for page in (rude, ann, mod):
            page.context.close()


def test_a_renamed_player_chooses_a_name_once_on_the_account_page(
    browser: Any, mod_server: tuple[str, Path]
) -> None:
    base, db = mod_server
    player, mod = new_page(browser), new_page(browser)
    try:
        sign_up(player, base, "Offensive")
        sign_up(mod, base, "Keeper")
        grant_moderator(db, "Keeper")
        mod.goto(f"{base}/#/mod")
        mod.fill("#mod-name", "Offensive")
        mod.press("#mod-name", "Enter")
        card = mod.locator("[data-testid=mod-account] [data-account=Offensive]")
        card.locator("input[name=reason]").fill("an offensive name")
        card.locator("[data-action=rename]").click()
        mod.wait_for_selector("[data-testid=mod-audit] li[data-action=rename]")
        # the account's card is drawn again with its new name: wait for it, not the old one
        mod.wait_for_selector("[data-testid=mod-account] [data-account^='player-']")
        renamed = mod.locator("[data-testid=mod-account] [data-account]").get_attribute(
            "data-account"
        )
        assert renamed is not None and renamed.startswith("player-")

        player.goto(f"{base}/#/account")
        player.fill("#rename-name", "Friendly")
        assert violations(player) == []
        player.click("form[aria-labelledby=rename-h] button[type=submit]")
        player.wait_for_selector("[data-testid=account-name]:text-is('Friendly')")
        assert player.locator("#rename-name").count() == 0  # once only
        assert player.js_errors == [] and mod.js_errors == []
    finally:
        for page in (player, mod):
            page.context.close()
