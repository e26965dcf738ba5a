"""Driving the web app like a player: start games through the pages, read the
game from the server with this browser's own token, play moves by clicks
and keys, wait for the page to show what the server said."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

TURN_TIMEOUT_MS = 120_000
"""A computer's first move may wait for its search kernels to load."""


def api_get(base: str, path: str, token: str | None = None) -> Any:
    request = urllib.request.Request(base + path, headers={"Accept": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def api_post(base: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


class Player:
    """One browser tab playing (or watching) one game."""

    def __init__(self, page: Any, base: str) -> None:
        self.page = page
        self.base = base

    # -- starting ------------------------------------------------------------------

    def start(
        self,
        game: str,
        mode: str = "computer",
        level: str = "beginner",
        options: dict[str, Any] | None = None,
        players: int | None = None,
    ) -> str:
        """Starts a game from the game's page; answers its id."""
        page = self.page
        page.goto(f"{self.base}/#/game/{game}")
        page.wait_for_selector("form.play-form")
        page.check(f"input[name=mode][value={mode}]")
        if players is not None:
            page.select_option("#players-count", str(players))
        if mode == "computer":
            page.select_option("#level", level)
        if options:
            page.click("details.options summary")
            for name, value in options.items():
                field = page.locator(f"[name={name}]")
                if isinstance(value, bool):
                    field.set_checked(value)
                elif field.evaluate("e => e.tagName") == "SELECT":
                    field.select_option(str(value))
                else:
                    field.fill(str(value))
        page.click("[data-action=start]")
        page.wait_for_url(re.compile(r"#/play/\w+"))
        page.wait_for_selector("[data-testid=status] span")
        return self.game_id

    @property
    def game_id(self) -> str:
        found = re.search(r"#/(?:play|watch|replay)/(\w+)", self.page.url)
        assert found, self.page.url
        return found.group(1)

    @property
    def token(self) -> str | None:
        seats = self.page.evaluate("JSON.parse(localStorage.getItem('sansu.seats') || '{}')")
        entry = seats.get(self.game_id)
        return next(iter(entry["seats"].values())) if entry else None

    @property
    def invite_secret(self) -> str | None:
        """The join secret of a private game this tab created (its invitation's)."""
        invites = self.page.evaluate("JSON.parse(localStorage.getItem('sansu.invites') || '{}')")
        return invites.get(self.game_id)

    def game(self) -> dict[str, Any]:
        """The game as this tab's seat sees it, from the server."""
        return api_get(self.base, f"/api/games/{self.game_id}", self.token)

    # -- what the page shows --------------------------------------------------------

    def status(self) -> str:
        return self.page.inner_text("[data-testid=status]")

    def wait_over(self, timeout: float = 30_000) -> None:
        """Waits until the page shows the game over; if it never does, fails saying what
        the page shows instead and what the server holds (:meth:`failure`)."""
        try:
            self.page.wait_for_selector("[data-testid=status].over", timeout=timeout)
        except Exception as error:
            raise self.failure("the page never showed the game over") from error

    def failure(self, what: str) -> AssertionError:
        """``what`` went wrong, with what the page shows (its status, ply, last note, its
        socket's state) and what the server holds, so that a rare failure names its side."""
        shown = self.page.evaluate(
            """() => ({
              status: document.querySelector('[data-testid=status]')?.textContent,
              ply: document.querySelector('.board-host')?.dataset.ply,
              note: document.querySelector('[data-testid=explain]')?.textContent,
              reconnecting: document.body.innerText.includes('Connection lost'),
              url: location.href})"""
        )
        try:
            game = self.game()
            held = {k: game.get(k) for k in ("status", "state", "termination")}
            held["moves"] = [m.get("move") for m in game.get("moves", [])]
        except Exception as unread:  # the server's side is a clue, not the failure
            held = {"unread": repr(unread)}
        errors = getattr(self.page, "js_errors", None)
        return AssertionError(
            f"{what}: {shown}; the server: {held}; JavaScript errors: {errors}"
        )

    def shown_ply(self) -> int:
        return int(self.page.get_attribute(".board-host", "data-ply"))

    def wait_ply(self, ply: int, timeout: float = TURN_TIMEOUT_MS) -> None:
        try:
            self.page.wait_for_function(
                "n => Number(document.querySelector('.board-host')?.dataset.ply) >= n",
                arg=ply,
                timeout=timeout,
            )
        except Exception as error:
            raise self.failure(f"the page never showed ply {ply}") from error

    def wait_turn_or_end(self, timeout: float = TURN_TIMEOUT_MS, *, mine: bool = False) -> bool:
        """Waits until it is this tab's move (True) or the game is over (False).

        A tab holding every seat moves whenever anyone is to move; with ``mine``
        (an opponent elsewhere) only at "Your move"."""
        try:
            self.page.wait_for_function(
                """mine => {
                    const s = document.querySelector('[data-testid=status]');
                    const turn = mine ? /^Your move/ : /^(Your move|.* to move)/;
                    return s && (s.classList.contains('over') || turn.test(s.textContent));
                }""",
                arg=mine,
                timeout=timeout,
            )
        except Exception as error:
            raise self.failure("the page never showed its move or the game over") from error
        return "over" not in (self.page.get_attribute("[data-testid=status]", "class") or "")

    def cell(self, name: str) -> Any:
        return self.page.locator(f".board-host [data-cell={name}]")

    def label(self, name: str) -> str:
        return self.cell(name).get_attribute("aria-label") or ""

    # -- moving ------------------------------------------------------------------------

    def play(self, move: str, how: str = "click") -> None:
        """Plays ``move`` (``r5c5`` or ``r5c5=7``) through the board and waits for it to show."""
        before = self.shown_ply()
        cell, _, digit = move.partition("=")
        if how == "click" or not digit:
            self.cell(cell).click()
        else:
            self.cell(cell).focus()
        if digit:
            if how == "pad":
                self.page.click(f".side .digit-pad [data-digit='{digit}']")
            else:
                self.page.keyboard.press(digit)
        try:
            self.wait_ply(before + 1)
        except Exception as error:
            raise self.failure(f"{move} never showed as played") from error


GAMES = ("uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive")
STATIC_PAGES = (
    "#/",
    "#/lobby",
    "#/watch",
    "#/archive",
    *(f"#/game/{g}" for g in GAMES),
    *(f"#/rules/{g}" for g in GAMES),
    *(f"#/reference/{g}" for g in GAMES),
)
"""Every page that needs no game: the home page, the lists, each game's page, rules and
reference."""


def open_page(page: Any, base: str, address: str) -> None:
    """Goes to ``address`` (``#/rules/uttt``) and waits until the page has drawn itself."""
    page.goto(f"{base}/{address}")
    page.wait_for_selector("main h1, main h2, main .prose h1")
    page.wait_for_function(
        "() => !document.querySelector('.prose .muted')"
        " || !/^Loading/.test(document.querySelector('.prose .muted').textContent)"
    )
