"""The mailer on its own: ``--smtp`` URLs, a refused mail tried again and then given up
with a log line that holds no link, and addresses checked and stored one way."""

from __future__ import annotations

import asyncio
import logging
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sansu.cli.main import main
from sansu.server.accounts.mail import Mailer, SmtpServer, parse_smtp_url
from sansu.server.accounts.recovery import normalise_email
from sansu.server.accounts.users import UserError
from tests.server.mailbox import free_port, running_mailbox


def test_smtp_urls() -> None:
    tls = parse_smtp_url("smtp://me%40x.org:p%40ss@mail.x.org:587?starttls=1")
    assert tls == SmtpServer("mail.x.org", 587, "starttls", "me@x.org", "me@x.org", "p@ss")
    assert "p@ss" not in repr(tls)
    ssl = parse_smtp_url("smtps://u:p@mail.x.org?from=sansu@x.org")
    assert (ssl.port, ssl.tls, ssl.sender) == (465, "ssl", "sansu@x.org")
    relay = parse_smtp_url("smtp://localhost")
    assert (relay.port, relay.tls, relay.user, relay.sender) == (
        25,
        "none",
        None,
        "sansu@localhost",
    )


@pytest.mark.parametrize(
    "url", ["http://mail.x.org", "smtp://", "smtp://h:99999", "smtp://h?tls=1", "mail.x.org"]
)
def test_a_bad_smtp_url_is_refused_with_its_reason(url: str) -> None:
    with pytest.raises(ValueError, match="--smtp"):
        parse_smtp_url(url)


def test_a_password_in_a_bad_url_is_not_shown() -> None:
    with pytest.raises(ValueError) as error:
        parse_smtp_url("smtp://u:hunter22@h:99999")
    assert "hunter22" not in str(error.value)


def test_a_mail_is_sent_in_the_background() -> None:
    async def send(port: int) -> Mailer:
        mailer = Mailer(parse_smtp_url(f"smtp://127.0.0.1:{port}"))
        mailer.send("a@example.org", "hello", "the text")
        await asyncio.gather(*mailer.background._tasks)
        return mailer

    with running_mailbox() as box:
        mailer = asyncio.run(send(box.port))
        assert mailer.sent == 1 and box.wait(1).get_content().strip() == "the text"


def test_a_failed_mail_is_tried_three_times_and_logged_without_its_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    waits: list[float] = []

    async def no_wait(seconds: float) -> None:
        waits.append(seconds)

    async def send() -> Mailer:
        mailer = Mailer(parse_smtp_url(f"smtp://127.0.0.1:{free_port()}"), sleep=no_wait)
        mailer.send("a@example.org", "reset", "https://x/#/reset/SECRET-TOKEN")
        await asyncio.gather(*mailer.background._tasks)
        return mailer

    caplog.set_level(logging.DEBUG)
    mailer = asyncio.run(send())
    assert (mailer.sent, mailer.failed, waits) == (0, 1, [1.0, 5.0])
    failures = [r for r in caplog.records if r.name == "sansu.server.mail"]
    assert len(failures) == 3 and "example.org" in failures[0].getMessage()
    assert "SECRET-TOKEN" not in caplog.text and "a@example.org" not in caplog.text


LOCAL = st.text(string.ascii_letters + string.digits + "._+-", min_size=1, max_size=20)
DOMAIN = st.from_regex(r"[a-zA-Z][a-zA-Z0-9-]{0,10}[a-zA-Z0-9]\.[a-zA-Z]{2,6}", fullmatch=True)


@given(LOCAL, DOMAIN)
def test_an_address_is_stored_one_way(local: str, domain: str) -> None:
    try:
        stored = normalise_email(f"{local}@{domain}")
    except UserError as error:
        assert error.code == "bad_email"  # e.g. a dot at either end of the local part
        return
    assert stored == stored.lower() and normalise_email(stored.upper()) == stored
    assert normalise_email(f"  {stored} ") == stored


@given(st.text(max_size=300))
def test_anything_else_is_a_clear_refusal_or_an_address(text: str) -> None:
    try:
        stored = normalise_email(text)
    except UserError as error:
        assert error.code == "bad_email" and str(error)
    else:
        assert "@" in stored and normalise_email(stored) == stored


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--public-url", "ftp://x.org"),
        ("--public-url", "https://"),
        ("--public-url", "https://x.org/?a=1"),
        ("--smtp", "http://mail.x.org"),
        ("--smtp", "smtp://u:hunter22@h:99999"),
    ],
)
def test_serve_refuses_a_bad_mail_option(
    option: str, value: str, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", str(tmp_path / "x.db"), option, value]) == 2
    err = capsys.readouterr().err
    assert option in err and "hunter22" not in err
