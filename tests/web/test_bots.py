"""A person challenges a bot (a ``sansu bot`` process at a built-in level) from the
lobby, through the bot's profile, and plays it to the end in the browser."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from tests.server.test_bots_e2e import bot_account
from tests.web.accessibility import violations
from tests.web.helpers import Player


def test_a_person_challenges_a_bot_from_the_lobby_and_plays(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    name = f"bot{uuid.uuid4().hex[:8]}"
    bot_account(server_url, name, tmp_path / "token")
    process = subprocess.Popen(
        [sys.executable, "-m", "sansu", "bot", "--server", server_url,
         "--token-file", str(tmp_path / "token"), "--level", "beginner", "--quit-after", "1"],
        stdout=subprocess.DEVNULL, stderr=open(tmp_path / "bot.log", "wb"),  # noqa: SIM115
    )  # fmt: skip
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        end = time.monotonic() + 60
        while not any(
            b["name"] == name and b["online"]
            for b in httpx.get(f"{server_url}/api/bots").json()["bots"]
        ):
            assert time.monotonic() < end, (tmp_path / "bot.log").read_text()
            time.sleep(0.2)
        page.goto(f"{server_url}/#/account")
        page.fill("#signup-name", f"p{uuid.uuid4().hex[:8]}")
        page.fill("#signup-password", "a long enough password")
        page.click("form[aria-labelledby=signup-h] button[type=submit]")
        page.wait_for_selector("[data-testid=account-name]")

        page.goto(f"{server_url}/#/watch")
        page.click("a[href='#/bots']")
        page.wait_for_selector("[data-testid=bot-list]")
        assert "BOT" in page.inner_text(f"li:has(a[data-bot={name}])")
        assert not violations(page)
        page.click(f"a[data-bot={name}]")
        page.wait_for_selector("#challenge-game")
        assert page.inner_text("[data-testid=bot-name]") == name
        page.select_option("#challenge-game", "uttt")
        page.fill("#challenge-minutes", "0")
        page.select_option("#challenge-seat", "0")
        assert not violations(page)
        page.click("form[aria-labelledby=challenge-h] button[type=submit]")
        page.wait_for_url(re.compile(r"#/play/\w+"), timeout=30_000)
        me = Player(page, server_url)
        page.wait_for_selector("[data-testid=status] span")
        assert f"{name} (BOT)" in page.inner_text("body")
        while me.wait_turn_or_end(timeout=30_000, mine=True):
            me.play(me.game()["view"]["legal_moves"][0])
        game = me.game()
        assert game["status"] == "finished" and game["ply"] >= 17
        assert [s["bot"] for s in game["seats"]] == [False, True]
        assert process.wait(timeout=60) == 0
        assert not errors, errors
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        context.close()


def test_a_bot_account_makes_and_revokes_its_tokens_on_its_page(
    browser: Any, server_url: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server_url)
    page = context.new_page()
    try:
        page.goto(f"{server_url}/#/account")
        page.fill("#signup-name", f"b{uuid.uuid4().hex[:8]}")
        page.fill("#signup-password", "a long enough password")
        page.check("#signup-bot")
        page.click("form[aria-labelledby=signup-h] button[type=submit]")
        page.wait_for_selector("#token-label")
        assert "BOT" in page.inner_text("p:has([data-testid=account-name])")
        page.fill("#token-label", "laptop")
        page.click("form[aria-labelledby=tokens-h] button[type=submit]")
        token = page.wait_for_selector("[data-testid=new-token]").inner_text()
        assert token.startswith("sansu_bot_")
        page.click("[data-action=copy-token]")
        page.wait_for_selector("[data-testid=copy-note]:has-text('Copied.')")
        assert page.evaluate("navigator.clipboard.readText()") == token
        auth = {"Authorization": f"Bearer {token}"}
        assert httpx.get(f"{server_url}/api/bot/account", headers=auth).status_code == 200
        assert not violations(page)
        page.reload()
        page.wait_for_selector("[data-revoke]")
        assert token not in page.content()  # shown once only
        page.click("[data-revoke]")
        page.wait_for_selector("text=revoked")
        assert httpx.get(f"{server_url}/api/bot/account", headers=auth).status_code == 401
    finally:
        context.close()


def test_an_offline_bot_offers_no_challenge_and_a_waiting_challenge_can_be_cancelled(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    name = f"bot{uuid.uuid4().hex[:8]}"
    bot_account(server_url, name, tmp_path / "token")
    auth = {"Authorization": f"Bearer {(tmp_path / 'token').read_text().strip()}"}
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    try:
        page.goto(f"{server_url}/#/account")
        page.fill("#signup-name", f"p{uuid.uuid4().hex[:8]}")
        page.fill("#signup-password", "a long enough password")
        page.click("form[aria-labelledby=signup-h] button[type=submit]")
        page.wait_for_selector("[data-testid=account-name]")
        page.goto(f"{server_url}/#/bot/{name}")
        page.wait_for_selector("[data-testid=bot-offline]")
        assert page.locator("#challenge-game").count() == 0
        # Online (its event stream open) but not answering: the challenge waits, and
        # the challenger may take it back.
        with httpx.stream("GET", f"{server_url}/api/bot/stream/events", headers=auth) as stream:
            assert stream.status_code == 200
            end = time.monotonic() + 30
            while not any(
                b["name"] == name and b["online"]
                for b in httpx.get(f"{server_url}/api/bots").json()["bots"]
            ):
                assert time.monotonic() < end
                time.sleep(0.1)
            page.reload()
            page.wait_for_selector("#challenge-game")
            page.click("form[aria-labelledby=challenge-h] button[type=submit]")
            page.click("[data-action=cancel-challenge]")
            status = "[data-testid=challenge-status]"
            page.wait_for_selector(f"{status}:has-text('Challenge cancelled.')")
            mine = httpx.get(f"{server_url}/api/challenges", headers=auth).json()["challenges"]
            assert mine == []
            assert not violations(page)
    finally:
        context.close()
