"""A game's socket that goes silent without closing (a laptop that slept, a network that
changed, a proxy that dropped it) is found dead by its unanswered ping and replaced: the
player then sees the move made meanwhile and plays on. The page's clock is Playwright's
fake one, moved forward past the ping's and the answer's waits."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from tests.web.helpers import Player
from tests.web.test_online import new_page

GAME_SOCKET = re.compile(r".*/api/games/\w+/ws(\?.*)?$")
PING_AFTER_MS = 15_000
PONG_WITHIN_MS = 10_000


def soon(page: Any, condition: Callable[[], Any], failure: str) -> None:
    """Waits until ``condition()`` holds, letting Playwright deliver the page's events."""
    deadline = time.monotonic() + 30
    while not condition():
        assert time.monotonic() < deadline, failure
        page.wait_for_timeout(50)


def test_a_silent_socket_is_pinged_then_replaced_and_the_missed_move_arrives(
    browser: Any, server_url: str
) -> None:
    pa, pb = new_page(browser), new_page(browser)
    opened: list[Any] = []  # O's sockets, in order
    sent_to_dead: list[str] = []  # what O's page sent on its first, silent socket

    def route(ws: Any) -> None:
        opened.append(ws)
        if len(opened) == 1:  # open, never a word back: as a connection dead on the way
            ws.on_message(lambda message: sent_to_dead.append(str(message)))
        else:
            ws.connect_to_server()

    pb.clock.install()
    pb.route_web_socket(GAME_SOCKET, route)
    try:
        a = Player(pa, server_url)
        game_id = a.start("uttt", mode="online")
        pb.goto(pa.input_value("[data-testid=invite-link]"))
        pb.click("button[data-seat='1']")
        pb.wait_for_url(re.compile(rf"#/play/{game_id}$"))
        b = Player(pb, server_url)
        pb.wait_for_selector("[data-testid=status] span")
        soon(pb, lambda: opened, "O's page opened no socket")
        assert len(opened) == 1

        a.play("r5c5")
        a.wait_ply(1)
        assert b.shown_ply() == 0  # O's socket brought nothing

        pb.clock.fast_forward(PING_AFTER_MS + 1_000)  # quiet that long: O's page pings
        soon(pb, lambda: sent_to_dead, "no ping on the silent socket")
        assert [json.loads(m)["type"] for m in sent_to_dead] == ["ping"]
        assert len(opened) == 1  # not yet dropped: the answer may still come

        pb.clock.fast_forward(PONG_WITHIN_MS + 1_000)  # no answer: dead, replaced
        b.wait_ply(1)  # the new socket's hello has X's move
        assert len(opened) == 2
        b.wait_turn_or_end(mine=True)
        b.play("r4c4")
        a.wait_ply(2)
        assert "Connection lost" not in pb.inner_text("main")
        assert pa.js_errors == [] and pb.js_errors == []
    finally:
        pa.context.close()
        pb.context.close()
