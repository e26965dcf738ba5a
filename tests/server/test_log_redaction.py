"""Secrets never reach a log line, whichever way the server's libraries write them."""

from __future__ import annotations

import logging
import string
import sys

from hypothesis import given
from hypothesis import strategies as st

from sansu.server.base.logs import RedactTokens, redact

SECRET = st.text(alphabet=string.ascii_letters + string.digits + "-_", min_size=8, max_size=48)
FORMS = (
    "GET /api/games/abc/ws?token={} HTTP/1.1",
    "< sec-websocket-protocol: sansu, token.{}",
    "> Sec-WebSocket-Protocol: token.{}",
    "< authorization: Bearer {}",
    "< cookie: sansu_session={}; theme=dark",
    "> set-cookie: sansu_session={}; HttpOnly; Path=/",
    "headers: [(b'authorization', b'Bearer {}'), (b'host', b'x')]",
    "{{'cookie': 'sansu_session={}'}}",
    "< x-csrf-token: {}",
)


@given(SECRET, st.sampled_from(FORMS))
def test_every_form_of_a_secret_is_hidden(secret: str, form: str) -> None:
    line = form.format(secret)
    assert secret not in redact(line)
    assert "[hidden]" in redact(line)


@given(SECRET)
def test_a_record_with_arguments_and_a_traceback_is_hidden(secret: str) -> None:
    try:
        raise ValueError(f"bad header cookie: sansu_session={secret}")
    except ValueError:
        record = logging.LogRecord(
            "uvicorn.error", logging.DEBUG, __file__, 1, "< %s: %s", ("cookie", secret), None
        )

        record.exc_info = sys.exc_info()
    assert RedactTokens().filter(record)
    shown = logging.Formatter().format(record)
    assert secret not in shown and "[hidden]" in shown
