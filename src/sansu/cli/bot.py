"""``sansu bot``: puts any program that speaks the ``sansu engine`` line protocol on a
server as a bot.

The bridge follows the bot's event stream, accepts the challenges that pass
its filters (and declines the others, saying why), and plays each game it
gets: it follows the game's stream, and on its turn sets the position
(``moves ...``) and asks for a move within its clock (``go time_ms N``).
With ``--tournament ID`` it enters the tournament at start, plays every
pairing it is given (they come as ``gameStart`` like a challenge's game),
and exits once the tournament is over.
Each game runs its own engine process: the command given, plus the game's
id and ``--option KEY=VALUE`` for each of its options. When the network or
the server goes away it reconnects, and the game streams' full state
(``gameFull``) resumes every game where it stands. Every game is logged;
with ``--log-dir`` its record is saved there as ``GAME_ID.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sansu.cli.bot_engine import Engine, EngineError, option_args, think_ms
from sansu.cli.main import UsageError

log = logging.getLogger("sansu.bot")

RETRY_MIN = 0.5
RETRY_MAX = 10.0
"""Seconds between reconnection attempts: doubling from the first to the last."""
STREAM_TIMEOUT = 30.0
"""A stream silent this long (the server sends keep-alives every few seconds) is dead."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "bot",
        help="run a program speaking the engine protocol as a bot on a server",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--server", required=True, metavar="URL", help="e.g. https://sansu.example")
    parser.add_argument(
        "--token-file", required=True, metavar="F", help="file holding the bot's API token"
    )
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument(
        "--engine",
        metavar='"CMD ARGS"',
        help="the program to run for each game (it gets GAME and --option KEY=VALUE appended)",
    )
    engine.add_argument(
        "--level",
        metavar="NAME",
        help="a built-in level: short for --engine 'sansu engine --level NAME'",
    )
    parser.add_argument(
        "--games", metavar="IDS", help="accept only these games, comma-separated (default: all)"
    )
    parser.add_argument(
        "--rated", choices=("any", "rated", "casual"), default="any", help="(default: any)"
    )
    parser.add_argument(
        "--timed", choices=("any", "timed", "untimed"), default="any", help="(default: any)"
    )
    parser.add_argument(
        "--min-seconds", type=float, default=None, help="least initial time accepted"
    )
    parser.add_argument(
        "--max-seconds", type=float, default=None, help="most initial time accepted"
    )
    parser.add_argument(
        "--max-games", type=int, default=4, help="games at once; more are declined (default 4)"
    )
    parser.add_argument(
        "--move-ms", type=int, default=1000, help="thinking time per move of an untimed game"
    )
    parser.add_argument("--challenge", metavar="NAME", help="challenge this account once at start")
    parser.add_argument("--challenge-game", default="uttt", metavar="GAME", help="(default uttt)")
    parser.add_argument(
        "--challenge-time",
        default=None,
        metavar="INITIAL+INCREMENT",
        help="the challenge's time control in seconds, e.g. 60+1 (default: untimed)",
    )
    parser.add_argument("--challenge-rated", action="store_true", help="a rated challenge")
    parser.add_argument(
        "--tournament",
        action="append",
        default=[],
        metavar="ID",
        help="enter this tournament at start (repeatable), play all its games and exit "
        "when every one entered is over",
    )
    parser.add_argument(
        "--quit-after", type=int, default=None, metavar="N", help="exit after N games ended"
    )
    parser.add_argument("--log-dir", metavar="DIR", help="save each finished game's record here")
    parser.set_defaults(func=run)


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


def engine_command(args: argparse.Namespace) -> list[str]:
    if args.engine:
        argv = shlex.split(args.engine)
        if not argv:
            raise UsageError("sansu bot: --engine is empty")
        return argv
    return [sys.executable, "-m", "sansu", "engine", "--level", args.level or "medium"]


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
            _check(r)
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
            if r.status_code == 409 and _code(r) == "already_entered":
                return None
            _check(r)
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
            _check(r)
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
            _check(r)
            return r.json()

        try:
            made = await self._retrying("challenging", send)
            log.info("challenged %s: challenge %s", name, made["id"])
        except Refused as error:
            log.error("challenging %s was refused: %s", name, error)

    async def _events(self) -> None:
        async def follow() -> None:
            async with self.client.stream("GET", "/api/bot/stream/events") as r:
                await _check_stream(r)
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
            log.info("%sed the challenge of %s%s", answer, who, f" ({reason})" if reason else "")
        else:
            log.warning("could not %s the challenge of %s: %s", answer, who, r.text[:200])

    async def _game(self, game_id: str) -> None:
        game = Game(game_id, self)
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

    async def _ended(self, game: Game) -> None:
        log.info("game %s over: %s", game.id, json.dumps(game.result))
        if self.log_dir is not None:
            try:
                r = await self.client.get(f"/api/games/{game.id}/record")
                _check(r)
                self.log_dir.mkdir(parents=True, exist_ok=True)
                (self.log_dir / f"{game.id}.json").write_text(r.text)
            except Exception as error:  # a record lost is no reason to stop playing
                log.warning("could not save the record of %s: %s", game.id, error)
        self.ended += 1
        if self.quit_after is not None and self.ended >= self.quit_after:
            self.done.set()


class Game:
    """One game of the bot: what its stream said, and the moves it answered."""

    def __init__(self, game_id: str, bridge: Bridge) -> None:
        self.id = game_id
        self.bridge = bridge
        self.engine = Engine([])
        self.moves: list[str] = []
        self.full: dict[str, Any] = {}
        self.state = -1
        self.to_move: int | None = None
        self.status = "active"
        self.result: Any = None
        self.clock: Any = None
        self.legal: list[str] = []
        self.posted = -1
        """The state number we last sent a move for."""

    async def follow(self) -> None:
        """Reads the game's stream to its end, answering on the bot's turns."""
        client = self.bridge.client
        async with client.stream("GET", f"/api/bot/game/stream/{self.id}") as r:
            await _check_stream(r)
            async for line in r.aiter_lines():
                if not line.strip():
                    continue
                message = json.loads(line)
                if message.get("type") == "serverShutdown":
                    break
                self._update(message)
                if self.status != "active":
                    return
                if self.engine.process is None:
                    await self.engine.start()  # its start-up overlaps the opponent's turn
                await self._maybe_move()
        raise ServerBusy("the game stream ended")

    def _update(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "gameFull":
            self.full = message
            if not self.engine.argv:
                self.engine = Engine(
                    [*self.bridge.engine, message["game"], *option_args(message["options"])]
                )
            self.moves = [m["move"] for m in message["moves"]]
            self._position(message)
        elif kind == "move":
            self.moves.append(message["move"])
            self._position(message)
        elif kind == "takeback":
            del self.moves[message["ply"] :]
            self._position(message)
        elif kind == "game_over":
            self.status = "finished"
            self.result = message.get("result")

    def _position(self, message: dict[str, Any]) -> None:
        self.state = message["state"]
        view = message.get("view") or {}
        self.to_move = view.get("to_move")
        self.legal = list(view.get("legal_moves") or [])
        self.status = message.get("status", self.status)
        self.result = message.get("result", self.result)
        self.clock = message.get("clock", self.clock)

    async def _send(self, move: str) -> Any:
        """Posts ``move`` for the current state number (the body form: any move text)."""
        body = {"move": move, "state": self.state}
        return await self.bridge.client.post(f"/api/bot/game/{self.id}/move", json=body)

    async def _maybe_move(self) -> None:
        you = self.full.get("you", [])
        if self.to_move not in you or self.posted == self.state:
            return
        budget = think_ms({"clock": self.clock}, self.to_move, self.bridge.move_ms)
        try:
            move = await self.engine.best_move(self.moves, budget)
        except EngineError as error:
            log.error("game %s: %s; restarting the engine", self.id, error)
            await self.engine.close()
            move = await self.engine.best_move(self.moves, budget)
        r = await self._send(move)
        if r.status_code == 200:
            self.posted = self.state
            return
        code = _code(r)
        log.warning("game %s: move %s refused: %s", self.id, move, r.text[:200])
        if code == "illegal_move" and self.legal:
            r = await self._send(self.legal[0])
            if r.status_code == 200:
                self.posted = self.state
        elif r.status_code >= 500:
            raise ServerBusy(f"the server answered {r.status_code}")


class Refused(Exception):
    """The server refused for good (a bad token, a game that is not ours)."""


class ServerBusy(Exception):
    """Worth trying again shortly (a restart, a stream that ended)."""


def _code(response: Any) -> str | None:
    try:
        return response.json()["error"]["code"]
    except Exception:
        return None


async def _check_stream(response: Any) -> None:
    if response.status_code >= 400:
        await response.aread()
    _check(response)


def _check(response: Any) -> None:
    if response.status_code < 400:
        return
    if response.status_code == 429 or response.status_code >= 500:
        raise ServerBusy(f"the server answered {response.status_code}")
    raise Refused(f"{response.status_code} {response.text[:200]}")


def run(args: argparse.Namespace) -> int:
    import httpx

    try:
        token = Path(args.token_file).read_text().strip()
    except OSError as error:
        raise UsageError(f"sansu bot: cannot read the token file: {error.strerror}") from None
    if not token:
        raise UsageError("sansu bot: the token file is empty")
    if args.max_games < 1 or args.move_ms < 1:
        raise UsageError("sansu bot: --max-games and --move-ms must be positive")
    games = None
    if args.games:
        from sansu.core.registry import game_class

        try:
            games = frozenset(game_class(g.strip()).id for g in args.games.split(","))
        except ValueError as error:
            raise UsageError(f"sansu bot: --games: {error}") from None
    challenge = None
    if args.challenge:
        challenge = {
            "name": args.challenge,
            "game": args.challenge_game,
            "rated": args.challenge_rated,
        }
        if args.challenge_time:
            initial, _, increment = args.challenge_time.partition("+")
            try:
                challenge["time_control"] = {
                    "initial_seconds": float(initial),
                    "increment_seconds": float(increment or 0),
                }
            except ValueError:
                raise UsageError(
                    "sansu bot: --challenge-time is INITIAL+INCREMENT seconds"
                ) from None
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s sansu bot: %(message)s", stream=sys.stderr
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    timeout = httpx.Timeout(10.0, read=STREAM_TIMEOUT)

    async def main() -> int:
        async with httpx.AsyncClient(
            base_url=args.server.rstrip("/"),
            headers={"Authorization": f"Bearer {token}"},
            timeout=timeout,
        ) as client:
            bridge = Bridge(
                client,
                engine_command(args),
                Filters(games, args.rated, args.timed, args.min_seconds, args.max_seconds),
                max_games=args.max_games,
                move_ms=args.move_ms,
                quit_after=args.quit_after,
                tournaments=list(dict.fromkeys(args.tournament)),
                log_dir=None if args.log_dir is None else Path(args.log_dir),
            )
            return await bridge.run(challenge)

    return asyncio.run(main())
