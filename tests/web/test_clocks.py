"""The games' own clocks as the pages show them: Sumodoku's "Sudoku!" claim
with its countdown, and Sudoku Challenge's turn timer."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from sansu.sudoku import random_solution
from tests.web.helpers import Player


def post_move(base: str, game_id: str, token: str, move: str, state: int) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/games/{game_id}/moves",
        data=json.dumps({"move": move, "state": state}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_sumodoku_claim_button_and_countdown(page: Any, server_url: str, screenshots: Any) -> None:
    player = Player(page, server_url)
    game_id = player.start("sumodoku", mode="local")
    assert page.locator(".claim-btn").is_hidden()
    assert "turns 16–35" in page.inner_text(".claim-note")
    # Fifteen turns each, every piece where a solved grid has its colour: the
    # grid keeps a completion, so a claim can be won.
    grid = random_solution(4)
    colours = ([1, 2, 3, 4, 9], [5, 6, 7, 8, 9])
    free = {p: [i for i in range(81) if grid[i] in colours[p]] for p in (0, 1)}
    token, state = player.token, 0
    for turn in range(30):
        p = turn % 2
        cell = free[p].pop(0 if p == 0 else -1)
        if grid[cell] == 9:  # share the nines fairly
            free[1 - p] = [c for c in free[1 - p] if c != cell]
        move = f"r{cell // 9 + 1}c{cell % 9 + 1}={grid[cell]}"
        state = post_move(server_url, game_id, token, move, state)["state"]
    player.wait_ply(30)
    # Turn 16 of the first player: the claim is open, and only now is the button shown.
    page.wait_for_selector(".claim-btn:visible")
    assert "16 minutes" in page.inner_text(".claim-btn")
    page.screenshot(path=str(screenshots / "sumodoku-claim-open.png"))
    page.click(".claim-btn")
    page.click("[data-testid=claim-dialog] [data-answer=yes]")  # asked first
    player.wait_ply(31)
    countdown = page.locator(".countdown")
    countdown.wait_for(state="visible")
    assert re.fullmatch(r"1[56]:\d\d left", countdown.inner_text())
    assert "claimed Sudoku" in page.inner_text(".claim-note")
    assert page.locator(".claim-btn").is_hidden()
    # The claimant places a piece, then takes it back with Delete.
    empty = next(
        i
        for i in range(81)
        if page.get_attribute(
            f".board-host [data-cell=r{i // 9 + 1}c{i % 9 + 1}]", "aria-label"
        ).startswith(f"r{i // 9 + 1}c{i % 9 + 1}: empty")
    )  # any empty cell: the board holds only pieces of the grid's solution
    name = f"r{empty // 9 + 1}c{empty % 9 + 1}"
    player.play(f"{name}={grid[empty]}", how="pad")
    assert "placed during the claim" in player.label(name)
    assert page.locator("[data-action=erase]").is_visible()
    player.cell(name).focus()
    page.keyboard.press("Delete")
    player.wait_ply(33)
    assert player.label(name).startswith(f"{name}: empty")
    page.screenshot(path=str(screenshots / "sumodoku-claim-countdown.png"))


def test_challenge_turn_timer(page: Any, server_url: str) -> None:
    player = Player(page, server_url)
    player.start("challenge", options={"turn_seconds": 30})
    timer = page.locator(".ch-side .timer")
    timer.wait_for(state="visible")
    first = timer.inner_text()
    assert re.fullmatch(r"0:(30|2\d) left in this turn", first)
    page.wait_for_function(
        "t => document.querySelector('.ch-side .timer').textContent !== t", arg=first, timeout=3000
    )
