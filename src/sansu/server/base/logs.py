"""Keeping secrets out of the log: every line is rid of them before it is written.

Seat tokens, API tokens, tickets and session cookies travel in places that the
web server writes at some level: a URL's ``?token=…`` with the request line,
and at ``debug`` the WebSocket handshake's headers (``Sec-WebSocket-Protocol:
sansu, token.…``, ``Cookie: …``, ``Authorization: Bearer …``). Every record
of the server's loggers and their handlers passes through :class:`RedactTokens`,
which hides each such value, at every level, in the message and in the
traceback alike.
"""

from __future__ import annotations

import logging
import re

HIDDEN = "[hidden]"
SECRETS = (
    # a URL's query: ?token=…, &ticket=…
    re.compile(r"((?:^|[?&;\s])(?:token|ticket|secret)=)[^&\s\"']*", re.IGNORECASE),
    # a seat token offered as a WebSocket subprotocol: token.…
    re.compile(r"(\btoken\.)[^\s,;\"'\]\)]+", re.IGNORECASE),
    # Authorization: Bearer … (and Basic …), wherever it is written
    re.compile(r"(\b(?:bearer|basic)\s+)[^\s,;\"'\]\)]+", re.IGNORECASE),
    # headers that are secrets whole: Cookie, Set-Cookie, Authorization, …
    re.compile(
        r"(\b(?:cookie|set-cookie|authorization|proxy-authorization|x-csrf-token)"
        r"[\"']?\s*[:=,]\s*[\"']?(?:b[\"'])?)[^\"'\r\n]*",
        re.IGNORECASE,
    ),
    # the session cookie (accounts' ``COOKIE``), however it is quoted
    re.compile(r"(\bsansu_session=)[^;\s\"']*", re.IGNORECASE),
)
LOGGERS = (
    "",
    "uvicorn",
    "uvicorn.error",
    "uvicorn.access",
    "websockets",
    "websockets.server",
    "sansu",
    "sansu.server",
)


def redact(text: str) -> str:
    """``text`` with every secret value shown as ``[hidden]``."""
    for pattern in SECRETS:
        text = pattern.sub(rf"\1{HIDDEN}", text)
    return text


class RedactTokens(logging.Filter):
    """Rewrites each record with its secrets hidden (message and traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot be formatted is left to its handler
            return True
        hidden = redact(message)
        if hidden != message:
            record.msg = hidden
            record.args = ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def install_logging() -> None:
    """Adds the filter to the server's loggers and to each of their handlers (records
    that propagate to a handler skip the filters of the loggers they pass)."""
    redactor = RedactTokens()
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(redactor)
        for handler in logger.handlers:
            if not any(isinstance(f, RedactTokens) for f in handler.filters):
                handler.addFilter(redactor)
