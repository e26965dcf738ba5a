"""The home page's cards: the games' pictures stand level, whatever their titles' length."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize("width", [1280, 700])
def test_the_pictures_on_home_stand_level(
    browser: Any, server_url: str, screenshots: Any, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{server_url}/#/")
        page.wait_for_function(
            "() => document.querySelectorAll('.card .thumb .cell').length > 0"
            " && document.querySelectorAll('.card .thumb').length === 5"
        )
        boxes = page.eval_on_selector_all(
            ".card",
            """cards => cards.map((c) => ({top: c.getBoundingClientRect().top,
                thumb: c.querySelector('.thumb').getBoundingClientRect().top}))""",
        )
        rows: dict[int, list[float]] = {}
        for box in boxes:
            rows.setdefault(round(box["top"]), []).append(box["thumb"])
        assert any(len(thumbs) > 1 for thumbs in rows.values())
        for thumbs in rows.values():
            assert max(thumbs) - min(thumbs) < 1.0, thumbs
        page.screenshot(path=str(screenshots / f"home-{width}.png"), full_page=True)
    finally:
        context.close()
