"""The account page at 390 px, by keyboard: sign up, log out, a wrong password refused,
log in again; the session cookie stays out of the page's reach; axe finds nothing."""

from __future__ import annotations

import uuid
from typing import Any

from tests.web.accessibility import violations

PHONE = {"width": 390, "height": 844}


def fits(page: Any) -> None:
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths
    found = violations(page)
    assert not found, found


def type_into(page: Any, selector: str, text: str) -> None:
    page.focus(selector)
    page.keyboard.type(text)


def test_sign_up_log_out_log_in(browser: Any, server_url: str) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = f"u{uuid.uuid4().hex[:10]}"
    password = "a long enough password"
    try:
        page.goto(f"{server_url}/#/account")
        page.wait_for_selector("#signup-name")
        fits(page)
        type_into(page, "#signup-name", name)
        type_into(page, "#signup-password", password)
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-testid=account-name]")
        assert page.text_content("[data-testid=account-name]") == name
        assert page.evaluate("document.cookie") == ""  # HttpOnly: the page cannot read it
        cookie = next(c for c in context.cookies() if c["name"] == "sansu_session")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
        fits(page)

        page.focus("#logout-h + div + button, form[aria-labelledby=logout-h] button")
        page.keyboard.press("Enter")
        page.wait_for_selector("#login-name")
        assert not any(c["name"] == "sansu_session" for c in context.cookies())

        type_into(page, "#login-name", name)
        type_into(page, "#login-password", "not the password")
        page.keyboard.press("Enter")
        alert = page.wait_for_selector("form[aria-labelledby=login-h] [role=alert]")
        assert "wrong user name or password" in alert.text_content()
        assert password not in page.content()

        page.fill("#login-password", "")
        type_into(page, "#login-password", password)
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-testid=account-name]")
        page.reload()
        page.wait_for_selector("[data-testid=account-name]")  # the session outlives a reload
    finally:
        context.close()
    assert not errors, errors
