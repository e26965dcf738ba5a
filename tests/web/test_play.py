"""Whole games against the computer, played through the pages by clicks and keys."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sansu.sudoku import solve
from tests.web.helpers import Player

MOVE_LIMIT = 200


def keyboard_to(player: Player, target: str) -> None:
    """Moves the board's selection to ``target`` with arrow keys only."""
    page = player.page
    current = page.get_attribute(".board-host .cell[tabindex='0']", "data-cell")
    page.focus(f".board-host [data-cell={current}]")
    r0, c0 = (int(x) for x in current[1:].split("c"))
    r1, c1 = (int(x) for x in target[1:].split("c"))
    for _ in range(abs(r1 - r0)):
        page.keyboard.press("ArrowDown" if r1 > r0 else "ArrowUp")
    for _ in range(abs(c1 - c0)):
        page.keyboard.press("ArrowRight" if c1 > c0 else "ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.cell") == target


def play_out(
    player: Player, choose: Any, how: str, shots: Any = None, name: str = ""
) -> dict[str, Any]:
    """Plays this tab's moves until the game ends; answers the finished game."""
    rng = random.Random(7)
    for turn in range(MOVE_LIMIT):
        if not player.wait_turn_or_end():
            break
        game = player.game()
        assert game["status"] == "active"
        assert player.shown_ply() == len(game["moves"])
        move = choose(game, rng)
        if move == "sudoku":  # a stuck Sumodoku player's claim
            before = player.shown_ply()
            player.page.click(".claim-btn")
            player.page.click("[data-testid=claim-dialog] [data-answer=yes]")  # asked first
            player.wait_ply(before + 1)
        elif move.startswith("erase "):  # a claimant takes back a piece
            before = player.shown_ply()
            player.cell(move.split()[1]).focus()
            player.page.keyboard.press("Delete")
            player.wait_ply(before + 1)
        elif how == "keys":
            cell, _, digit = move.partition("=")
            before = player.shown_ply()
            keyboard_to(player, cell)
            player.page.keyboard.press(digit or "Enter")
            player.wait_ply(before + 1)
        else:
            player.play(move, how)
        if shots is not None and turn == 3:
            player.page.screenshot(path=str(shots / f"play-{name}.png"))
    else:
        pytest.fail("the game did not end")
    game = player.game()
    assert game["status"] == "finished"
    return game


def placements(game: dict[str, Any]) -> list[str]:
    return [m for m in game["view"]["legal_moves"] if m[0] == "r"]


def any_placement(game: dict[str, Any], rng: random.Random) -> str:
    """A random placement; with none left, Sumodoku's claim or a claimant's take-back."""
    legal = game["view"]["legal_moves"]
    fallback = [m for m in legal if m == "sudoku" or m.startswith("erase ")]
    return rng.choice(placements(game) or fallback)


def check_end(player: Player, game: dict[str, Any]) -> None:
    status = player.status()
    result = game["result"]
    if result["draw"]:
        assert status.startswith("Draw")
    elif 0 in result["winners"]:
        assert status.startswith("You win")
    else:
        assert "you lose" in status
    assert player.page.locator("[data-testid=moves] li").count() == len(game["moves"])
    assert player.page.locator("[data-action=rematch]").is_visible()


@pytest.mark.parametrize(
    ("game_id", "how", "options"),
    [
        ("uttt", "click", None),
        ("sansumoku", "keys", None),
        ("thirtyfive", "keys", {"rows": 5, "cols": 5}),
        ("sumodoku", "pad", None),
    ],
)
def test_whole_game_against_the_computer(
    page: Any, server_url: str, screenshots: Any, game_id: str, how: str, options: Any
) -> None:
    player = Player(page, server_url)
    player.start(game_id, options=options)
    game = play_out(player, any_placement, how, screenshots, game_id)
    check_end(player, game)
    page.screenshot(path=str(screenshots / f"play-{game_id}-over.png"))


def test_whole_sudoku_challenge_with_an_error(page: Any, server_url: str, screenshots: Any) -> None:
    player = Player(page, server_url)
    player.start("challenge", options={"sequence": "express"})
    player.wait_turn_or_end()
    game = player.game()
    givens = game["view"]["givens"]
    solution = solve(givens)
    assert solution is not None
    empty = [i for i, c in enumerate(givens) if c in ".0"]
    # A wrong entry first: recorded, shown, and the cell must be corrected next.
    first = empty[0]
    name = f"r{first // 9 + 1}c{first % 9 + 1}"
    wrong = solution[first] % 9 + 1
    keyboard_to(player, name)
    page.keyboard.press(str(wrong))
    player.wait_ply(1)
    assert "wrong" in player.label(name) and "corrected" in player.label(name)
    assert page.locator(".ch-side .errors li").first.inner_text().startswith("Player 1")
    page.screenshot(path=str(screenshots / "play-challenge-error.png"))

    def correct(game: dict[str, Any], rng: random.Random) -> str:
        view = game["view"]
        if view["required_cell"]:
            cell = view["required_cell"]
        else:
            open_cells = sorted({m.split("=")[0] for m in view["legal_moves"] if "=" in m})
            cell = rng.choice(open_cells)
        r, c = (int(x) for x in cell[1:].split("c"))
        return f"{cell}={solution[(r - 1) * 9 + c - 1]}"

    game = play_out(player, correct, "keys")
    check_end(player, game)
    sheet = page.locator(".ch-side .sheet tbody tr").count()
    assert sheet == game["view"]["round"]
    page.screenshot(path=str(screenshots / "play-challenge-over.png"))


def test_a_resigned_uttt_board_tints_no_next_board(page: Any, server_url: str) -> None:
    player = Player(page, server_url)
    player.start("uttt")
    player.play("r5c5")
    player.wait_ply(2)  # the computer's reply sends us to one board
    assert page.locator(".board-host .allowed").count() == 1
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("[data-action=resign]")
    page.wait_for_selector("[data-testid=status].over")
    assert page.locator(".board-host .allowed").count() == 0
