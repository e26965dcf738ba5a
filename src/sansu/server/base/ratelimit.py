"""Limits per client (by address): requests of any kind, and games created.

Counting is done by the ``limits`` library (fixed windows, in memory on one
server; in Redis on a cluster, so that a client spreading its requests over
the nodes counts once: :func:`shared_storage`), with its asyncio storage: the threaded
one starts a timer thread every few milliseconds under load, and those
threads, contending for the GIL, slowed every commit several times over.
A client over a limit is refused with ``429 rate_limited`` in the usual
error shape, with ``Retry-After`` and ``detail.retry_after`` in seconds; a
socket gets the same ``error`` message and stays open. Limits are strings
such as ``"600/minute;20/second"``; ``None`` or ``""`` turns one off.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import FixedWindowRateLimiter
from limits.errors import StorageError
from limits.storage import storage_from_string

from sansu.server.base.errors import ApiError, send_error

log = logging.getLogger("sansu.server")

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]

REQUESTS = "1200/minute"
"""Default: HTTP requests to the API, socket connections and socket messages, per client."""
CREATES = "60/minute;1000/day"
"""Default: games created (new games, imported records, seats joined, seeks posted or
accepted, quick pairings asked) and reviews asked
for, per client."""
CREATE_PATHS = (
    "/api/games",
    "/api/records",
    "/api/lobby/seeks",
    "/api/lobby/pairing",
    "/api/tournaments",
)
ACCOUNTS = "20/minute;200/day"
"""Default: sign-ups and log-ins (each attempt, right or wrong), per client."""
ACCOUNT_PATHS = ("/api/account/signup", "/api/account/login")
IMPORTS = "100/day"
"""Default: records imported (``POST /api/records``, stored or refused), per client; over
it, ``429 too_many_imports``. Each record is bounded (the archive's caps), so a client
adds at most a few MiB a day to the database."""
IMPORT_PATH = "/api/records"
SOCKETS = 200
"""Default: game sockets one client address may hold open at once; past it, the socket is
closed with ``too_many_sockets`` (code 4429)."""


@dataclass(frozen=True)
class RateLimits:
    """The limits of a server (``None`` or ``""``: no limit of that kind)."""

    requests: str | None = REQUESTS
    creates: str | None = CREATES
    accounts: str | None = ACCOUNTS
    imports: str | None = IMPORTS
    sockets: int | None = SOCKETS


def _items(spec: str | None) -> list[RateLimitItem]:
    if not spec:
        return []
    try:
        return parse_many(spec)
    except ValueError as error:
        raise ValueError(f"bad rate limit {spec!r}: {error}") from None


def shared_storage(redis_url: str) -> Storage:
    """The ``limits`` asyncio storage in the Redis server of ``redis_url`` (a cluster's), on
    the ``redis`` client the cluster uses."""
    storage = storage_from_string(
        f"async+{redis_url}",
        implementation="redispy",
        wrap_exceptions=True,
        socket_timeout=2.0,
        socket_connect_timeout=2.0,
    )
    assert isinstance(storage, Storage)
    return storage


class Limiter:
    """Counts each client's requests and creations, and refuses what goes over.
    ``storage``: where the counts are kept (default: this process's memory)."""

    def __init__(self, limits: RateLimits | None = None, storage: Storage | None = None) -> None:
        limits = limits or RateLimits()
        self.requests = _items(limits.requests)
        self.creates = _items(limits.creates)
        self.accounts = _items(limits.accounts)
        self.imports = _items(limits.imports)
        self._limiter = FixedWindowRateLimiter(storage or MemoryStorage())
        self.refused = 0
        self.on_refusal: Callable[[str], None] | None = None
        """Told the code of each refusal (the server's metrics)."""

    async def hit(
        self, client: str, *, create: bool = False, account: bool = False, imports: bool = False
    ) -> None:
        """Counts one request of ``client``; raises ``ApiError(429)`` when over a limit.
        ``account``: a sign-up or log-in, which also counts against ``accounts``;
        ``imports``: a record imported, which also counts against ``imports``."""
        items = [("requests", i) for i in self.requests]
        if create:
            items += [("creates", i) for i in self.creates]
        if account:
            items += [("account requests", i) for i in self.accounts]
        try:
            await count(self._limiter, items, client, "this address")
            if imports:
                imported = [("record imports", i) for i in self.imports]
                await count(self._limiter, imported, client, "this address", "too_many_imports")
        except ApiError as error:
            self.refused += 1
            if self.on_refusal is not None:
                self.on_refusal(error.code)
            raise


async def count(
    limiter: FixedWindowRateLimiter,
    items: Iterable[tuple[str, RateLimitItem]],
    key: str,
    whose: str,
    code: str = "rate_limited",
) -> None:
    """Counts one of each ``(kind, limit)`` for ``key``; the first limit passed is refused
    429 ``code`` with the seconds to wait (``whose``: who is told, e.g. "this
    address")."""
    for kind, item in items:
        try:
            if await limiter.hit(item, kind, key):
                continue
            reset = (await limiter.get_window_stats(item, kind, key)).reset_time
        except StorageError as error:  # a cluster's Redis away: count nothing meanwhile
            log.warning("rate limits cannot be counted: %s", error)
            return
        wait = max(1, math.ceil(reset - time.time()))
        raise ApiError(
            429,
            code,
            f"too many {kind} from {whose} (limit {item}); try again in {wait} s",
            retry_after=wait,
        )


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class RateLimit:
    """ASGI middleware: applies :class:`Limiter` to every HTTP request under ``/api/``."""

    def __init__(self, app: ASGIApp, limiter: Limiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or not path.startswith("/api/"):
            await self.app(scope, receive, send)
            return
        post = scope.get("method") == "POST"
        create = post and (path in CREATE_PATHS or path.endswith(("/join", "/review", "/accept")))
        account = post and path in ACCOUNT_PATHS
        imports = post and path == IMPORT_PATH
        try:
            await self.limiter.hit(
                client_of(scope), create=create, account=account, imports=imports
            )
        except ApiError as error:
            retry = str(error.detail["retry_after"]).encode()
            await send_error(send, error, [(b"retry-after", retry)])
            return
        await self.app(scope, receive, send)
