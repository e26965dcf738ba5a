"""A local SMTP server for tests (``aiosmtpd``): it keeps every mail it receives, and a
test waits for the next one without sleeping."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller


class Mailbox:
    """The mails received, in order; :meth:`wait` blocks until the ``n``-th has come."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.arrived = threading.Condition()
        self.port = 0

    async def handle_DATA(self, _server, _session, envelope) -> str:
        mail = message_from_bytes(envelope.content, policy=policy.default)
        with self.arrived:
            self.mails.append(mail)  # type: ignore[arg-type]
            self.arrived.notify_all()
        return "250 OK"

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}?from=sansu@example.org"

    def wait(self, n: int, timeout: float = 60.0) -> EmailMessage:
        """The ``n``-th mail (1 for the first), once it has arrived."""
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.mails) >= n, timeout):
                raise AssertionError(f"mail {n} did not come within {timeout} s")
            return self.mails[n - 1]

    def link(self, n: int, purpose: str) -> str:
        """The ``purpose`` link (``verify``, ``reset``) of the ``n``-th mail."""
        text = self.wait(n).get_content()
        found = re.search(rf"(\S+/#/{purpose}/[A-Za-z0-9_-]+)", text)
        assert found, text
        return found.group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    box.port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=box.port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()
