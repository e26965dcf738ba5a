"""Brute-force defence for log-ins: failed attempts are counted per name and per client.

Counting uses the ``limits`` library's moving window, so a name or a client
that failed too often in the window is held back until old failures age out;
a success clears the name's count (not the client's, so one client cannot
reset its budget by logging in to its own account between guesses). On a
cluster the counts are in Redis; while it is away nothing is counted.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager

from limits import RateLimitItem, parse
from limits.errors import StorageError
from limits.storage import MemoryStorage, Storage
from limits.strategies import MovingWindowRateLimiter

log = logging.getLogger("sansu.server")

PER_NAME = "5/5minutes"
"""Failed log-ins into one name before it is held back: slows a guesser to a crawl."""
PER_CLIENT = "20/5minutes"
"""Failed log-ins from one client (any names): stops one address spraying many names."""


class LoginLimiter:
    """Counts failed log-ins; ``allowed`` says whether another attempt may be checked."""

    def __init__(
        self,
        *,
        per_name: str = PER_NAME,
        per_client: str = PER_CLIENT,
        storage: Storage | None = None,
    ) -> None:
        self._per_name: RateLimitItem = parse(per_name)
        self._per_client: RateLimitItem = parse(per_client)
        self._limiter = MovingWindowRateLimiter(storage or MemoryStorage())

    def allowed(self, name_key: str, client: str) -> bool:
        try:
            return self._limiter.test(
                self._per_name, "login-name", name_key
            ) and self._limiter.test(self._per_client, "login-client", client)
        except StorageError as error:  # a cluster's Redis away: the hashing still slows guesses
            log.warning("log-in limits cannot be read: %s", error)
            return True

    def failed(self, name_key: str, client: str) -> None:
        with self._unless_away():
            self._limiter.hit(self._per_name, "login-name", name_key)
            self._limiter.hit(self._per_client, "login-client", client)

    def succeeded(self, name_key: str, client: str) -> None:
        with self._unless_away():
            self._limiter.clear(self._per_name, "login-name", name_key)

    @staticmethod
    @contextmanager
    def _unless_away() -> Iterator[None]:
        try:
            yield
        except StorageError as error:
            log.warning("log-in limits cannot be counted: %s", error)

    def retry_after(self, name_key: str, client: str) -> int:
        """Seconds until a held-back name or client may try again (at least 1)."""
        waits = [1.0]
        for item, space, key in (
            (self._per_name, "login-name", name_key),
            (self._per_client, "login-client", client),
        ):
            stats = self._limiter.get_window_stats(item, space, key)
            if stats.remaining <= 0:
                waits.append(stats.reset_time - time.time())
        return max(1, math.ceil(max(waits)))
