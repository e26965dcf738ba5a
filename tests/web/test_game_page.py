"""The game page as two people play it: Sumodoku's claim (asked first, in sight on a phone,
urged when no colour fits, named where it fails), the pad with one's own pieces, digits
after a hint, the selection let go after the other side's move, a refused move explained
by the board, the clocks by the players' names on a phone, the Sansumoku stripe under the
digits. The other side moves through the API, so each test knows the position it sees."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sansu
from sansu.sudoku import random_solution
from tests.web import positions as P
from tests.web.helpers import Player, api_post, open_page
from tests.web.test_boards import open_gallery
from tests.web.test_clocks import post_move
from tests.web.test_newcomer import DESKTOP, PHONE, assert_fits, close, new_page

LAPTOP = {"width": 1280, "height": 800}
CLAIM = ".claim-btn"
DIALOG = "[data-testid=claim-dialog]"


def seat_game(base: str, game: str, **extra: Any) -> tuple[str, str, str]:
    """A game between two people: its id and the tokens of seats 0 and 1."""
    body = {"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], "take": [0], **extra}
    made = api_post(base, "/api/games", body)
    joined = api_post(base, f"/api/games/{made['id']}/join", {"seat": 1})
    return made["id"], made["token"], joined["token"]


def local_game(base: str, game: str, **extra: Any) -> tuple[str, str]:
    """A game whose two seats one token holds (two players at one screen)."""
    body = {"game": game, "seats": [{"kind": "human"}, {"kind": "human"}], "take": [0, 1], **extra}
    made = api_post(base, "/api/games", body)
    return made["id"], made["token"]


@contextmanager
def seated(
    browser: Any, base: str, gid: str, seats: list[int], token: str | None, viewport: dict
) -> Iterator[Player]:
    """A tab that holds ``seats`` of game ``gid`` with ``token`` (none: a spectator)."""
    page = new_page(browser, viewport)
    try:
        page.goto(f"{base}/#/")
        if token:
            entry = {gid: {"seats": {str(s): token for s in seats}, "at": 0}}
            page.evaluate("e => localStorage.setItem('sansu.seats', e)", json.dumps(entry))
        page.goto(f"{base}/#/{'play' if token else 'watch'}/{gid}")
        page.wait_for_selector("[data-testid=status] span")
        yield Player(page, base)
    finally:
        close(page)


def play_through(base: str, gid: str, token: str, moves: list[str], state: int = 0) -> int:
    """Plays ``moves`` through the API with ``token``; answers the new state number."""
    for move in moves:
        state = post_move(base, gid, token, move, state)["state"]
    return state


def claim_grid_moves() -> list[str]:
    """Fifteen turns each, every piece where a solved grid has its colour: a claim can win."""
    grid = random_solution(4)
    colours = ([1, 2, 3, 4, 9], [5, 6, 7, 8, 9])
    free = {p: [i for i in range(81) if grid[i] in colours[p]] for p in (0, 1)}
    moves = []
    for turn in range(30):
        p = turn % 2
        cell = free[p].pop(0 if p == 0 else -1)
        if grid[cell] == 9:
            free[1 - p] = [c for c in free[1 - p] if c != cell]
        moves.append(f"r{cell // 9 + 1}c{cell % 9 + 1}={grid[cell]}")
    return moves


def dead_grid_moves() -> list[str]:
    """Up to the first player's turn 16, where no colour fits r1c1 (a claim loses at once)."""
    moves = [
        "r1c4=1",
        "r4c1=5",
        "r1c5=2",
        "r5c1=6",
        "r1c6=3",
        "r6c1=7",
        "r1c7=4",
        "r7c1=8",
        "r2c2=9",
    ]
    state = sansu.load_game("sumodoku").play_moves(moves)
    while state.turn_number(0) < 16 or state.to_move != 0:  # type: ignore[attr-defined]
        move = next(m for m in state.legal_moves() if m.cell // 9 >= 4 and m.cell % 9 >= 3)  # type: ignore[attr-defined]
        moves.append(str(move))
        state = state.play(move)
    return moves


def in_view(page: Any, selector: str) -> dict[str, float]:
    """The box of ``selector``, asserted to be wholly inside the window (no scrolling)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], (selector, box, size)
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (selector, box, size)
    return box


def test_sumodoku_claim_is_asked_first_and_in_sight_on_a_phone(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    gid, token = local_game(server_url, "sumodoku")
    play_through(server_url, gid, token, claim_grid_moves())
    with seated(browser, server_url, gid, [0, 1], token, PHONE) as player:
        page = player.page
        page.wait_for_selector(f"{CLAIM}:visible")
        in_view(page, CLAIM)  # under the board with the pad, no scrolling
        assert page.locator(f".under-board {CLAIM}").count() == 1
        assert_fits(page, "Sumodoku with a claim open, 390 px")
        page.screenshot(path=str(screenshots / "game-sumodoku-claim-390.png"))
        page.click(CLAIM)
        dialog = page.locator(DIALOG)
        dialog.wait_for(state="visible")
        text = dialog.inner_text()
        assert "16 minutes" in text and "alone" in text and "lose" in text, text
        page.screenshot(path=str(screenshots / "game-sumodoku-claim-dialog-390.png"))
        # Keyboard: the focus starts on the safe answer; Escape claims nothing.
        assert page.evaluate("() => document.activeElement.dataset.answer") == "no"
        assert not violations_in(page)
        page.keyboard.press("Escape")
        dialog.wait_for(state="detached")
        assert page.evaluate("() => document.activeElement.classList.contains('claim-btn')")
        assert len(player.game()["moves"]) == 30
        # Asked again, and confirmed: the claim is made.
        page.keyboard.press("Enter")
        page.locator(DIALOG).wait_for(state="visible")
        page.click(f"{DIALOG} [data-answer=yes]")
        player.wait_ply(31)
        assert player.game()["moves"][30]["move"] == "sudoku"
        page.locator(".countdown").wait_for(state="visible")
    with seated(browser, server_url, gid, [0, 1], token, LAPTOP) as player:
        player.page.wait_for_selector(".countdown:visible")
    gid, token = local_game(server_url, "sumodoku")
    play_through(server_url, gid, token, claim_grid_moves())
    with seated(browser, server_url, gid, [0, 1], token, LAPTOP) as player:
        page = player.page
        page.wait_for_selector(f"{CLAIM}:visible")
        in_view(page, CLAIM)
        page.screenshot(path=str(screenshots / "game-sumodoku-claim-1280.png"))


def violations_in(page: Any) -> list[Any]:
    from tests.web.accessibility import violations

    return violations(page)


def test_a_claim_lost_at_once_names_the_cell(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    gid, token = local_game(server_url, "sumodoku")
    play_through(server_url, gid, token, dead_grid_moves())
    with seated(browser, server_url, gid, [0, 1], token, DESKTOP) as player:
        page = player.page
        page.click(CLAIM)
        page.click(f"{DIALOG} [data-answer=yes]")
        page.wait_for_selector("[data-testid=status].over")
        assert "no colour fits r1c1" in player.status(), player.status()
        assert "no colour fits r1c1" in page.inner_text("[data-testid=claim-note]")
        assert "is-dead" in (player.cell("r1c1").get_attribute("class") or "")
        assert "the claim failed here" in player.label("r1c1")
        assert page.locator(".board-host .cell.is-dead").count() == 1
        page.screenshot(path=str(screenshots / "game-sumodoku-claim-lost.png"))


def test_a_player_without_placement_is_told_to_claim_or_lose(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    gid, token = local_game(server_url, "sumodoku")
    play_through(server_url, gid, token, P.SUMODOKU_STUCK.split())
    with seated(browser, server_url, gid, [1], token, PHONE) as player:
        page = player.page
        must = "no colour of yours fits any cell: claim sudoku! or lose"
        assert must in player.status().lower(), player.status()
        assert must in page.inner_text("[data-testid=claim-note]").lower()
        assert "urgent" in (page.get_attribute(CLAIM, "class") or "")
        disabled = page.eval_on_selector_all(
            ".digit-pad .pad-key", "ks => ks.map(k => k.getAttribute('aria-disabled'))"
        )
        assert disabled == ["true"] * 9  # pieces in hand, but none fits
        in_view(page, CLAIM)
        page.screenshot(path=str(screenshots / "game-sumodoku-stuck-390.png"))
    with seated(browser, server_url, gid, [], None, PHONE) as watcher:
        status = watcher.status().lower()
        assert "no colour of second player's fits any cell: they must claim sudoku! or lose" in (
            status
        ), status
        assert watcher.page.locator(CLAIM).is_hidden()


def test_the_pad_shows_ones_own_pieces(browser: Any, server_url: str) -> None:
    gid, token0, token1 = seat_game(server_url, "sumodoku")
    state = play_through(server_url, gid, token0, ["r1c1=1"])
    with seated(browser, server_url, gid, [0], token0, DESKTOP) as player:
        page = player.page
        # The second player is to move: the pad still shows the first player's pieces.
        assert page.get_attribute(".digit-pad [data-digit='1']", "aria-label") == "1, 8 left"
        assert page.get_attribute(".digit-pad [data-digit='5']", "aria-label") == "5, 0 left"
        assert "8 left" in page.inner_text(".digit-pad [data-digit='1']")
        # The selection: a cell of one's own move lets go once the other side replies...
        player.cell("r9c9").click()
        post_move(server_url, gid, token1, "r5c5=5", state)
        player.wait_ply(2)
        player.play("r2c2=2", how="pad")
        assert "is-selected" in (player.cell("r2c2").get_attribute("class") or "")
        post_move(server_url, gid, token1, "r6c6=6", state + 2)
        player.wait_ply(4)
        assert page.locator(".board-host .cell.is-selected").count() == 0
        # ...but an empty cell chosen while waiting stays chosen: it is one's own target.
        player.play("r3c3=3", how="pad")
        player.cell("r7c7").click()
        post_move(server_url, gid, token1, "r4c4=7", state + 4)
        player.wait_ply(6)
        assert page.eval_on_selector_all(
            ".board-host .cell.is-selected", "cs => cs.map(c => c.dataset.cell)"
        ) == ["r7c7"]
    with seated(browser, server_url, gid, [], None, DESKTOP) as watcher:
        assert watcher.page.locator(".digit-pad").count() == 1
        assert watcher.page.locator(".digit-pad").is_hidden()  # a spectator places nothing


def test_digits_work_after_a_hint(browser: Any, server_url: str) -> None:
    gid, token = local_game(server_url, "sumodoku", options={"aids": True})
    with seated(browser, server_url, gid, [0, 1], token, DESKTOP) as player:
        page = player.page
        player.cell("r5c5").click()
        page.click("[data-action=hint]")
        page.wait_for_function(
            "() => /Colours that fit r5c5/.test("
            "document.querySelector('[data-testid=hint-result]')?.textContent || '')"
        )
        page.keyboard.press("3")
        player.wait_ply(1)
        assert player.game()["moves"][0]["move"] == "r5c5=3"


def test_the_selection_lets_go_after_the_computers_reply(page: Any, server_url: str) -> None:
    player = Player(page, server_url)
    player.start("uttt")
    player.play("r5c5")
    assert player.wait_turn_or_end(mine=True)
    assert page.locator(".board-host .cell.is-selected").count() == 0


def test_a_refused_move_is_explained_by_the_board(browser: Any, server_url: str) -> None:
    for viewport in (LAPTOP, {"width": 390, "height": 844}):
        page = new_page(browser, viewport)
        try:
            player = Player(page, server_url)
            player.start("uttt")
            player.play("r5c5")
            assert player.wait_turn_or_end(mine=True)
            allowed = {m[:4] for m in player.game()["view"]["legal_moves"]}
            wrong = next(
                f"r{r}c{c}"
                for r in range(1, 10)
                for c in range(1, 10)
                if f"r{r}c{c}" not in allowed
                and f"r{r}c{c}" != "r5c5"
                and not player.label(f"r{r}c{c}").split(": ")[1].startswith(("X", "O"))
            )
            player.cell(wrong).click()
            page.wait_for_function(
                "() => document.querySelector('[data-testid=explain]').textContent.length > 0"
            )
            explain = in_view(page, "[data-testid=explain]")
            board = page.locator(".board-host").bounding_box()
            gap = board["y"] - (explain["y"] + explain["height"])
            assert 0 <= gap < 80, (viewport, explain, board)  # just above the board
            said = page.inner_text("[data-testid=explain]")
            page.wait_for_function(  # and read out by the page's live region
                "t => document.getElementById('announcer')?.textContent === t", arg=said
            )
        finally:
            close(page)


def test_the_clocks_sit_by_the_players_names_on_a_phone(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    clock = {"initial_seconds": 300, "increment_seconds": 2}
    gid, token0, token1 = seat_game(server_url, "uttt", time_control=clock)
    play_through(server_url, gid, token0, ["r5c5"])
    post_move(server_url, gid, token1, "r4c4", 1)
    with seated(browser, server_url, gid, [0], token0, PHONE) as player:
        page = player.page
        page.wait_for_function(
            "() => /\\d:\\d\\d/.test(document.querySelector('[data-testid=strip-top] .clock')"
            "?.textContent || '')"
        )
        top = in_view(page, "[data-testid=strip-top]")
        bottom = in_view(page, "[data-testid=strip-bottom]")
        board = page.locator(".board-host").bounding_box()
        assert top["y"] + top["height"] <= board["y"] + 1
        assert bottom["y"] >= board["y"] + board["height"] - 1
        assert page.locator("[data-testid=strip-top] [data-seat='1'] .clock").is_visible()
        assert page.locator("[data-testid=strip-bottom] [data-seat='0'] .clock").is_visible()
        assert "you" in page.inner_text("[data-testid=strip-bottom]")
        assert page.locator(".side .seats .clock").first.is_hidden()  # not twice
        assert_fits(page, "UTTT with clocks, 390 px")
        page.screenshot(path=str(screenshots / "game-uttt-clocks-390.png"))
    with seated(browser, server_url, gid, [0], token0, LAPTOP) as player:
        page = player.page
        page.wait_for_selector(".side .seats .clock:visible")
        assert page.locator("[data-testid=strip-top]").is_hidden()
        page.screenshot(path=str(screenshots / "game-uttt-clocks-1280.png"))


def test_the_sansumoku_stripe_leaves_the_digits_readable(page: Any, static_url: str) -> None:
    open_gallery(page, static_url, [{"view": P.view("sansumoku", P.SANSUMOKU_WON)}])
    item = "[data-gallery-item='0']"
    assert page.locator(f"{item} .layer.over .win-stripe").count() == 0
    stripe = page.locator(f"{item} .layer.under .win-stripe")
    assert stripe.count() == 1  # under the cells, which carry the digits
    opacity, width = stripe.evaluate(
        "e => [getComputedStyle(e).opacity, getComputedStyle(e).strokeWidth]"
    )
    assert float(opacity) <= 0.6 and float(width.removesuffix("px")) <= 0.2  # of a cell


def test_the_analysis_bar_agrees_with_its_candidates_and_moves_name_their_movers(
    page: Any, server_url: str
) -> None:
    from tests.web.test_analysis import DEPTH, EVAL, leave, wait_for_analysis

    news: list[Any] = []
    page.on(
        "response",
        lambda r: r.request.method == "GET" and "/api/analysis/" in r.url and news.append(r),
    )
    # After one move the search's root (its mean over every move tried) said 56% while
    # its best candidates said 71-78%: the bar showed the one, the list the other.
    open_page(page, server_url, "#/analysis/sumodoku?moves=r5c5=1")
    wait_for_analysis(page)
    step, shown, text = page.evaluate(
        """([depth, bar, text]) => [Number(document.querySelector(depth).dataset.step),
          Number(document.querySelector(bar).dataset.chance),
          document.querySelector(text).textContent]""",
        [DEPTH, "[data-testid=eval-bar]", EVAL],
    )
    answer = next(r.json() for r in news if r.ok and r.json().get("step") == step)
    analysis = answer["analysis"]
    best = analysis["candidates"][0]["chance"]
    assert shown == best, (shown, analysis)
    assert f"{round(best * 100)}% winning chance" in text
    assert round(analysis["chance"] * 100) != round(best * 100)  # where they disagreed
    movers = page.eval_on_selector_all(
        "[data-testid=moves] .mover", "ms => ms.map(m => m.textContent.trim())"
    )
    assert movers == ["First player"]
    label = page.get_attribute("[data-testid=moves] button", "aria-label")
    assert label == "Move 1, First player (variation): r5c5=1"
    leave(page, server_url)
