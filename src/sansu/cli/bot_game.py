"""One game of ``sansu bot``: follows the game's stream and answers on the bot's turns.

Also how the bot reads the server's answers: a refusal for good
(:class:`Refused`) or a moment's trouble worth retrying (:class:`ServerBusy`).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from sansu.cli.bot_engine import Engine, EngineError, option_args, think_ms

log = logging.getLogger("sansu.bot")


class BotGame:
    """One game of the bot: what its stream said, and the moves it answered."""

    def __init__(self, game_id: str, client: Any, engine: list[str], move_ms: int) -> None:
        """``client``: the bot's HTTP client; ``engine``: the command of its engine, to
        which the game and its options are added; ``move_ms``: the time per move of an
        untimed game."""
        self.id = game_id
        self.client = client
        self.engine_command = engine
        self.move_ms = move_ms
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
        client = self.client
        async with client.stream("GET", f"/api/bot/game/stream/{self.id}") as r:
            await check_stream(r)
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
                    [*self.engine_command, message["game"], *option_args(message["options"])]
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
        return await self.client.post(f"/api/bot/game/{self.id}/move", json=body)

    async def _maybe_move(self) -> None:
        you = self.full.get("you", [])
        if self.to_move not in you or self.posted == self.state:
            return
        budget = think_ms({"clock": self.clock}, self.to_move, self.move_ms)
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
        code = error_code(r)
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


def error_code(response: Any) -> str | None:
    """The ``error.code`` of an error answer, if it has one."""
    try:
        return response.json()["error"]["code"]
    except Exception:
        return None


async def check_stream(response: Any) -> None:
    """:func:`check` for a streamed answer (its body is read first when it is an error)."""
    if response.status_code >= 400:
        await response.aread()
    check(response)


def check(response: Any) -> None:
    """Raises :class:`ServerBusy` for an answer worth retrying, :class:`Refused` for a refusal."""
    if response.status_code < 400:
        return
    if response.status_code == 429 or response.status_code >= 500:
        raise ServerBusy(f"the server answered {response.status_code}")
    raise Refused(f"{response.status_code} {response.text[:200]}")
