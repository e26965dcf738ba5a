"""The Watch page lists games being played; games left unfinished are shown apart."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.accessibility import violations
from tests.web.conftest import serving
from tests.web.helpers import TURN_TIMEOUT_MS, api_get, api_post, open_page

AFTER = 3.0
"""Seconds of silence after which this test's server calls a game abandoned."""


@pytest.fixture(scope="module")
def quick_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("watch-db") / "games.db"
    sansu = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"
    with serving(sansu, db, extra=("--abandon-after", str(AFTER))) as url:
        yield url


def move_and_wait(base: str, gid: str, token: str) -> None:
    """Plays the first legal move, then waits for the computer's answer."""
    game = api_get(base, f"/api/games/{gid}", token)
    api_post(
        base,
        f"/api/games/{gid}/moves",
        {"move": game["view"]["legal_moves"][0], "state": game["state"]},
        token,
    )
    end = time.monotonic() + TURN_TIMEOUT_MS / 1000
    while time.monotonic() < end:
        if api_get(base, f"/api/games/{gid}", token)["view"]["to_move"] == 0:
            return
        time.sleep(0.1)
    raise AssertionError("the computer did not move")


def test_a_game_left_by_its_player_is_shown_apart(
    page: Any, quick_url: str, screenshots: Path
) -> None:
    created = api_post(
        quick_url,
        "/api/games",
        {"game": "uttt", "seats": [{"kind": "human"}, {"kind": "computer", "level": "beginner"}]},
    )
    gid, token = created["id"], created["token"]
    move_and_wait(quick_url, gid, token)

    open_page(page, quick_url, "#/watch")
    page.wait_for_selector(f"main > div li[data-match='{gid}']")
    assert page.locator("[data-testid=abandoned]").is_hidden()

    # Nobody moves and nobody has the game open: it moves to the list apart.
    time.sleep(AFTER + 0.5)
    open_page(page, quick_url, "#/watch")
    page.wait_for_selector(f"[data-testid=abandoned] li[data-match='{gid}']")
    assert page.locator(f"main > div li[data-match='{gid}']").count() == 0
    assert "Left unfinished" in page.inner_text("[data-testid=abandoned]")
    assert violations(page) == []
    page.screenshot(path=str(screenshots / "watch-abandoned.png"), full_page=True)

    # Never lost: it opens by its link, and its player's move brings it back.
    page.click(f"[data-testid=abandoned] li[data-match='{gid}'] a")
    page.wait_for_url(f"**/#/watch/{gid}")
    page.wait_for_selector("[data-testid=status] span")
    assert page.locator("[data-action=resign]").count() == 0  # a spectator's view
    assert "X to move" in page.inner_text("[data-testid=status]")
    move_and_wait(quick_url, gid, token)
    open_page(page, quick_url, "#/watch")
    page.wait_for_selector(f"main > div li[data-match='{gid}']")
    assert page.locator(f"[data-testid=abandoned] li[data-match='{gid}']").count() == 0
