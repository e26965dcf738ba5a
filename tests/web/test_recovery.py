"""Recovery in the browser at 390 px, by keyboard, against ``sansu serve --smtp`` and a
local SMTP server: sign up, set an address and follow the verification link from the
mail, log out, "Forgot password?", follow the reset link from the mail, set a new
password, log in with it (the old one refused); then download the data and delete the
account through its confirm dialog. axe finds nothing on any of these pages, and the
server's debug log holds no token."""

from __future__ import annotations

import json
import shutil
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.mailbox import Mailbox, running_mailbox
from tests.web.conftest import serving
from tests.web.helpers import TURN_TIMEOUT_MS
from tests.web.test_account import PHONE, fits, type_into

PASSWORD = "a long enough password"
NEW_PASSWORD = "a new long password 42"


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Mailbox, Path]]:
    """``sansu serve`` sending mail to a local SMTP server; its URL, mailbox and log."""
    db = tmp_path_factory.mktemp("recovery-db") / "games.db"
    sansu = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"
    with (
        running_mailbox() as box,
        serving(sansu, db, wait=900, extra=("--smtp", box.url, "--log-level", "debug")) as url,
    ):
        yield url, box, db.with_suffix(".log")


def submit(page: Any, form: str) -> None:
    """Sends a form by keyboard: Enter in its last text field."""
    page.focus(f"form[aria-labelledby={form}-h] input:last-of-type")
    page.keyboard.press("Enter")


def test_the_reset_flow_with_the_mailed_links(browser: Any, mail_server) -> None:
    url, box, log = mail_server
    context = browser.new_context(viewport=PHONE, accept_downloads=True)
    context.set_default_timeout(TURN_TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = f"u{uuid.uuid4().hex[:10]}"
    address = f"{name}@example.org"
    try:
        page.goto(f"{url}/#/account")
        page.wait_for_selector("#signup-name")
        assert page.is_visible("[data-testid=forgot]")
        type_into(page, "#signup-name", name)
        type_into(page, "#signup-password", PASSWORD)
        page.keyboard.press("Enter")
        page.wait_for_selector("#email-new")
        fits(page)

        type_into(page, "#email-new", address)
        type_into(page, "#email-password", PASSWORD)
        page.keyboard.press("Enter")
        pending = page.wait_for_selector("[data-testid=email-pending]")
        assert pending.text_content() == address
        mails = len(box.mails)
        verify = box.link(mails, "verify")
        assert verify.startswith(f"{url}/#/verify/")
        page.goto(verify)
        done = page.wait_for_selector("[data-testid=recovery-done]")
        assert address in done.text_content()
        assert "verify/" not in page.url  # the token left the address bar
        fits(page)
        page.goto(f"{url}/#/account")
        assert page.wait_for_selector("[data-testid=email]").text_content() == address

        page.focus("form[aria-labelledby=logout-h] button")
        page.keyboard.press("Enter")
        page.wait_for_selector("#login-name")
        page.focus("[data-testid=forgot]")
        page.keyboard.press("Enter")
        page.wait_for_selector("#forgot-who")
        fits(page)
        type_into(page, "#forgot-who", name)
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-testid=recovery-done]")
        reset = box.link(mails + 1, "reset")
        assert box.wait(mails + 1)["To"] == address
        page.goto(reset)
        page.wait_for_selector("#reset-password")
        assert "reset/" not in page.url
        fits(page)
        type_into(page, "#reset-password", NEW_PASSWORD)
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-testid=recovery-done]")

        page.goto(f"{url}/#/account")
        page.wait_for_selector("#login-name")
        type_into(page, "#login-name", name)
        type_into(page, "#login-password", PASSWORD)
        page.keyboard.press("Enter")
        alert = page.wait_for_selector("form[aria-labelledby=login-h] [role=alert]")
        assert "wrong user name or password" in alert.text_content()
        page.fill("#login-password", "")
        type_into(page, "#login-password", NEW_PASSWORD)
        page.keyboard.press("Enter")
        assert page.wait_for_selector("[data-testid=account-name]").text_content() == name

        with page.expect_download() as download:
            page.focus("[data-testid=export]")
            page.keyboard.press("Enter")
        data = json.loads(Path(download.value.path()).read_text())
        assert data["profile"]["name"] == name and data["profile"]["email"] == address
        assert "browser_settings" in data

        type_into(page, "#delete-password", NEW_PASSWORD)
        page.keyboard.press("Enter")
        dialog = page.wait_for_selector("[data-testid=delete-dialog]")
        fits(page)
        page.keyboard.press("Escape")  # keep it
        dialog.wait_for_element_state("hidden")
        assert page.text_content("[data-testid=account-name]") == name
        page.focus("#delete-password")
        page.keyboard.press("Enter")
        page.click("[data-testid=delete-dialog] [data-answer=yes]")
        notice = page.wait_for_selector("p.notice[role=status]:has-text('deleted user')")
        assert notice.text_content().endswith(f"name deleted user {data['profile']['id']}.")
        page.wait_for_selector("#login-name")
    finally:
        context.close()
    assert not errors, errors
    logged = log.read_text(errors="replace")
    for link in (verify, reset):
        assert link.rsplit("/", 1)[1] not in logged
    assert PASSWORD not in logged and NEW_PASSWORD not in logged
