"""The Review panel of a replay: one click, a graph of the winning chance, turning points
that show their position on the board; nothing offered for a game in play."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import sansu
from tests.web.accessibility import violations
from tests.web.helpers import TURN_TIMEOUT_MS, api_get, api_post, open_page


def random_record(seed: int) -> dict[str, Any]:
    """A finished uttt game of random moves (they blunder): its JSON record."""
    state = sansu.load_game("uttt").initial_state()
    rng = random.Random(seed)
    moves = []
    while state.result is None:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    return sansu.GameRecord("uttt", {}, moves, {}).to_dict()


def test_a_replay_is_reviewed_and_its_turning_points_jump_to_their_position(
    page: Any, server_url: str, screenshots: Path
) -> None:
    gid = api_post(server_url, "/api/records", random_record(4))["id"]
    open_page(page, server_url, f"#/replay/{gid}")
    page.click("[data-action=review]")
    page.wait_for_selector("[data-testid=review-graph]", timeout=TURN_TIMEOUT_MS * 4)
    stored = api_get(server_url, f"/api/games/{gid}/review")
    assert stored["status"] == "done"
    turning = stored["review"]["turning_points"]
    assert turning, "random moves make no turning point: pick another seed"
    points = page.locator("[data-testid=review-graph] .turn")
    assert points.count() == len(turning)
    assert [int(points.nth(k).get_attribute("data-ply")) for k in range(len(turning))] == [
        p + 1 for p in turning
    ]
    assert violations(page) == []
    page.screenshot(path=str(screenshots / "review-graph.png"), full_page=True)
    points.nth(0).click()
    page.wait_for_function(
        "n => Number(document.querySelector('.board-host')?.dataset.ply) === n",
        arg=turning[0] + 1,
    )
    if len(turning) > 1:  # the keyboard reaches the points too
        points.nth(1).focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "n => Number(document.querySelector('.board-host')?.dataset.ply) === n",
            arg=turning[1] + 1,
        )
    review = stored["review"]
    # Each player's accuracy, and a legend naming the marks with their counts.
    for player, value in review["accuracy"].items():
        said = page.inner_text(f"[data-testid=review-accuracy] [data-accuracy='{player}']")
        assert said.startswith(f"{round(value)}% accuracy")
    legend = page.inner_text("[data-testid=review-legend]")
    blunders = sum(m["judgement"] == "blunder" for m in review["moves_reviewed"])
    assert f"?? blunder: {blunders}" in legend and "?! inaccuracy" in legend
    assert page.locator("[data-testid=review-graph] .review-axis").count() >= 5
    # The move list: two columns (one per player) and the marks of the judged moves.
    assert "two-col" in page.get_attribute("[data-testid=moves]", "class")
    first = review["moves_reviewed"][turning[0]]
    mark = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[first["judgement"]]
    button = page.locator("[data-testid=moves] button").nth(turning[0])
    assert button.inner_text().replace("\n", "") == f"{first['move']}{mark}"
    assert first["judgement"] in button.get_attribute("aria-label")
    # On the board, the better move of a turning point, from the position it was played in.
    judged = next(
        m for m in review["moves_reviewed"] if m["judgement"] and m["best"] not in (None, m["move"])
    )
    page.locator("[data-testid=review-graph] .turn").nth(turning.index(judged["ply"])).click()
    page.click("[data-action=show-better]")
    page.wait_for_function(
        "n => Number(document.querySelector('.board-host')?.dataset.ply) === n", arg=judged["ply"]
    )
    assert page.get_attribute(".board-host [data-better]", "data-cell") == judged["best"]
    assert f"better was {judged['best']}" in page.inner_text("[data-testid=better-move]")
    assert violations(page) == []
    page.screenshot(path=str(screenshots / "review-better-move.png"), full_page=True)


def test_a_game_in_play_has_no_review(page: Any, server_url: str) -> None:
    created = api_post(server_url, "/api/games", {"game": "uttt"})
    open_page(page, server_url, f"#/play/{created['id']}")
    page.wait_for_selector(".controls a[href='#/game/uttt']")  # the controls are drawn
    assert page.locator("[data-action=review]").count() == 0
