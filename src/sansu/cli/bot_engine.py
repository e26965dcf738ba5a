"""The engine side of ``sansu bot``: one process per game speaking the ``sansu engine``
line protocol, its arguments, and the thinking budget of each move."""

from __future__ import annotations

import asyncio
from typing import Any

ENGINE_MARGIN = 60.0
"""Seconds an engine may take beyond its budget (its start-up included) before it is dead."""


def option_args(options: dict[str, Any]) -> list[str]:
    """A game's options as ``--option KEY=VALUE`` arguments of ``sansu engine``."""
    out: list[str] = []
    for key, value in sorted(options.items()):
        if value is None:
            continue
        text = str(value).lower() if isinstance(value, bool) else str(value)
        out += ["--option", f"{key}={text}"]
    return out


def think_ms(game: dict[str, Any], seat: int, untimed_ms: int) -> int:
    """The thinking budget of one move: a share of the clock, plus most of the increment."""
    clock = game.get("clock") or {}
    budget = float(untimed_ms)
    left = clock.get("remaining")
    if left is not None:
        remaining = float(left[seat])
        budget = remaining * 1000 / 25 + float(clock.get("increment") or 0) * 700
        budget = min(budget, remaining * 1000 / 3)
    limit = clock.get("limit")
    if limit is not None:
        budget = min(budget, float(limit["seconds_left"]) * 1000 / 2)
    return int(max(20, min(budget, 30_000)))


class EngineError(Exception):
    """The engine died, hung or answered nonsense."""


class Engine:
    """One engine process speaking the line protocol."""

    def __init__(self, argv: list[str]) -> None:
        self.argv = argv
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )

    async def _ask(self, command: str, timeout: float) -> str:
        """Sends ``command``; the answer's last line (``ok``, ``bestmove ...``)."""
        if self.process is None:
            await self.start()
        assert self.process is not None and self.process.stdin and self.process.stdout
        try:
            self.process.stdin.write((command + "\n").encode())
            await self.process.stdin.drain()
            while True:
                raw = await asyncio.wait_for(self.process.stdout.readline(), timeout)
                if not raw:
                    raise EngineError(f"the engine exited (status {self.process.returncode})")
                line = raw.decode(errors="replace").strip()
                if line.startswith(("ok", "bestmove", "error")):
                    return line
        except (TimeoutError, ConnectionError, BrokenPipeError) as error:
            raise EngineError(
                f"the engine did not answer {command.split()[0]!r}: {error}"
            ) from None

    async def best_move(self, moves: list[str], time_ms: int) -> str:
        answer = await self._ask("moves " + " ".join(moves), ENGINE_MARGIN)
        if answer != "ok":
            raise EngineError(f"the engine refused the position: {answer}")
        answer = await self._ask(f"go time_ms {time_ms}", time_ms / 1000 + ENGINE_MARGIN)
        if not answer.startswith("bestmove "):
            raise EngineError(f"the engine gave no move: {answer}")
        return answer.removeprefix("bestmove ").strip()

    async def close(self) -> None:
        process, self.process = self.process, None
        if process is None or process.returncode is not None:
            return
        try:
            assert process.stdin is not None
            process.stdin.write(b"quit\n")
            await process.stdin.drain()
            await asyncio.wait_for(process.wait(), 5)
        except (TimeoutError, ConnectionError, BrokenPipeError):
            process.kill()
            await process.wait()
