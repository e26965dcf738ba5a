"""The lessons in Chromium: one full lesson per game, finished on the board by clicks
and by keyboard; a wrong move explained with the engine's reason and a missed goal with
the step's hint; progress that survives a reload and reaches the account on signing in;
the newcomer's ways in; axe clean; screenshots of a step per game at 1280 and 390 px."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from sansu.learn import lesson
from tests.web.accessibility import violations

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
GAMES = ("uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive")
SHOWN = {
    "uttt": "closed-frees",
    "sansumoku": "by-constraint",
    "sumodoku": "claim",
    "challenge": "first-entry",
    "thirtyfive": "conversion",
}
"""The step of each game that the screenshots show."""


def new_page(browser: Any, viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors
    return page


def close(page: Any) -> None:
    errors = page.js_errors
    page.context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def fits(page: Any, where: str) -> None:
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"{where}: {widths[0]} px wide in a {widths[1]} px window"
    found = violations(page)
    assert not found, f"{where}: {found}"


def open_step(page: Any, base: str, game: str, step: str) -> None:
    page.goto(f"{base}/#/learn/{game}?step={step}")
    page.wait_for_selector(f"[data-step={step}] button[aria-current=step]")
    page.wait_for_selector(".board-host[data-status=play]")


def say(page: Any) -> str:
    return page.text_content("[data-testid=lesson-say]") or ""


def judged(page: Any, act: Any) -> None:
    """Runs ``act`` (one move through the page) and waits for the page to draw the verdict."""
    with page.expect_response(lambda r: r.url.endswith("/check")) as answer:
        act()
    answer.value.finished()
    page.wait_for_function("() => !document.querySelector('.lesson-page')?.dataset.busy")


def play(page: Any, move: str, how: str) -> None:
    """One move, on the board by clicks and keys or typed (``how``: click, type)."""
    if how == "type":
        page.focus("#lesson-move")
        page.keyboard.type(move)
        judged(page, lambda: page.keyboard.press("Enter"))
        return
    if move == "sudoku":  # the claim is asked first, as in a game
        page.click(".sd-side button:has-text('Sudoku!')")
        judged(page, lambda: page.click("[data-testid=claim-dialog] [data-answer=yes]"))
        return
    if move == "challenge":
        judged(page, lambda: page.click(".sd-side button:has-text('Challenge')"))
        return
    if move.startswith("report "):
        page.click("[data-action=report]")
        cell = move.split()[1]
        judged(page, lambda: page.click(f".board-host [data-cell={cell}]"))
        return
    cell, _, digit = move.partition("=")
    if not digit:
        judged(page, lambda: page.click(f".board-host [data-cell={cell}]"))
        return
    page.click(f".board-host [data-cell={cell}]")
    judged(page, lambda: page.keyboard.press(digit))


def finish_lesson(page: Any, base: str, game: str, how: str) -> None:
    steps = lesson(game).steps
    open_step(page, base, game, steps[0].id)
    for k, step in enumerate(steps):
        page.wait_for_selector(f"[data-step={step.id}] button[aria-current=step]")
        page.wait_for_selector(".board-host[data-status=play]")
        for move in step.solution:
            play(page, move, how)
        page.wait_for_selector(".board-host[data-status=done]")
        assert say(page) == (step.tasks[-1].done or "Well done!") or k == len(steps) - 1
        assert page.locator(f"[data-step={step.id}].is-done").count() == 1
        if k + 1 < len(steps):
            if how == "type":  # "Next step" has the focus: the keyboard goes on
                assert page.evaluate("document.activeElement.dataset.action") == "next"
                page.keyboard.press("Enter")
            else:
                page.click("[data-action=next]")
    assert "finished the lesson" in say(page)


@pytest.mark.parametrize("game", GAMES)
def test_a_full_lesson_is_finished_by_clicks(browser: Any, server_url: str, game: str) -> None:
    page = new_page(browser, DESKTOP)
    try:
        finish_lesson(page, server_url, game, "click")
        page.goto(f"{server_url}/#/learn")
        card = page.locator(f".learn-list li[data-game={game}]")
        total = len(lesson(game).steps)
        assert card.locator("[data-testid=progress]").text_content() == (
            f"{total} of {total} steps done"
        )
    finally:
        close(page)


def test_a_lesson_by_keyboard_keeps_its_progress_and_reaches_the_account(
    browser: Any, server_url: str
) -> None:
    page = new_page(browser, PHONE)
    try:
        finish_lesson(page, server_url, "thirtyfive", "type")
        page.reload()
        page.wait_for_selector("[data-step=last-square].is-done")
        assert page.locator(".lesson-steps .is-done").count() == len(lesson("thirtyfive").steps)
        # Sign up in this browser: its lesson reaches the new account.
        page.goto(f"{server_url}/#/account")
        page.wait_for_selector("#signup-name")
        page.focus("#signup-name")
        name = f"u{uuid.uuid4().hex[:10]}"
        page.keyboard.type(name)
        page.focus("#signup-password")
        page.keyboard.type("a long enough password")
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-testid=account-name]")
        steps = [s.id for s in lesson("thirtyfive").steps]
        last = f"/api/account/lessons/thirtyfive/{steps[-1]}"
        with page.expect_response(lambda r: r.request.method == "PUT" and r.url.endswith(last)):
            page.goto(f"{server_url}/#/")  # the next page after signing in hands them over
        mine = page.evaluate(
            "() => fetch('/api/account/lessons').then(r => r.json()).then(d => d.lessons)"
        )
        assert mine == {"thirtyfive": steps}
    finally:
        close(page)
    # Another browser, signed in to the same account, shows the progress from the account.
    page = new_page(browser, DESKTOP)
    try:
        page.goto(f"{server_url}/#/account")
        page.wait_for_selector("#login-name")
        page.fill("#login-name", name)
        page.fill("#login-password", "a long enough password")
        page.press("#login-password", "Enter")
        page.wait_for_selector("[data-testid=account-name]")
        page.goto(f"{server_url}/#/learn")
        card = page.locator(".learn-list li[data-game=thirtyfive] [data-testid=progress]")
        assert card.text_content() == f"{len(steps)} of {len(steps)} steps done"
        assert page.evaluate("JSON.parse(localStorage.getItem('sansu.lessons'))") == {
            "thirtyfive": steps
        }
    finally:
        close(page)


def test_a_wrong_move_is_explained_and_the_step_tried_again(browser: Any, server_url: str) -> None:
    page = new_page(browser, DESKTOP)
    try:
        open_step(page, server_url, "uttt", "sending")
        judged(page, lambda: page.click(".board-host [data-cell=r5c6]"))
        assert say(page) == "That move is not allowed: r5c6: you must play in the top-left section"
        assert page.get_attribute(".board-host", "data-ply") == "2"  # nothing was played
        judged(page, lambda: page.click(".board-host [data-cell=r1c1]"))
        step = lesson("uttt").step("sending")
        assert step is not None
        assert say(page) == f"Not quite. {step.tasks[0].hint}"
        assert page.get_attribute(".board-host", "data-status") == "missed"
        assert page.evaluate("document.activeElement.dataset.action") == "retry"
        page.keyboard.press("Enter")
        page.wait_for_selector(".board-host[data-status=play][data-ply='2']")
        # On the board by keyboard: from r1c1 two cells right, then Enter.
        page.focus(".board-host [data-cell=r1c1]")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert page.evaluate("document.activeElement.dataset.cell") == "r1c3"
        judged(page, lambda: page.keyboard.press("Enter"))
        assert "O played the top-centre cell" in say(page)  # the scripted reply came
        assert page.get_attribute(".board-host", "data-ply") == "4"
    finally:
        close(page)


def test_newcomers_are_led_to_the_lessons(browser: Any, server_url: str) -> None:
    page = new_page(browser, DESKTOP)
    try:
        page.goto(f"{server_url}/#/")
        page.click("text=New to these games? Start here")
        page.wait_for_selector(".learn-list")
        assert page.get_attribute("nav [data-nav=learn]", "aria-current") == "page"
        page.goto(f"{server_url}/#/game/sumodoku")
        offer = page.wait_for_selector("[data-testid=lesson-offer]")
        assert "New to Sumodoku?" in (offer.text_content() or "")
        page.goto(f"{server_url}/#/game/uttt")
        page.wait_for_selector("[data-testid=lesson-offer]")
        page.goto(f"{server_url}/#/game/sumodoku")  # offered once: not again
        page.wait_for_selector("form.play-form")
        assert page.locator("[data-testid=lesson-offer]").count() == 0
        page.goto(f"{server_url}/#/game/uttt")
        page.wait_for_selector("form.play-form")
        assert page.locator("[data-testid=lesson-offer]").count() == 0
    finally:
        close(page)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_lesson_pages_fit_pass_axe_and_are_pictured(
    browser: Any, server_url: str, screenshots: Path, viewport: dict[str, int]
) -> None:
    page = new_page(browser, viewport)
    width = viewport["width"]
    try:
        page.goto(f"{server_url}/#/learn")
        page.wait_for_selector(".learn-list")
        fits(page, f"#/learn at {width} px")
        page.screenshot(path=str(screenshots / f"learn-{width}.png"), full_page=True)
        for game, step in SHOWN.items():
            open_step(page, server_url, game, step)
            fits(page, f"{game} {step} at {width} px")
            page.screenshot(path=str(screenshots / f"learn-{game}-{width}.png"), full_page=True)
    finally:
        close(page)
