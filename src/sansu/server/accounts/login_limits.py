"""Brute-force defence for log-ins: failed attempts are counted per (account, address),
per account from every address, and per address over every account.

An attempt is counted *before* its password is checked, in one atomic step per
count (``limits``' fixed-window ``hit``, which adds and compares at once, in
memory and in Redis), so concurrent guesses get no more checks than the limit;
an attempt refused by one count is taken back from the counts it already
added, so a refusal costs nobody anything. A right password takes its attempt
back from the account's and the address's counts and clears the (account,
address) count: the owner's address starts afresh, while one client still
cannot reset its budget over other accounts by logging in to its own.

Each count has several windows (``"5/5minutes;10/hour;20/day"``): past the
first the wait is minutes, past the next an hour, then a day, so repeated
failures wait longer and longer (backoff). The (account, address) count is
the tight one, which holds a guesser back without holding the owner back on
another address; the account's own count is looser, a ceiling on guesses
spread over many addresses; the address's count stops one address from
spraying many accounts. On a cluster the counts are in Redis; while it is
away nothing is counted (the hashing still slows guesses).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import MemoryStorage, Storage
from limits.strategies import FixedWindowRateLimiter

log = logging.getLogger("sansu.server")

PER_PAIR = "5/5minutes;10/hour;20/day"
"""Failed log-ins into one account from one address: the guesser's own budget."""
PER_ACCOUNT = "25/5minutes;100/hour;300/day"
"""Failed log-ins into one account from all addresses: each window is beyond what one
address may do alone (it needs 5, 10, then 15 addresses), yet bounds a spread guesser."""
PER_CLIENT = "20/5minutes;60/hour;200/day"
"""Failed log-ins from one address into any accounts: stops one address spraying names."""

Count = tuple[RateLimitItem, str, str]
"""One window of one count: the limit, its namespace and its key."""


@dataclass(frozen=True)
class Attempt:
    """A log-in attempt: ``allowed`` (then counted as failed until
    :meth:`LoginLimiter.succeeded`), or refused for ``retry_after`` seconds."""

    name_key: str
    client: str
    allowed: bool
    retry_after: int = 0
    counted: tuple[Count, ...] = field(default=(), repr=False)


class LoginLimiter:
    """Counts log-in attempts; :meth:`attempt` lets one through or refuses it."""

    def __init__(
        self,
        *,
        per_pair: str = PER_PAIR,
        per_account: str = PER_ACCOUNT,
        per_client: str = PER_CLIENT,
        storage: Storage | None = None,
    ) -> None:
        self._per_pair = parse_many(per_pair)
        self._per_account = parse_many(per_account)
        self._per_client = parse_many(per_client)
        self._limiter = FixedWindowRateLimiter(storage or MemoryStorage())
        self.on_failure: Callable[[str], None] | None = None
        """Told the reason of each failed log-in (the server's metrics)."""

    def failed(self, reason: str = "bad_credentials") -> None:
        """A log-in failed (a wrong password, or ``too_many_attempts``): for the metrics;
        the attempt itself was counted already."""
        if self.on_failure is not None:
            self.on_failure(reason)

    def _counts(self, name_key: str, client: str) -> list[Count]:
        pair = f"{name_key}\x00{client}"
        return [
            *((item, "login-pair", pair) for item in self._per_pair),
            *((item, "login-client", client) for item in self._per_client),
            *((item, "login-account", name_key) for item in self._per_account),
        ]

    def attempt(self, name_key: str, client: str) -> Attempt:
        """Counts one attempt into ``name_key`` from ``client`` (as failed, until it
        succeeds) or, if a count is full, counts nothing and says how long to wait."""
        counted: list[Count] = []
        try:
            for count in self._counts(name_key, client):
                counted.append(count)
                if not self._limiter.hit(*count):
                    self._take_back(counted)
                    self.failed("too_many_attempts")
                    return Attempt(name_key, client, False, self.retry_after(name_key, client))
        except StorageError as error:  # a cluster's Redis away: the hashing still slows guesses
            log.warning("log-in limits cannot be counted: %s", error)
            return Attempt(name_key, client, True)
        return Attempt(name_key, client, True, counted=tuple(counted))

    def succeeded(self, attempt: Attempt) -> None:
        """A right password: the attempt leaves the account's and the address's counts,
        and the (account, address) count starts afresh."""
        try:
            self._take_back([c for c in attempt.counted if c[1] != "login-pair"])
            for item, space, key in attempt.counted:
                if space == "login-pair":
                    self._limiter.clear(item, space, key)
        except StorageError as error:
            log.warning("log-in limits cannot be counted: %s", error)

    def _take_back(self, counted: list[Count]) -> None:
        # A fixed window is a counter: adding -1 takes one attempt back (``incr`` in
        # memory and Redis's INCRBY alike).
        for item, space, key in counted:
            self._limiter.storage.incr(item.key_for(space, key), item.get_expiry(), amount=-1)

    def _wait(self, count: Count) -> int:
        reset = self._limiter.get_window_stats(*count).reset_time
        return max(1, math.ceil(reset - time.time()))

    def retry_after(self, name_key: str, client: str) -> int:
        """Seconds until a held-back attempt into ``name_key`` from ``client`` may be
        made (at least 1): until every full window has passed."""
        waits = [1]
        try:
            for count in self._counts(name_key, client):
                if self._limiter.get_window_stats(*count).remaining <= 0:
                    waits.append(self._wait(count))
        except StorageError as error:
            log.warning("log-in limits cannot be read: %s", error)
        return max(waits)
