"""Clocks: the games' own time limits and optional time controls, as persisted deadlines.

Engines have no clocks; their states say what limit applies and the host
applies the move ``timeout`` when it passes. :func:`engine_clock` reads that
from a state's JSON, generically:

- a ``clock`` field ``{"key", "seconds", "move"}``, for any game that states its
  limit directly (``key`` names the period: a new key starts a new period);
- Sumodoku: ``phase == "claim"`` with ``claim_minutes`` (one period per claim);
- Sudoku Challenge: ``turn_seconds`` > 0 (one period per turn of the score sheet).

A time control (Fischer: ``initial_seconds`` each, plus ``increment_seconds``
per move) may be added to any game; the player whose time runs out loses.

All times are wall-clock epoch seconds and are stored with the game after
every move, so a restarted server resumes every clock where it stood: a
deadline that passed while the server was down is applied at once.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

TIMEOUT_MOVE = "timeout"


@dataclass(frozen=True)
class EngineClock:
    """A period with a limit that the game's rules impose (e.g. Sumodoku's claim)."""

    key: str
    seconds: float
    move: str = TIMEOUT_MOVE


def engine_clock(data: Mapping[str, Any]) -> EngineClock | None:
    """The limit that applies in the state whose JSON is ``data``, or ``None``."""
    if data.get("result") is not None:
        return None
    spec = data.get("clock")
    if isinstance(spec, Mapping) and spec.get("seconds"):
        return EngineClock(
            str(spec.get("key")), float(spec["seconds"]), str(spec.get("move") or TIMEOUT_MOVE)
        )
    minutes = data.get("claim_minutes")
    if data.get("phase") == "claim" and minutes:
        key = f"claim:{data.get('claimant')}:{data.get('claim_turn')}"
        return EngineClock(key, 60.0 * float(minutes))
    seconds = data.get("turn_seconds")
    if seconds:
        sheet = data.get("score_sheet")
        turn: Any = None
        if isinstance(sheet, list):
            turn = next(
                (
                    i
                    for i, row in enumerate(sheet)
                    if isinstance(row, Mapping) and row.get("status") == "playing"
                ),
                None,
            )
        if turn is None:
            turn = f"{data.get('round')}:{data.get('to_move')}:{data.get('ply')}"
        return EngineClock(f"turn:{turn}", float(seconds))
    return None


def check_time_control(value: Any) -> dict[str, float] | None:
    """A time control from a request, normalised; ``ValueError`` says what is wrong."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ValueError("time_control: expected an object {initial_seconds, increment_seconds}")
    unknown = set(value) - {"initial_seconds", "increment_seconds"}
    if unknown:
        raise ValueError(f"time_control: unknown field {sorted(unknown)[0]!r}")
    initial = value.get("initial_seconds")
    increment = value.get("increment_seconds", 0)
    for name, number in (("initial_seconds", initial), ("increment_seconds", increment)):
        if isinstance(number, bool) or not isinstance(number, int | float):
            raise ValueError(f"time_control: {name} must be a number")
    assert isinstance(initial, int | float) and isinstance(increment, int | float)
    if not 1 <= initial <= 7 * 86400:
        raise ValueError("time_control: initial_seconds must be from 1 to 604800")
    if not 0 <= increment <= 3600:
        raise ValueError("time_control: increment_seconds must be from 0 to 3600")
    return {"initial_seconds": float(initial), "increment_seconds": float(increment)}


@dataclass
class ClockState:
    """Where every clock of a game stands; stored as JSON with the game."""

    engine_key: str | None = None
    engine_move: str = TIMEOUT_MOVE
    engine_started: float | None = None
    engine_deadline: float | None = None
    remaining: list[float] | None = None
    """Seconds left for each seat under a time control (as of ``since`` for the running one)."""
    increment: float = 0.0
    running: int | None = None
    since: float | None = None

    @classmethod
    def start(cls, time_control: Mapping[str, float] | None, players: int) -> ClockState:
        clock = cls()
        if time_control:
            clock.remaining = [float(time_control["initial_seconds"])] * players
            clock.increment = float(time_control.get("increment_seconds", 0.0))
        return clock

    def to_json(self) -> dict[str, Any]:
        return {
            "engine_key": self.engine_key,
            "engine_move": self.engine_move,
            "engine_started": self.engine_started,
            "engine_deadline": self.engine_deadline,
            "remaining": self.remaining,
            "increment": self.increment,
            "running": self.running,
            "since": self.since,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> ClockState:
        if not data:
            return cls()
        return cls(
            engine_key=data.get("engine_key"),
            engine_move=data.get("engine_move") or TIMEOUT_MOVE,
            engine_started=data.get("engine_started"),
            engine_deadline=data.get("engine_deadline"),
            remaining=None if data.get("remaining") is None else list(data["remaining"]),
            increment=float(data.get("increment") or 0.0),
            running=data.get("running"),
            since=data.get("since"),
        )

    def copy(self) -> ClockState:
        return replace(self, remaining=None if self.remaining is None else list(self.remaining))

    @property
    def flag_deadline(self) -> float | None:
        """When the running seat's time-control clock falls."""
        if self.remaining is None or self.running is None or self.since is None:
            return None
        return self.since + self.remaining[self.running]

    @property
    def deadline(self) -> float | None:
        """The nearest deadline of any clock."""
        found = [d for d in (self.engine_deadline, self.flag_deadline) if d is not None]
        return min(found) if found else None

    def expired(self, now: float) -> str | None:
        """``"engine"`` or ``"flag"`` when that clock has run out at ``now``."""
        if self.engine_deadline is not None and now >= self.engine_deadline:
            return "engine"
        flag = self.flag_deadline
        if flag is not None and now >= flag:
            return "flag"
        return None

    def after_move(
        self, mover: int | None, to_move: int | None, data: Mapping[str, Any], now: float
    ) -> None:
        """Advances the clocks past a move by ``mover`` into the state whose JSON is ``data``."""
        if self.remaining is not None:
            if self.running is not None and self.since is not None:
                self.remaining[self.running] = max(
                    0.0, self.remaining[self.running] - (now - self.since)
                )
            if mover is not None and mover == self.running:
                self.remaining[mover] += self.increment
            over = data.get("result") is not None
            self.running = None if over else to_move
            self.since = None if over else now
        self.set_engine(engine_clock(data), now)

    def set_engine(self, spec: EngineClock | None, now: float) -> None:
        """Starts, keeps or stops the game's own clock: a new period key restarts it."""
        if spec is None:
            self.engine_key = None
            self.engine_started = None
            self.engine_deadline = None
            return
        if spec.key == self.engine_key and self.engine_deadline is not None:
            return
        self.engine_key = spec.key
        self.engine_move = spec.move
        self.engine_started = now
        self.engine_deadline = now + spec.seconds

    def stop(self, now: float) -> None:
        """Stops every clock (the game is over)."""
        if self.remaining is not None and self.running is not None and self.since is not None:
            self.remaining[self.running] = max(
                0.0, self.remaining[self.running] - (now - self.since)
            )
        self.running = None
        self.since = None
        self.engine_key = None
        self.engine_started = None
        self.engine_deadline = None

    def public(self, now: float | None = None) -> dict[str, Any] | None:
        """What clients see: remaining times as of ``now`` and the deadlines."""
        if self.remaining is None and self.engine_deadline is None:
            return None
        now = time.time() if now is None else now
        out: dict[str, Any] = {"now": now}
        if self.remaining is not None:
            left = list(self.remaining)
            if self.running is not None and self.since is not None:
                left[self.running] = max(0.0, left[self.running] - (now - self.since))
            out["remaining"] = left
            out["running"] = self.running
            out["increment"] = self.increment
            out["flag_deadline"] = self.flag_deadline
        if self.engine_deadline is not None:
            out["limit"] = {
                "key": self.engine_key,
                "started": self.engine_started,
                "deadline": self.engine_deadline,
                "seconds_left": max(0.0, self.engine_deadline - now),
                "move": self.engine_move,
            }
        return out
