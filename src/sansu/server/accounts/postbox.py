"""The recovery desk: what the email routes share — the mailer (or none), the public
address the links point to, the clock, and the limits on reset requests.

A link's address comes from ``--public-url`` (or the listener's own address), never
from a request's ``Host`` header: a forged header would otherwise send the owner a
link to another site, which would then receive the token when followed. The token is
in the link's fragment (``/#/reset/TOKEN``), which a browser never sends to a server,
so it reaches no access log; the page posts it in a body.

Mails asked for are limited per client address and per target (for a reset, the name
or address typed, whether or not an account has it; for a verification, the address),
so that nobody floods an inbox and the limit itself tells nothing about who exists.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine
from typing import Any

from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from sansu.server.accounts.mail import Mailer
from sansu.server.accounts.recovery import RESET, Letter
from sansu.server.base import Background

PER_CLIENT = "10/hour;30/day"
"""Requests of one kind of mail from one client address."""
PER_TARGET = "3/hour;10/day"
"""Requests of one kind of mail for one name or address, from anywhere."""


class Postbox:
    """Sends the account links; ``mailer`` ``None``: email is not configured here."""

    def __init__(
        self,
        mailer: Mailer | None,
        public_url: str,
        *,
        clock: Callable[[], float] = time.time,
        per_client: str = PER_CLIENT,
        per_target: str = PER_TARGET,
    ) -> None:
        self.mailer = mailer
        self.public_url = public_url.rstrip("/")
        self.clock = clock
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._per_client = parse_many(per_client)
        self._per_target = parse_many(per_target)
        self.background = Background()

    @property
    def configured(self) -> bool:
        return self.mailer is not None

    def link(self, letter: Letter) -> str:
        return f"{self.public_url}/#/{letter.purpose}/{letter.token}"

    def allow(self, purpose: str, client: str, target: str) -> bool:
        """Counts a request for a mail of ``purpose`` (``reset``, ``verify``); ``False`` past
        a limit (then nothing is counted)."""
        counts = [(item, "client", client) for item in self._per_client] + [
            (item, "target", target.strip().lower()[:254]) for item in self._per_target
        ]
        if not all(self._limiter.test(item, purpose, kind, key) for item, kind, key in counts):
            return False
        for item, kind, key in counts:
            self._limiter.hit(item, purpose, kind, key)
        return True

    def send(self, letter: Letter) -> None:
        """Mails the letter's link (nothing when email is not configured)."""
        if self.mailer is None:
            return
        hours = "an hour" if letter.purpose == RESET else "a day"
        if letter.purpose == RESET:
            subject = "Reset your sansu password"
            why = f"Someone asked to reset the password of the sansu account {letter.name}."
            after = "If it was not you, ignore this mail: your password stays as it is."
        else:
            subject = "Verify your email address for sansu"
            why = f"The sansu account {letter.name} asked to use this address."
            after = "If it was not you, ignore this mail: the address will not be used."
        text = (
            f"{why}\n\nFollow this link within {hours} (it works once):\n\n"
            f"{self.link(letter)}\n\n{after}\n"
        )
        self.mailer.send(letter.email, subject, text)

    def later(self, work: Coroutine[Any, Any, Any]) -> None:
        """Runs ``work`` after the answer (a reset request's lookup: its time tells nothing)."""
        self.background.spawn(work)

    async def close(self) -> None:
        await self.background.stop()
        if self.mailer is not None:
            await self.mailer.close()
