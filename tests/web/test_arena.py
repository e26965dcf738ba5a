"""Arenas in the browser, as on lichess: each player's page follows them into every new
pairing without a click (the tournament page at the start, then each finished game's
page), moves are played and results counted; a player who lets a game go by without a
move is paused and not farmed, and comes back by joining again; a bot in an arena is
paired again and again and never paused. Screenshots of the tournament page at 1280
and 390 px; axe finds nothing on it."""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sansu
from tests.server.test_bots_e2e import bot_account
from tests.web.accessibility import violations
from tests.web.conftest import serving
from tests.web.helpers import TURN_TIMEOUT_MS, Player, api_get
from tests.web.test_account import PHONE, fits
from tests.web.test_tournaments import press, signed_in

WIDE = {"width": 1280, "height": 900}
FOLLOW_MS = 15_000
"""A new pairing reaches the pages at once (the news answers at each change); this only
bounds a failure."""


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server, given time to warm its computer players on a busy machine."""
    db = tmp_path_factory.mktemp("arena-db") / "games.db"
    sansu_bin = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"
    with serving(sansu_bin, db, wait=300) as url:
        yield url


def post(page: Any, path: str, body: dict[str, Any] | None = None) -> Any:
    """A signed-in write from the page (with its session's CSRF token)."""
    answer = page.evaluate(
        """async ([path, body]) => {
            const me = await (await fetch('/api/account')).json();
            const r = await fetch(path, {method: 'POST', headers: {'Content-Type':
                'application/json', 'X-CSRF-Token': me.csrf_token},
                body: body === null ? undefined : JSON.stringify(body)});
            return [r.status, await r.json()];
        }""",
        [path, body],
    )
    assert answer[0] in (200, 201), answer
    return answer[1]


def new_arena(page: Any, **extra: Any) -> str:
    body = {
        "format": "arena",
        "game": "uttt",
        "minutes": 20,
        "time_control": {"initial_seconds": 300, "increment_seconds": 0},
        **extra,
    }
    return post(page, "/api/tournaments", body)["id"]


def game_on(page: Any, other_than: str | None = None) -> str:
    """Waits until the page shows a game (another than ``other_than``): its id."""
    page.wait_for_url(
        lambda url: (
            (m := re.search(r"#/play/(\w+)$", url)) is not None and m.group(1) != other_than
        ),
        timeout=FOLLOW_MS,
    )
    page.wait_for_selector(".board-host[data-ply]")
    return page.url.rsplit("/", 1)[1]


def legal_move(base: str, gid: str) -> str:
    game = api_get(base, f"/api/games/{gid}")
    state = sansu.load_game(game["game"]).play_moves([m["move"] for m in game["moves"]])
    return str(state.legal_moves()[0])


def first_to_move(players: list[Player]) -> Player:
    """The player whose move it is (the first seat of an arena game varies)."""
    for p in players:
        p.page.wait_for_selector("[data-testid=status] .lead")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for p in players:
            if p.status().startswith("Your move"):
                return p
        players[0].page.wait_for_timeout(100)
    raise AssertionError([p.status() for p in players])


def resign(page: Any) -> None:
    """Resigns the page's game and waits for its end, or for the page to have left it: a
    page follows its player into the next pairing at once, so when an opponent is free
    (a bot) it may be gone before the end was seen (waiting on there cost that game)."""
    here = page.url
    page.once("dialog", lambda dialog: dialog.accept())
    press(page, "[data-action=resign]")
    page.wait_for_function(
        """here => location.href !== here
            || document.querySelector('[data-testid=status].over') !== null""",
        arg=here,
        timeout=TURN_TIMEOUT_MS,
    )


def scores(base: str, tid: str) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in api_get(base, f"/api/tournaments/{tid}")["standings"]}


@contextlib.contextmanager
def two_players(browser: Any, base: str) -> Iterator[dict[str, Any]]:
    """Two people signed in, each in their own browser: {name: page}; no script error."""
    (actx, alice, aname), (bctx, bob, bname) = signed_in(browser, base), signed_in(browser, base)
    errors: list[str] = []
    for page in (alice, bob):
        page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield {aname: alice, bname: bob}
    finally:
        actx.close()
        bctx.close()
    assert not errors, errors


def enter_and_start(base: str, tid: str, pages: list[Any]) -> None:
    """Every page joins the arena from its page; the first (its creator) starts it."""
    for page in pages:
        page.goto(f"{base}/#/tournament/{tid}")
        press(page, "button:has-text('Join')")
        page.wait_for_selector("button:has-text('Withdraw')")
    press(pages[0], "button:has-text('Start now')")


def test_an_arena_is_followed_across_three_pairings(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    with two_players(browser, server_url) as pages:
        (alice_name, alice), (bob_name, bob) = pages.items()
        alice.set_viewport_size(WIDE)
        tid = new_arena(alice, name="Evening arena")
        enter_and_start(server_url, tid, [alice, bob])
        players = {alice_name: Player(alice, server_url), bob_name: Player(bob, server_url)}
        losers = [bob_name, alice_name, bob_name]
        last: str | None = None
        ended = time.monotonic()
        for loser in losers:
            # Both pages land on the new game by themselves, the same one.
            gid = game_on(alice, last)
            assert game_on(bob, last) == gid
            print(f"both pages on game {gid} {time.monotonic() - ended:.2f} s after the last end")
            mover = first_to_move(list(players.values()))
            other = next(p for p in players.values() if p is not mover)
            mover.play(legal_move(server_url, gid))
            other.wait_ply(1)
            other.play(legal_move(server_url, gid))
            mover.wait_ply(2)
            resign(players[loser].page)
            ended = time.monotonic()
            last = gid
        # After the third game the pages go on to the fourth, by themselves too.
        fourth = game_on(alice, last)
        assert game_on(bob, last) == fourth
        shown = scores(server_url, tid)
        assert shown[alice_name]["score"] == 4 and shown[alice_name]["games"] == 3
        assert shown[bob_name]["score"] == 2 and shown[bob_name]["games"] == 3
        assert not shown[alice_name]["paused"] and not shown[bob_name]["paused"]
        # The tournament page shows the counts, and does not send its player away again.
        for page, name in ((alice, "wide"), (bob, "phone")):
            page.goto(f"{server_url}/#/tournament/{tid}")
            page.wait_for_selector(f"[data-player='{alice_name}'] [data-testid=score]:text('4')")
            assert page.text_content(f"[data-player='{bob_name}'] [data-testid=score]") == "2"
            assert page.locator("text=null").count() == 0
            fits(page)
            page.screenshot(path=str(screenshots / f"tournament-arena-{name}.png"), full_page=True)
        alice.wait_for_timeout(1500)  # news may come meanwhile: the page stays
        assert "#/tournament/" in alice.url and "#/tournament/" in bob.url


def test_a_player_who_does_not_move_is_paused_not_farmed(
    browser: Any, server_url: str, screenshots: Path
) -> None:
    with two_players(browser, server_url) as pages:
        (alice_name, alice), (bob_name, bob) = pages.items()
        # A one-minute clock: 20 s for a first move (docs/server.md, "Arena pairing").
        tid = new_arena(alice, time_control={"initial_seconds": 60, "increment_seconds": 0})
        enter_and_start(server_url, tid, [alice, bob])
        gid = game_on(alice)
        assert game_on(bob) == gid
        players = {alice_name: Player(alice, server_url), bob_name: Player(bob, server_url)}
        idle = first_to_move(list(players.values()))
        idle_name = next(n for n, p in players.items() if p is idle)
        mover_name = next(n for n in players if n != idle_name)
        mover = players[mover_name].page
        # The idle player does nothing: at the deadline the game is over, lost by them.
        mover.wait_for_selector("[data-testid=status].over", timeout=40_000)
        game = api_get(server_url, f"/api/games/{gid}")
        assert game["termination"] == "no_start" and game["moves"] == []
        note = mover.locator("[data-testid=tournament-next]")
        note.wait_for()
        assert "as soon as an opponent is free" in note.inner_text()
        assert not violations(mover)
        idle.page.wait_for_selector("[data-testid=tournament-next]:has-text('paused')")
        idle.page.screenshot(path=str(screenshots / "arena-game-paused.png"))
        shown = scores(server_url, tid)
        assert shown[idle_name]["paused"] and shown[mover_name]["score"] == 2
        # Not paired again: nothing farmed while the idle player is away.
        mover.wait_for_timeout(3000)
        t = api_get(server_url, f"/api/tournaments/{tid}")
        assert all(p["finished"] for r in t["rounds"] for p in r["pairings"])
        assert scores(server_url, tid)[mover_name]["score"] == 2
        assert "#/play/" + gid in mover.url
        # The idle player comes back: Join on the tournament page pairs them at once, and
        # both pages go to the new game.
        idle.page.goto(f"{server_url}/#/tournament/{tid}")
        idle.page.wait_for_selector("[data-testid=paused-note]")
        fits(idle.page)
        idle.page.screenshot(path=str(screenshots / "tournament-arena-paused.png"), full_page=True)
        press(idle.page, "button:has-text('Join')")
        again = game_on(idle.page)
        assert again != gid and game_on(mover, gid) == again


def test_a_bot_in_an_arena_is_paired_again_and_again(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    bot = f"arenabot{int(time.time() * 1000) % 10**8}"
    bot_account(server_url, bot, tmp_path / "token")
    ctx, page, name = signed_in(browser, server_url)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    tid = new_arena(page)
    process = subprocess.Popen(
        [sys.executable, "-m", "sansu", "bot", "--server", server_url,
         "--token-file", str(tmp_path / "token"), "--level", "beginner", "--tournament", tid],
        stdout=subprocess.DEVNULL, stderr=open(tmp_path / "bot.log", "wb"),  # noqa: SIM115
    )  # fmt: skip
    try:
        page.goto(f"{server_url}/#/tournament/{tid}")
        press(page, "button:has-text('Join')")
        page.wait_for_selector(f"[data-player='{bot}']", timeout=60_000)  # the bot entered
        played_with_a_bot(page, server_url, tid, bot, name)
        assert not violations(page)
    except Exception as error:  # what the bot and the tournament say, with the failure
        log = (tmp_path / "bot.log").read_text()[-3000:]
        state = api_get(server_url, f"/api/tournaments/{tid}")["standings"]
        raise AssertionError(f"{error}\nbot log:\n{log}\nstandings: {state}") from error
    finally:
        process.kill()
        process.wait(10)
        ctx.close()
    assert not errors, errors


def played_with_a_bot(page: Any, server_url: str, tid: str, bot: str, name: str) -> None:
    """Three games against the bot, each followed into by the page; the bot plays in each."""
    press(page, "button:has-text('Start now')")
    me = Player(page, server_url)
    last = None
    for _ in range(3):
        gid = game_on(page, last)
        # Whoever moves first, each side moves once (the bot through its stream), then
        # the person resigns.
        if not me.wait_turn_or_end(mine=True):
            raise AssertionError(f"game {gid} ended before the person moved")
        me.play(legal_move(server_url, gid))
        me.wait_ply(2)
        resign(page)
        assert api_get(server_url, f"/api/games/{gid}")["status"] == "finished"
        last = gid
    game_on(page, last)
    t = api_get(server_url, f"/api/tournaments/{tid}")
    shown = {s["name"]: s for s in t["standings"]}
    assert shown[bot]["games"] == 3 and shown[bot]["score"] >= 6
    assert not shown[bot]["paused"]
    for r in t["rounds"]:
        (p,) = r["pairings"]
        assert {x["name"] for x in p["players"]} == {bot, name}
        if p["finished"]:
            game = api_get(server_url, f"/api/games/{p['game_id']}")
            bot_seat = next(s["seat"] for s in game["seats"] if s["name"] == bot)
            assert any(m["seat"] == bot_seat for m in game["moves"])  # the bot played


def test_the_form_shows_only_the_chosen_formats_fields(browser: Any, server_url: str) -> None:
    ctx, page, _ = signed_in(browser, server_url)
    try:
        page.goto(f"{server_url}/#/tournaments")
        page.wait_for_selector("[data-testid=create-tournament]")

        def visible() -> set[str]:
            return {
                i
                for i in ("t-minutes", "t-rounds", "t-players")
                if page.locator(f"#{i}").is_visible()
            }

        page.select_option("#t-format", "arena")
        assert visible() == {"t-minutes"}
        page.select_option("#t-game", "challenge")
        assert visible() == {"t-minutes", "t-players"}
        page.select_option("#t-format", "swiss")
        assert visible() == {"t-rounds"}
        page.select_option("#t-format", "round_robin")
        assert visible() == set()
        page.set_viewport_size(PHONE)
        fits(page)
        # What is hidden is not sent.
        page.select_option("#t-game", "uttt")
        press(page, "[data-testid=create-tournament] button[type=submit]")
        page.wait_for_url("**/#/tournament/*")
        t = api_get(server_url, f"/api/tournaments/{page.url.rsplit('/', 1)[1]}")
        assert t["format"] == "round_robin" and t["minutes"] is None
        # No stray "null" under the buttons of the tournament page.
        page.wait_for_selector("button:has-text('Join')")
        assert "null" not in page.inner_text("main")
    finally:
        ctx.close()


def test_leaderboard_tabs_follow_the_home_pages_order(browser: Any, server_url: str) -> None:
    ctx = browser.new_context(viewport=WIDE)
    page = ctx.new_page()
    try:
        page.goto(f"{server_url}/#/")
        page.wait_for_selector(".cards [data-game]")
        home = page.eval_on_selector_all(
            ".cards [data-game]", "els => els.map(e => e.dataset.game)"
        )
        page.goto(f"{server_url}/#/leaderboard")
        page.wait_for_selector(".game-tabs a")
        tabs = page.eval_on_selector_all(
            ".game-tabs a", "els => els.map(e => e.getAttribute('href').split('/').pop())"
        )
        assert tabs == home and len(home) == 5
        assert page.get_attribute(".game-tabs a[aria-current=page]", "href").endswith(home[0])
    finally:
        ctx.close()
