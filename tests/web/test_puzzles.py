"""Puzzles in Chromium: for each game with puzzles, solve one and fail one on the game's own
board, and see the rating move; the opponent's reply is played by the page; axe finds
nothing; screenshots at 1280 and 390 px.

The server serves the hand-built puzzles of ``tests/puzzle_data`` (``$SANSU_PUZZLE_DATA``);
the learner is anonymous, so the rating lives in this browser context.
"""

from __future__ import annotations

import json
import shutil
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sansu
from sansu.server.learn import DATA_ENV
from tests.web.accessibility import violations
from tests.web.conftest import serving
from tests.web.helpers import TURN_TIMEOUT_MS, Player, api_get, api_post, open_page
from tests.web.test_review import random_record

DATA = Path(__file__).resolve().parents[1] / "puzzle_data"
GAMES = ("uttt", "sansumoku", "thirtyfive", "sumodoku")


def puzzle(pid: str) -> dict[str, Any]:
    game = pid.split("-")[0]
    return next(
        p for p in json.loads((DATA / f"{game}.json").read_text(encoding="utf-8")) if p["id"] == pid
    )


def losing_move(pid: str) -> str:
    """A legal move of the learner that is not the solution and does not win (in the
    hand-built Sumodoku puzzles: claiming Sudoku instead of the one winning placement)."""
    p = puzzle(pid)
    state = sansu.load_game(p["game"], **p["options"]).play_moves(p["moves"])
    for move in state.legal_moves():
        text = str(move)
        if text == p["solution"][0] or text == "timeout":
            continue
        result = state.play(move).result
        if result is None or tuple(result.winners) != (state.to_move,):
            return text
    raise AssertionError(f"{pid}: no losing move")


def engine_reason(pid: str, move: str) -> str:
    p = puzzle(pid)
    state = sansu.load_game(p["game"], **p["options"]).play_moves(p["moves"])
    try:
        state.play(move)
    except ValueError as error:
        return str(error)
    raise AssertionError(f"{move} is legal in {pid}")


@pytest.fixture(scope="module")
def puzzle_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("puzzles-db") / "games.db"
    exe = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DATA_ENV, str(DATA))
        with serving(exe, db, wait=300) as url:
            yield url


def open_puzzle(page: Any, base: str, address: str) -> None:
    page.goto(f"{base}/#/{address}")
    page.wait_for_selector(".puzzle-page[data-state=playing] .board-host[data-ply]")


def clean(page: Any) -> list[str]:
    """Axe's findings with the pointer off the board (35 shows a hovered square's sum)."""
    page.mouse.move(0, 0)
    page.wait_for_function("() => document.getAnimations().length === 0")
    return violations(page)


def shown_rating(page: Any, base: str, game: str) -> str:
    page.goto(f"{base}/#/puzzles")
    return page.inner_text(f"[data-testid=rating-{game}]")


@pytest.mark.parametrize("game", GAMES)
def test_solve_one_puzzle_and_fail_one(
    page: Any, puzzle_url: str, screenshots: Path, game: str
) -> None:
    player = Player(page, puzzle_url)
    assert shown_rating(page, puzzle_url, game) == "1500?"

    solved = puzzle(f"{game}-0001")
    open_puzzle(page, puzzle_url, f"puzzles/id/{game}-0001")
    assert violations(page) == []
    if game in ("uttt", "sansumoku"):  # an illegal move is explained and costs nothing
        taken = solved["moves"][-1]
        reason = engine_reason(f"{game}-0001", taken)
        page.click(f".board-host [data-cell={taken}]")
        page.wait_for_function(
            "r => document.querySelector('[data-testid=explain]').textContent.includes(r)",
            arg=reason,
        )
        assert page.inner_text("[data-testid=explain]").startswith("That move is not legal")
        assert page.get_attribute(".puzzle-page", "data-state") == "playing"
    player.play(solved["solution"][0])
    page.wait_for_selector("[data-testid=result][data-solved=true]")
    gain = page.inner_text("[data-testid=rating-change]")
    assert gain.startswith("+") and int(gain[1:]) > 0
    assert clean(page) == []
    page.screenshot(path=str(screenshots / f"puzzle-{game}-solved.png"), full_page=True)
    after_win = shown_rating(page, puzzle_url, game)
    assert int(after_win.rstrip("?")) > 1500

    open_puzzle(page, puzzle_url, f"puzzles/id/{game}-0002")
    wrong = losing_move(f"{game}-0002")
    if wrong == "sudoku":  # the claim is asked first, as in a game
        page.click(".claim-btn")
        page.click("[data-testid=claim-dialog] [data-answer=yes]")
    else:
        player.play(wrong)
    page.wait_for_selector("[data-testid=result][data-solved=false]")
    assert "does not win" in page.inner_text("[data-testid=explain]")
    loss = page.inner_text("[data-testid=rating-change]")
    assert loss.startswith("−") and int(loss[1:]) > 0
    page.click("[data-action=solution]")
    assert puzzle(f"{game}-0002")["solution"][0] in page.inner_text("[data-testid=solution]")
    page.set_viewport_size({"width": 390, "height": 844})
    assert clean(page) == []
    page.screenshot(path=str(screenshots / f"puzzle-{game}-failed-390.png"), full_page=True)
    assert int(shown_rating(page, puzzle_url, game).rstrip("?")) < int(after_win.rstrip("?"))


def test_the_opponents_reply_is_played_and_the_line_solved(page: Any, puzzle_url: str) -> None:
    player = Player(page, puzzle_url)
    line = puzzle("uttt-0004")["solution"]
    open_puzzle(page, puzzle_url, "puzzles/id/uttt-0004")
    start = player.shown_ply()
    player.play(line[0])
    page.wait_for_selector(".puzzle-page[data-state=playing]")
    player.wait_ply(start + 2)
    assert line[1] in page.inner_text("[data-testid=explain]")
    player.play(line[2])
    page.wait_for_selector("[data-testid=result][data-solved=true]")


def test_the_puzzles_page_lists_games_and_daily_puzzles(
    page: Any, puzzle_url: str, screenshots: Path
) -> None:
    page.goto(f"{puzzle_url}/#/puzzles")
    page.wait_for_selector("[data-puzzle-game]")
    games = page.eval_on_selector_all(
        "[data-puzzle-game]", "els => els.map(e => e.dataset.puzzleGame)"
    )
    assert sorted(games) == sorted(GAMES)
    assert page.get_attribute("[data-nav=puzzles]", "aria-current") == "page"
    assert violations(page) == []
    page.screenshot(path=str(screenshots / "puzzles-1280.png"), full_page=True)
    page.click("[data-puzzle-game=sumodoku] a[href$='/daily']")
    page.wait_for_selector(".puzzle-page[data-state=playing] .board-host[data-ply]")
    daily = page.get_attribute(".puzzle-page", "data-puzzle")
    assert daily and daily.startswith("sumodoku-")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{puzzle_url}/#/puzzles")
    page.wait_for_selector("[data-puzzle-game]")
    assert violations(page) == []
    page.screenshot(path=str(screenshots / "puzzles-390.png"), full_page=True)


def test_a_reviews_blunders_open_as_exercises(page: Any, puzzle_url: str) -> None:
    """The review panel links a player's blunders; the exercise takes the engine's move."""
    gid = api_post(puzzle_url, "/api/records", random_record(4))["id"]
    open_page(page, puzzle_url, f"#/replay/{gid}")
    page.click("[data-action=review]")
    page.wait_for_selector("[data-testid=review-graph]", timeout=TURN_TIMEOUT_MS * 4)
    review = api_get(puzzle_url, f"/api/games/{gid}/review")["review"]
    blunders = [
        m
        for m in review["moves_reviewed"]
        if m["judgement"] == "blunder" and m["best"] not in (None, m["move"])
    ]
    assert blunders, "random moves make no blunder: pick another seed"
    seat = blunders[0]["player"]
    page.click(f"[data-testid=mistakes-{seat}]")
    page.wait_for_selector(".puzzle-page[data-state=playing] .board-host[data-ply]")
    assert "neither proved nor rated" in page.inner_text(".puzzle-page")
    assert clean(page) == []
    mine = [m for m in blunders if m["player"] == seat]
    Player(page, puzzle_url).play(mine[0]["best"])
    page.wait_for_selector("[data-testid=result][data-solved=true]")
    assert mine[0]["best"] in page.inner_text("[data-testid=explain]")


def test_a_signed_in_learner_is_rated_on_the_account_once(
    page: Any, puzzle_url: str, screenshots: Path
) -> None:
    """Signed in, the first try rates the account (shown on #/puzzles and the dashboard);
    a second try says it changes nothing. The move is played by keyboard."""
    page.goto(f"{puzzle_url}/#/account")
    page.wait_for_selector("#signup-name")
    name = f"p{uuid.uuid4().hex[:10]}"
    page.fill("#signup-name", name)
    page.fill("#signup-password", "a long enough password")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=account-name]")
    page.goto(f"{puzzle_url}/#/puzzles")
    page.wait_for_selector("[data-puzzle-game]")
    assert f"Signed in as {name}" in page.inner_text("main")

    line = puzzle("uttt-0003")["solution"]
    open_puzzle(page, puzzle_url, "puzzles/id/uttt-0003")
    page.focus(f".board-host [data-cell={line[0]}]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=result][data-solved=true]")
    gain = page.inner_text("[data-testid=rating-change]")
    assert gain.startswith("+")
    board = page.evaluate("fetch('/api/account/puzzles').then(r => r.json())")
    assert board["games"]["uttt"]["solved"] == 1 and board["games"]["uttt"]["streak"] == 1
    assert board["recent"][0]["puzzle_id"] == "uttt-0003"
    rating = shown_rating(page, puzzle_url, "uttt")
    recent = page.locator("[data-testid=recent-puzzles] li").first
    assert recent.locator("a").inner_text() == "uttt-0003" and "solved" in recent.inner_text()
    assert clean(page) == []
    page.screenshot(path=str(screenshots / "puzzles-signed-in.png"), full_page=True)
    assert rating == board["games"]["uttt"]["shown"] and int(rating.rstrip("?")) > 1500

    open_puzzle(page, puzzle_url, "puzzles/id/uttt-0003")
    player = Player(page, puzzle_url)
    player.play(losing_move("uttt-0003"))
    page.wait_for_selector("[data-testid=result][data-solved=false]")
    assert "does not change your rating" in page.inner_text("[data-testid=rating-change]")
    assert shown_rating(page, puzzle_url, "uttt") == rating


def test_next_puzzle_moves_on_from_the_same_address(page: Any, puzzle_url: str) -> None:
    """#/puzzles/<game> then "Next puzzle": another puzzle, the one tried no more offered."""
    page.goto(f"{puzzle_url}/#/puzzles/sansumoku")
    page.wait_for_selector(".puzzle-page[data-state=playing] .board-host[data-ply]")
    first = page.get_attribute(".puzzle-page", "data-puzzle")
    assert first == "sansumoku-0002"  # nearest 1500
    Player(page, puzzle_url).play(losing_move(first))
    page.wait_for_selector("[data-testid=result][data-solved=false]")
    page.click("[data-action=next]")
    page.wait_for_function(
        "id => document.querySelector('.puzzle-page')?.dataset.puzzle !== id", arg=first
    )
    page.wait_for_selector(".puzzle-page[data-state=playing] .board-host[data-ply]")
    assert page.get_attribute(".puzzle-page", "data-puzzle") != first
