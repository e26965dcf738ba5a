"""The analysis board in Chromium: reached from a replay at the position shown, an evaluation
bar, the best line played by a click, the candidates marked on their cells, deeper results
while the page stays open, a stop when it is left; refused for a game being played; every
game; no sideways scroll at 390 px; axe-core finds nothing."""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from typing import Any

import pytest

import sansu
from tests.web.accessibility import violations
from tests.web.helpers import TURN_TIMEOUT_MS, api_post, open_page
from tests.web.test_newcomer import assert_fits
from tests.web.test_review import random_record

EVAL = "[data-testid=eval-text]"
DEPTH = "[data-testid=analysis-depth]"
PHONE = {"width": 390, "height": 844}


def wait_for_analysis(page: Any, step: int = 1) -> None:
    page.wait_for_function(
        "([s, n]) => Number(document.querySelector(s)?.dataset.step || 0) >= n",
        arg=[DEPTH, step],
        timeout=TURN_TIMEOUT_MS,
    )


def shown_ply(page: Any) -> int:
    return int(page.get_attribute(".board-host", "data-ply"))


def leave(page: Any, base: str) -> None:
    """Goes to the home page: the analysis board stops its thinking on the server."""
    page.goto(f"{base}/#/")
    page.wait_for_selector("main h1, main h2")


def test_a_replay_opens_the_analysis_board_at_the_position_shown(
    page: Any, server_url: str, screenshots: Path
) -> None:
    gid = api_post(server_url, "/api/records", random_record(4))["id"]
    open_page(page, server_url, f"#/replay/{gid}")
    page.locator("[data-testid=moves] button").nth(9).click()  # after 10 moves
    page.wait_for_function("() => document.querySelector('.board-host')?.dataset.ply === '10'")
    deletes: list[str] = []
    page.on("request", lambda r: r.method == "DELETE" and deletes.append(r.url))
    page.click("[data-action=analyse]")
    page.wait_for_url(re.compile(rf"#/analysis/uttt\?game_id={gid}&ply=10"))
    wait_for_analysis(page)
    assert shown_ply(page) == 10
    text = page.inner_text(EVAL)
    assert re.search(r"\d+% winning chance", text), text
    now = int(page.get_attribute("[data-testid=eval-bar]", "aria-valuenow"))
    assert 0 <= now <= 100
    # the candidates: listed, and each marked on its cell (the best one first)
    listed, marked = page.evaluate(
        """() => [
          [...document.querySelectorAll('[data-testid=candidates] [data-candidate]')]
            .map(b => b.dataset.candidate),
          [...document.querySelectorAll('.board-host [data-candidate-rank]')]
            .map(c => [c.dataset.cell, c.getAttribute('data-candidate-rank'), c.outerHTML])]"""
    )  # read at once: a deeper result may come at any time
    assert listed
    state = sansu.load_game("uttt").play_moves(random_record(4)["moves"][:10])
    assert set(listed) <= {str(m) for m in state.legal_moves()}
    ranks = {cell: rank for cell, rank, _ in marked}
    assert ranks == {move: str(k + 1) for k, move in enumerate(listed)}, marked
    assert "engine candidate 1" in page.get_attribute(f"[data-cell={listed[0]}]", "aria-label")
    # it thinks deeper while the page stays open
    first = int(page.get_attribute(DEPTH, "data-simulations"))
    wait_for_analysis(page, int(page.get_attribute(DEPTH, "data-step")) + 1)
    assert int(page.get_attribute(DEPTH, "data-simulations")) > first
    assert_fits(page, "analysis board, 1280 px")
    page.screenshot(path=str(screenshots / "analysis-board.png"), full_page=True)
    # the best line, clicked at its second move, is played on the board (a variation)
    line = page.eval_on_selector_all("[data-testid=best-line] [data-pv]", "bs => bs.length")
    upto = min(2, line)
    thinking = page.get_attribute(DEPTH, "data-done") != "true"
    page.click(f"[data-testid=best-line] [data-pv='{upto - 1}']")
    page.wait_for_function(
        "n => document.querySelector('.board-host')?.dataset.ply === String(n)", arg=10 + upto
    )
    assert page.locator("[data-testid=moves] li.variation").count() == upto
    assert "moves=" in page.url
    assert deletes or not thinking  # the old position's analysis was stopped, if it still ran
    # a move of one's own, by a click on an empty cell of the board
    before = len(deletes)
    page.goto(f"{server_url}/#/")
    page.wait_for_selector("main h1, main h2")
    page.wait_for_timeout(300)
    assert len(deletes) > before  # leaving the page stops the analysis


@pytest.mark.parametrize("game", sansu.game_ids())
def test_every_game_has_an_analysis_board_set_up_by_moves(
    page: Any, server_url: str, game: str
) -> None:
    state = sansu.load_game(game).initial_state()
    move = str(state.legal_moves()[0])
    open_page(page, server_url, f"#/analysis/{game}?moves={move}")
    wait_for_analysis(page)
    assert shown_ply(page) == 1
    assert page.locator("[data-testid=moves] li.variation").count() == 1
    assert "% winning chance" in page.inner_text(EVAL)
    assert page.locator(".board-host [data-candidate-rank]").count() >= 1
    if game == "sumodoku":  # aids on: the open cells are highlighted
        assert page.locator(".board-host .cell.is-open").count() > 0
    found = violations(page)
    assert not found, f"{game}: {found}"
    leave(page, server_url)


def test_a_game_in_play_is_refused_by_the_server(
    browser: Any, page: Any, server_url: str
) -> None:
    creator = browser.new_context()  # a rated game is created by a signed-in player
    try:
        answer = creator.request.post(
            f"{server_url}/api/account/signup",
            data={"name": f"r{uuid.uuid4().hex[:10]}", "password": "a long password"},
        )
        csrf = {"X-CSRF-Token": answer.json()["csrf_token"]}
        made = creator.request.post(
            f"{server_url}/api/games", data={"game": "uttt", "casual": False}, headers=csrf
        )
        assert made.status == 201, made.text()
        rated = made.json()
    finally:
        creator.close()
    open_page(page, server_url, f"#/analysis/uttt?game_id={rated['id']}")
    page.wait_for_selector("main .notice")
    assert "rated game being played" in page.inner_text("main .notice")
    assert page.locator("[data-testid=eval]").count() == 0
    open_page(page, server_url, f"#/play/{rated['id']}")  # its player sees no Analyse button
    page.wait_for_selector(".controls a[href='#/game/uttt']")
    assert page.locator("[data-action=analyse]").count() == 0


def test_the_analysis_board_fits_a_phone(browser: Any, server_url: str, screenshots: Path) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        open_page(page, server_url, "#/analysis/sansumoku?moves=r5c5,r4c4")
        wait_for_analysis(page)
        assert_fits(page, "analysis board, 390 px")
        box = page.locator(".board-host").bounding_box()
        assert box is not None and 300 < box["width"] <= 390
        page.screenshot(path=str(screenshots / "analysis-board-390.png"), full_page=True)
        leave(page, server_url)
    finally:
        context.close()


FILL = """async () => {
  const ids = [];
  for (let k = 0; k < 16; k++) {
    const r = await fetch('/api/analysis', {method: 'POST', headers: {'Content-Type':
      'application/json'}, body: JSON.stringify({game: 'uttt', moves: ['r5c5']})});
    if (r.status === 429 || r.status === 503) return [ids, r.status];
    ids.push((await r.json()).id);
  }
  return [ids, 0];
}"""
"""Starts analyses from this client until the server refuses one: their ids, and the refusal."""


def test_a_full_server_is_asked_again_until_there_is_room(page: Any, server_url: str) -> None:
    open_page(page, server_url, "#/")
    ids, refused = page.evaluate(FILL)
    assert refused in (429, 503), "the server limits the analyses of one client"
    answers: list[int] = []
    page.on(
        "response",
        lambda r: r.request.method == "POST" and r.url.endswith("/api/analysis")
        and answers.append(r.status),
    )
    open_page(page, server_url, "#/analysis/uttt?moves=r5c5,r4c4")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=explain]')?.textContent"
        ".includes('Trying again')",
        timeout=TURN_TIMEOUT_MS,
    )
    assert answers and answers[0] in (429, 503)
    assert page.locator("main .notice").count() == 0  # not given up
    for sid in ids:  # room again: the page asks once more and shows the position
        page.evaluate("id => fetch(`/api/analysis/${id}`, {method: 'DELETE'})", sid)
    page.wait_for_selector(".board-host[data-ply='2'] [data-cell]", timeout=TURN_TIMEOUT_MS)
    wait_for_analysis(page)
    assert answers[-1] == 201
    assert page.inner_text("[data-testid=explain]") == ""
    leave(page, server_url)
