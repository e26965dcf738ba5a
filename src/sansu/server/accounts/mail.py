"""Sending the account mails (a verification link, a reset link) through an SMTP server.

``sansu serve --smtp URL`` names the server: ``smtp://USER:PASS@HOST:587?starttls=1&from=
sansu@example.org`` (STARTTLS after connecting), ``smtps://…`` (TLS from the start, port
465 by default), ``smtp://HOST:25`` (no TLS, no log-in: a local relay). The standard
library's ``smtplib`` does the talking, in a worker thread, so the event loop never
waits on the network; a mail is tried three times (after 1 s, then 5 s) and a failure
is logged with its reason but never with the mail's text, which holds the link.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from urllib.parse import parse_qs, unquote, urlsplit

from sansu.server.base import Background

log = logging.getLogger("sansu.server.mail")

RETRY_AFTER = (1.0, 5.0)
"""Seconds before the second and the third try of a mail."""
TIMEOUT = 20.0


@dataclass(frozen=True)
class SmtpServer:
    """Where and how mails are sent (from ``--smtp``)."""

    host: str
    port: int
    tls: str
    """``ssl`` (smtps), ``starttls``, or ``none``."""
    sender: str
    user: str | None = None
    password: str | None = None

    def __repr__(self) -> str:  # never the password
        return f"SmtpServer({self.host}:{self.port}, {self.tls}, from {self.sender})"


def parse_smtp_url(url: str) -> SmtpServer:
    """The server of an ``smtp://`` or ``smtps://`` URL; ``ValueError`` names what is
    wrong, never the password."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError("--smtp must be an smtp:// or smtps:// URL")
    if not parts.hostname:
        raise ValueError("--smtp names no host")
    query = {key: values[-1] for key, values in parse_qs(parts.query).items()}
    unknown = set(query) - {"starttls", "from"}
    if unknown:
        raise ValueError(f"--smtp: unknown option {sorted(unknown)[0]!r} (starttls, from)")
    try:
        port = parts.port
    except ValueError:
        raise ValueError("--smtp: bad port") from None
    if parts.scheme == "smtps":
        tls = "ssl"
    else:
        tls = "starttls" if query.get("starttls", "0") in ("1", "true", "yes") else "none"
    user = unquote(parts.username) if parts.username else None
    sender = query.get("from") or (user if user and "@" in user else f"sansu@{parts.hostname}")
    return SmtpServer(
        host=parts.hostname,
        port=port or (465 if tls == "ssl" else 587 if tls == "starttls" else 25),
        tls=tls,
        sender=sender,
        user=user,
        password=unquote(parts.password) if parts.password is not None else None,
    )


class Mailer:
    """Sends mails in the background; :attr:`sent` and :attr:`failed` count them."""

    def __init__(self, server: SmtpServer, *, sleep: Callable[[float], object] | None = None):
        self.server = server
        self.background = Background()
        self.sent = 0
        self.failed = 0
        self._sleep = sleep or asyncio.sleep

    def message(self, to: str, subject: str, text: str) -> EmailMessage:
        mail = EmailMessage()
        mail["From"] = self.server.sender
        mail["To"] = to
        mail["Subject"] = subject
        mail["Message-ID"] = make_msgid(domain=self.server.sender.rpartition("@")[2] or None)
        mail.set_content(text)
        return mail

    def send(self, to: str, subject: str, text: str) -> None:
        """Queues the mail and returns at once (on the event loop)."""
        self.background.spawn(self._deliver(self.message(to, subject, text)))

    async def _deliver(self, mail: EmailMessage) -> None:
        domain = str(mail["To"]).rpartition("@")[2]
        for attempt, wait in enumerate((*RETRY_AFTER, None), start=1):
            try:
                await asyncio.to_thread(self._send_now, mail)
            except (smtplib.SMTPException, OSError) as error:
                # The reason only: an SMTP error may quote the mail, which holds a link.
                log.warning(
                    "a mail to an address at %s failed (try %d of 3): %s",
                    domain,
                    attempt,
                    type(error).__name__,
                )
                if wait is None:
                    self.failed += 1
                    return
                await self._sleep(wait)
            else:
                self.sent += 1
                return

    def _send_now(self, mail: EmailMessage) -> None:
        server = self.server
        if server.tls == "ssl":
            context = ssl.create_default_context()
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(
                server.host, server.port, timeout=TIMEOUT, context=context
            )
        else:
            smtp = smtplib.SMTP(server.host, server.port, timeout=TIMEOUT)
        with smtp:
            if server.tls == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if server.user is not None:
                smtp.login(server.user, server.password or "")
            smtp.send_message(mail)

    async def close(self) -> None:
        """Stops the mails still in flight (at the server's stop)."""
        await self.background.stop()
