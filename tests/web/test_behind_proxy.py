"""The web app behind the shipped nginx site, over https (HTTP/2) with a self-signed
certificate: a game against the computer starts and its moves come over wss, with no
error on the page. (``tests/server/test_proxy_tls.py`` checks the proxy's headers.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.test_proxy_tls import Proxy, behind_nginx
from tests.web.helpers import Player


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[Proxy]:
    with behind_nginx(tmp_path, "--computer-time-ms", "100") as (proxied, _server):
        yield proxied


def test_a_game_against_the_computer_through_nginx_over_https(browser: Any, proxy: Proxy) -> None:
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        player = Player(page, proxy.https)
        player.start("uttt", "computer", "beginner")
        player.play("r5c5")
        player.wait_ply(2)  # the computer's answer, over the game's socket (wss)
        assert page.url.startswith(f"{proxy.https}/")
        hop = page.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol")
        assert hop == "h2"
    finally:
        context.close()
    assert not errors, errors
