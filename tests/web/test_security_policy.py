"""The web app works under its own Content-Security-Policy: the browser reports no
refused script, style or connection on the pages a player meets, and the theme is
applied before the app starts (by a script file, not an inline one)."""

from __future__ import annotations

from typing import Any

from tests.web.accessibility import violations


def test_pages_load_with_no_policy_violation(browser: Any, server_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    refused: list[str] = []
    page.on(
        "console",
        lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None,
    )
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        response = page.goto(f"{server_url}/")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_selector("main h1, main h2")
        assert page.evaluate("document.documentElement.dataset.theme") in ("light", "dark")
        page.goto(f"{server_url}/#/rules/uttt")
        page.wait_for_selector("main h1, main h2")
        page.goto(f"{server_url}/#/watch")
        page.wait_for_load_state("networkidle")
        assert not violations(page)
    finally:
        context.close()
    assert not refused, refused
    assert not errors, errors
