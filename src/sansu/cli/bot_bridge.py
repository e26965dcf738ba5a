"""The bot on the server (``sansu bot``): its event stream, its challenges, its games.

The :class:`Bridge` accepts the challenges that pass its :class:`Filters`
(declining the others, saying why), enters tournaments, starts a
:class:`~sansu.cli.bot_game.BotGame` for each game it gets, and retries
whatever the network or a restarting server interrupts.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sansu.cli.bot_engine import EngineError
from sansu.cli.bot_game import BotGame, Refused, ServerBusy, check, check_stream, error_code

log = logging.getLogger("sansu.bot")

RETRY_MIN = 0.5
RETRY_MAX = 10.0
"""Seconds between reconnection attempts: doubling from the first to the last."""
STREAM_TIMEOUT = 30.0
"""A stream silent this long (the server sends keep-alives every few seconds) is dead."""


@dataclass
class Filters:
    """Which challenges the bot accepts."""

    games: frozenset[str] | None = None
    rated: str = "any"
    timed: str = "any"
    min_seconds: float | None = None
    max_seconds: float | None = None

    def refusal(self, challenge: dict[str, Any]) -> str | None:
        """Why the bot declines ``challenge``, or ``None`` to accept it."""
        if self.games is not None and challenge["game"] not in self.games:
            return f"this bot plays {', '.join(sorted(self.games))}"
        if self.rated == "rated" and not challenge["rated"]:
            return "this bot plays rated games only"
        if self.rated == "casual" and challenge["rated"]:
            return "this bot plays casual games only"
        tc = challenge.get("time_control")
        if tc is None:
            if self.timed == "timed" or self.min_seconds is not None:
                return "this bot plays timed games only"
            return None
        if self.timed == "untimed":
            return "this bot plays untimed games only"
        initial = tc["initial_seconds"]
        if self.min_seconds is not None and initial < self.min_seconds:
            return f"this bot needs at least {self.min_seconds:g} s"
        if self.max_seconds is not None and initial > self.max_seconds:
            return f"this bot plays games of at most {self.max_seconds:g} s"
        return None


@dataclass
class Bridge:
    """The bot on the server: its event stream, its challenges and its games."""

    client: Any
    engine: list[str]
    filters: Filters = field(default_factory=Filters)
    max_games: int = 4
    move_ms: int = 1000
    quit_after: int | None = None
    log_dir: Path | None = None
    me: dict[str, Any] = field(default_factory=dict)
    games: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    tournaments: list[str] = field(default_factory=list)
    ended: int = 0
    done: asyncio.Event = field(default_factory=asyncio.Event)

    async def _retrying(self, what: str, fn: Any) -> Any:
        """``fn()`` until it gets through: the server may be restarting."""
        import httpx

        wait = RETRY_MIN
        while True:
            try:
                return await fn()
            except (httpx.TransportError, ServerBusy) as error:
                log.warning("%s: %s; retrying in %.1f s", what, error or type(error).__name__, wait)
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_MAX)

    async def run(self, challenge: dict[str, Any] | None = None) -> int:
        async def whoami() -> dict[str, Any]:
            r = await self.client.get("/api/bot/account")
            check(r)
            return r.json()

        try:
            self.me = await self._retrying("connecting", whoami)
        except Refused as error:
            log.error("the server refused the token: %s", error)
            return 1
        log.info("signed in as %s (BOT)", self.me["name"])
        events = asyncio.create_task(self._events())
        if challenge is not None:
            await self._challenge(challenge)
        for tid in self.tournaments:
            if not await self._enter(tid):
                events.cancel()
                return 1
        watch = asyncio.create_task(self._watch_tournaments()) if self.tournaments else None
        stop = asyncio.create_task(self.done.wait())
        await asyncio.wait({events, stop}, return_when=asyncio.FIRST_COMPLETED)
        for task in (events, stop, watch, *self.games.values()):
            if task is not None:
                task.cancel()
        failed = events.done() and not events.cancelled() and events.exception() is not None
        return 1 if failed else 0

    async def _enter(self, tid: str) -> bool:
        """Enters tournament ``tid`` (already entered is fine); false if refused."""

        async def send() -> Any:
            r = await self.client.post(f"/api/bot/tournament/{tid}/join")
            if r.status_code == 409 and error_code(r) == "already_entered":
                return None
            check(r)
            return r.json()

        try:
            await self._retrying(f"entering tournament {tid}", send)
        except Refused as error:
            log.error("entering tournament %s was refused: %s", tid, error)
            return False
        log.info("entered tournament %s", tid)
        return True

    async def _watch_tournaments(self, every: float = 2.0) -> None:
        """Sets ``done`` once every tournament entered is over and no game is left."""

        async def status(tid: str) -> str:
            r = await self.client.get(f"/api/tournaments/{tid}")
            check(r)
            return r.json()["status"]

        while True:
            await asyncio.sleep(every)
            over = [await self._retrying(f"tournament {t}", lambda t=t: status(t)) == "finished"
                    for t in self.tournaments]  # fmt: skip
            if all(over) and all(t.done() for t in self.games.values()):
                log.info("tournaments over: %s", ", ".join(self.tournaments))
                self.done.set()
                return

    async def _challenge(self, body: dict[str, Any]) -> None:
        name = body.pop("name")

        async def send() -> Any:
            r = await self.client.post(f"/api/challenge/{name}", json=body)
            check(r)
            return r.json()

        try:
            made = await self._retrying("challenging", send)
            log.info("challenged %s: challenge %s", name, made["id"])
        except Refused as error:
            log.error("challenging %s was refused: %s", name, error)

    async def _events(self) -> None:
        async def follow() -> None:
            async with self.client.stream("GET", "/api/bot/stream/events") as r:
                await check_stream(r)
                async for line in r.aiter_lines():
                    if line.strip():
                        await self._event(json.loads(line))
            raise ServerBusy("the event stream ended")

        await self._retrying("event stream", follow)

    async def _event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            await self._answer(event["challenge"])
        elif kind == "tournamentPairing":
            t = event["tournament"]
            log.info("tournament %s round %s: game %s", t["id"], t["round"], t["game_id"])
        elif kind == "gameStart":
            game_id = event["game"]["id"]
            task = self.games.get(game_id)
            if task is None or task.done():
                opponent = event["game"].get("opponent") or {}
                tid = event["game"].get("tournament")
                log.info(
                    "game %s (%s) against %s%s%s",
                    game_id,
                    event["game"]["game"],
                    opponent.get("name"),
                    " (BOT)" if opponent.get("bot") else "",
                    f" in tournament {tid}" if tid else "",
                )
                self.games[game_id] = asyncio.create_task(self._game(game_id))
        elif kind == "serverShutdown":
            raise ServerBusy("the server is stopping")

    async def _answer(self, challenge: dict[str, Any]) -> None:
        if challenge["dest"]["id"] != self.me["id"] or challenge["status"] != "open":
            return
        busy = sum(not t.done() for t in self.games.values()) >= self.max_games
        reason = "this bot is busy: try later" if busy else self.filters.refusal(challenge)
        answer = "decline" if reason else "accept"
        r = await self.client.post(
            f"/api/bot/challenge/{challenge['id']}/{answer}",
            json={"reason": reason} if reason else None,
        )
        who = challenge["challenger"]["name"]
        if r.status_code == 200:
            done = {"accept": "accepted", "decline": "declined"}[answer]
            log.info("%s the challenge of %s%s", done, who, f" ({reason})" if reason else "")
        else:
            log.warning("could not %s the challenge of %s: %s", answer, who, r.text[:200])

    async def _game(self, game_id: str) -> None:
        game = BotGame(game_id, self.client, self.engine, self.move_ms)
        try:
            await self._retrying(f"game {game_id}", game.follow)
        except Refused as error:
            log.error("game %s: %s", game_id, error)
        except EngineError as error:
            log.error("game %s: %s twice; resigning", game_id, error)
            await self.client.post(f"/api/bot/game/{game_id}/resign")
        finally:
            await game.engine.close()
        await self._ended(game)

    async def _ended(self, game: BotGame) -> None:
        log.info("game %s over: %s", game.id, json.dumps(game.result))
        if self.log_dir is not None:
            try:
                r = await self.client.get(f"/api/games/{game.id}/record")
                check(r)
                self.log_dir.mkdir(parents=True, exist_ok=True)
                (self.log_dir / f"{game.id}.json").write_text(r.text)
            except Exception as error:  # a record lost is no reason to stop playing
                log.warning("could not save the record of %s: %s", game.id, error)
        self.ended += 1
        if self.quit_after is not None and self.ended >= self.quit_after:
            self.done.set()
