"""The server's base: errors, the store and its schema, background tasks, rate limits,
metrics, logs, and the request shapes that several domains' routes share.

It imports nothing else of the server; every other package may import it.
"""

from __future__ import annotations

from sansu.server.base.background import Background
from sansu.server.base.errors import (
    ApiError,
    game_over,
    not_found,
    not_your_game,
    send_error,
    stale,
    token_required,
    wrong_token,
)
from sansu.server.base.logs import RequestIds, install_logging, log_config
from sansu.server.base.metrics import Metrics, MetricsEndpoint
from sansu.server.base.ratelimit import (
    Limiter,
    RateLimit,
    RateLimits,
    client_of,
    count,
    shared_storage,
)
from sansu.server.base.requests import (
    REQUEST,
    Auth,
    ErrorBody,
    GameChoice,
    GameId,
    GameName,
    OptionValue,
    SeatSpec,
    TimeControl,
    bearer,
    error_response,
    part,
    refusals,
)
from sansu.server.base.rows import Fenced, Rows, write_rows
from sansu.server.base.schema import Base, events, games, metadata, moves, seats
from sansu.server.base.store import Store, StoreError

__all__ = [
    "REQUEST",
    "ApiError",
    "Auth",
    "Background",
    "Base",
    "ErrorBody",
    "Fenced",
    "GameChoice",
    "GameId",
    "GameName",
    "Limiter",
    "Metrics",
    "MetricsEndpoint",
    "OptionValue",
    "RateLimit",
    "RateLimits",
    "RequestIds",
    "Rows",
    "SeatSpec",
    "Store",
    "StoreError",
    "TimeControl",
    "bearer",
    "client_of",
    "count",
    "error_response",
    "events",
    "game_over",
    "games",
    "install_logging",
    "log_config",
    "metadata",
    "moves",
    "not_found",
    "not_your_game",
    "part",
    "refusals",
    "seats",
    "send_error",
    "shared_storage",
    "stale",
    "token_required",
    "write_rows",
    "wrong_token",
]
