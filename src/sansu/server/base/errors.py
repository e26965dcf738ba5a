"""The server's refusals: one exception type, one JSON shape, for HTTP and WebSocket alike.

Every bad request is answered ``{"error": {"code": ..., "message": ...}}``
with a stable ``code`` that programs can test and a ``message`` that a person
can read (an illegal move's message is the engine's referee remark). A
refusal changes nothing on the server.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any


class ApiError(Exception):
    """A request the server refuses; ``status`` is the HTTP status."""

    def __init__(self, status: int, code: str, message: str, **detail: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.detail = detail

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.detail:
            body["detail"] = self.detail
        return {"error": body}


def not_found(game_id: str) -> ApiError:
    return ApiError(404, "no_such_game", f"there is no game {game_id!r} on this server")


def stale(seen: int, current: int) -> ApiError:
    return ApiError(
        409,
        "stale_state",
        f"the move was sent against state {seen}, but the game is at state {current}",
        state=current,
    )


def token_required() -> ApiError:
    return ApiError(401, "token_required", "this needs the seat's token (Authorization: Bearer …)")


def wrong_token() -> ApiError:
    return ApiError(403, "wrong_token", "this token holds no seat in this game")


def not_your_game() -> ApiError:
    return ApiError(403, "not_your_game", "your account holds no seat in this game")


def game_over() -> ApiError:
    return ApiError(409, "game_over", "the game is over")


async def send_error(
    send: Callable[[dict[str, Any]], Awaitable[None]],
    error: ApiError,
    headers: list[tuple[bytes, bytes]] | None = None,
) -> None:
    """Answers an HTTP request with ``error`` straight from ASGI middleware."""
    body = json.dumps(error.to_dict()).encode()
    await send(
        {
            "type": "http.response.start",
            "status": error.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
