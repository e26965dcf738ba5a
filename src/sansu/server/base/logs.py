"""Keeping secrets out of the log: seat tokens are removed from every line before it is written.

Tokens travel in headers and subprotocols, which nothing logs; a client that
still puts one in a URL (``?token=…``) would have it logged by the web server
with the request line, so every log record passes through :class:`RedactTokens`.
"""

from __future__ import annotations

import logging
import re

SECRET_IN_URL = re.compile(r"((?:^|[?&;\s])token=)[^&\s\"']*", re.IGNORECASE)
LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "sansu", "sansu.server")


def redact(text: str) -> str:
    """``text`` with every ``token=VALUE`` of a URL shown as ``token=[hidden]``."""
    return SECRET_IN_URL.sub(r"\1[hidden]", text)


class RedactTokens(logging.Filter):
    """Rewrites a record whose message holds a token in a URL."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record that cannot be formatted is left to its handler
            return True
        if "token=" in message.lower():
            record.msg = redact(message)
            record.args = ()
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
