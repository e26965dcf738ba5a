"""The ``aids`` option in the browser: hints and highlighting only in games created with it.

Against the computer the create form turns aids on, between people off; with
aids on, Sumodoku's Hint names the colours that fit the selected cell and
Sudoku Challenge's names the next step's technique and marks its cells; with
aids off there is no Hint and no cell or colour is singled out as legal.
Every page met here passes axe-core.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.server.conftest import FEW_BLANKS
from tests.web.helpers import Player
from tests.web.test_newcomer import DESKTOP, PHONE, assert_fits, close, new_page

HINT = "[data-action=hint]"
RESULT = "[data-testid=hint-result]"


@contextmanager
def playing(browser: Any, server_url: str, viewport: dict[str, int]) -> Iterator[Player]:
    """A tab of its own, closed (and checked for JavaScript errors) afterwards."""
    page = new_page(browser, viewport)
    try:
        yield Player(page, server_url)
    finally:
        close(page)


def test_the_form_sets_aids_by_the_seats(browser: Any, server_url: str) -> None:
    page = new_page(browser, DESKTOP)
    try:
        for game in ("sumodoku", "challenge"):
            page.goto(f"{server_url}/#/game/{game}")
            box = page.locator("#opt-aids")
            box.wait_for()
            assert box.is_checked()  # against the computer, the default mode
            page.check("input[name=mode][value=online]")
            assert not box.is_checked()
            page.check("input[name=mode][value=local]")
            assert not box.is_checked()
            box.check()  # the player's choice then stays, whatever the seats
            page.check("input[name=mode][value=computer]")
            page.check("input[name=mode][value=online]")
            assert box.is_checked()
        page.goto(f"{server_url}/#/game/uttt")
        page.wait_for_selector("form.play-form")
        assert page.locator("#opt-aids").count() == 0
    finally:
        close(page)


def test_sumodoku_hint_names_the_colours_that_fit(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    with playing(browser, server_url, PHONE) as player:
        page = player.page
        player.start("sumodoku")
        assert player.game()["view"]["options"]["aids"] is True
        assert player.wait_turn_or_end()
        view = player.game()["view"]
        assert page.locator(".board-host .cell.is-open").count() > 0
        player.cell("r5c5").click()
        page.click(HINT)
        page.wait_for_function(
            "s => /Colours that fit r5c5/.test(document.querySelector(s)?.textContent || '')",
            arg=RESULT,
        )
        fits = sorted(int(m[-1]) for m in view["legal_moves"] if m.startswith("r5c5="))
        assert fits
        assert page.inner_text(RESULT) == f"Colours that fit r5c5: {', '.join(map(str, fits))}"
        hinted = page.eval_on_selector_all(
            ".digit-pad .pad-key.is-hinted", "keys => keys.map(k => Number(k.dataset.digit))"
        )
        assert sorted(hinted) == fits
        assert page.locator(f".under-board {RESULT}").count() == 1  # with the pad, on a phone
        assert_fits(page, "Sumodoku with a hint, 390 px")
        page.screenshot(path=str(screenshots / "aids-sumodoku-hint.png"))


def test_sumodoku_without_aids_has_no_hint_and_no_highlighting(
    browser: Any, server_url: str
) -> None:
    with playing(browser, server_url, DESKTOP) as player:
        page = player.page
        player.start("sumodoku", mode="local")
        game = player.game()
        assert game["view"]["options"]["aids"] is False
        assert player.wait_turn_or_end()
        player.play("r1c1=1", how="pad")
        assert player.wait_turn_or_end()
        assert page.locator(HINT).is_hidden()
        assert page.locator(".board-host .cell.is-open").count() == 0
        labels = page.eval_on_selector_all(
            ".board-host [data-cell]", "cells => cells.map(c => c.getAttribute('aria-label'))"
        )
        assert not [label for label in labels if ", open" in label]
        # The second player's pad offers every colour they hold, legal or not.
        view = player.game()["view"]
        left = view["pieces_left"][view["to_move"]]
        offered = page.eval_on_selector_all(
            ".digit-pad .pad-key",
            "keys => keys.map(k => k.getAttribute('aria-disabled') === 'false')",
        )
        assert offered == [n > 0 for n in left]
        assert_fits(page, "Sumodoku without aids")


def test_challenge_hint_names_the_technique_and_marks_its_cells(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    with playing(browser, server_url, DESKTOP) as player:
        page = player.page
        player.start("challenge", options={"puzzle": FEW_BLANKS})
        assert player.game()["view"]["options"]["aids"] is True
        assert player.wait_turn_or_end()
        page.click(HINT)
        page.wait_for_selector("[data-testid=hint-technique]")
        assert page.inner_text("[data-testid=hint-technique]") == "Full house"
        assert page.inner_text(RESULT) == (
            "Full house: r2c2 is the last empty cell in row 2, so it takes the missing 7."
        )
        target = page.eval_on_selector_all(
            ".board-host .cell.hint-target", "cells => cells.map(c => c.dataset.cell)"
        )
        assert target == ["r2c2"]  # row 2 lacks only its 7, at r2c2
        assert page.locator(".board-host .cell.is-hinted").count() == 9  # the row it completes
        assert "the hint is about this cell" in player.label("r2c2")
        assert_fits(page, "Sudoku Challenge with a hint")
        page.screenshot(path=str(screenshots / "aids-challenge-hint.png"))
        player.play("r2c2=7", how="pad")
        page.wait_for_function(
            "() => !document.querySelector('.board-host .cell.is-hinted')"
        )  # the marks go once the position changes


def test_challenge_without_aids_has_no_hint(browser: Any, server_url: str) -> None:
    with playing(browser, server_url, DESKTOP) as player:
        page = player.page
        player.start("challenge", mode="local", options={"puzzle": FEW_BLANKS})
        assert player.game()["view"]["options"]["aids"] is False
        assert player.wait_turn_or_end()
        assert page.locator(HINT).is_hidden()
        assert page.locator(".board-host .cell.is-hinted").count() == 0
        assert_fits(page, "Sudoku Challenge without aids")
