"""Recovery over HTTP, with a local SMTP server: an address verified by its link, a
password reset by mail, links that expire and work once, one answer for every reset
request, the limits on them, links that point to the configured site whatever the
``Host`` header says, and no token in any log line."""

from __future__ import annotations

import logging
import string
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sansu.server.accounts.identity import CSRF_HEADER
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import make_client
from tests.server.mailbox import Mailbox, running_mailbox

PASSWORD = "a long enough password"
NEW_PASSWORD = "another long password 2"
SITE = "https://sansu.example.org"


class Clock:
    """The server's clock for links, moved by the test."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    with running_mailbox() as box:
        yield box


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def web(db_path: str, fast_hashing: None, mailbox: Mailbox, clock: Clock) -> Iterator[TestClient]:
    with make_client(db_path, smtp_url=mailbox.url, public_url=SITE) as c:
        c.app.state.postbox.clock = clock
        yield c


def sign_up(c: TestClient, name: str = "Alice") -> None:
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    c.headers[CSRF_HEADER] = r.json()["csrf_token"]


def token_of(link: str) -> str:
    return link.rsplit("/", 1)[1]


def set_email(c: TestClient, box: Mailbox, email: str, n: int = 1) -> str:
    """Asks for ``email`` and returns the token of its verification link (mail ``n``)."""
    r = c.post("/api/account/email", json={"email": email, "password": PASSWORD})
    assert r.status_code == 202, r.text
    return token_of(box.link(n, "verify"))


def verified(c: TestClient, box: Mailbox, email: str = "alice@example.org", n: int = 1) -> None:
    r = c.post("/api/account/email/verify", json={"token": set_email(c, box, email, n)})
    assert r.status_code == 200, r.text


def test_an_address_is_verified_by_its_link(web: TestClient, mailbox: Mailbox) -> None:
    sign_up(web)
    assert web.get("/api/account/email").json() == {
        "configured": True, "email": None, "verified": False, "pending": None,
        "pending_expires_at": None,
    }  # fmt: skip
    r = web.post("/api/account/email", json={"email": "Alice@Example.ORG", "password": PASSWORD})
    assert r.status_code == 202 and r.json()["pending"] == "alice@example.org"
    mail = mailbox.wait(1)
    assert mail["To"] == "alice@example.org" and mail["From"] == "sansu@example.org"
    link = mailbox.link(1, "verify")
    assert link.startswith(f"{SITE}/#/verify/")
    state = web.get("/api/account/email").json()
    assert state["email"] is None and state["verified"] is False
    r = web.post("/api/account/email/verify", json={"token": token_of(link)})
    assert r.status_code == 200 and r.json()["email"] == "alice@example.org"
    state = web.get("/api/account/email").json()
    assert state["email"] == "alice@example.org" and state["verified"] and state["pending"] is None
    again = web.post("/api/account/email/verify", json={"token": token_of(link)})
    assert again.status_code == 400 and again.json()["error"]["code"] == "bad_link"


def test_the_old_address_stays_until_the_new_one_is_verified(
    web: TestClient, mailbox: Mailbox
) -> None:
    sign_up(web)
    verified(web, mailbox)
    token = set_email(web, mailbox, "new@example.org", 2)
    state = web.get("/api/account/email").json()
    assert state["email"] == "alice@example.org" and state["pending"] == "new@example.org"
    assert web.post("/api/account/email/verify", json={"token": token}).status_code == 200
    assert web.get("/api/account/email").json()["email"] == "new@example.org"


def test_changing_the_address_needs_the_password_and_a_real_address(
    web: TestClient, mailbox: Mailbox
) -> None:
    sign_up(web)
    wrong = web.post("/api/account/email", json={"email": "a@example.org", "password": "nope"})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_credentials"
    for bad in ("not an address", "a@", "@b.org", "a" * 250 + "@b.org"):
        r = web.post("/api/account/email", json={"email": bad, "password": PASSWORD})
        assert r.status_code == 422, (bad, r.text)
    no_csrf = web.post(
        "/api/account/email",
        json={"email": "a@example.org", "password": PASSWORD},
        headers={CSRF_HEADER: ""},
    )
    assert no_csrf.status_code == 403
    assert web.get("/api/account/email").json()["pending"] is None
    assert mailbox.mails == []


def test_a_newer_link_outdates_the_older(web: TestClient, mailbox: Mailbox) -> None:
    sign_up(web)
    first = set_email(web, mailbox, "one@example.org", 1)
    second = set_email(web, mailbox, "two@example.org", 2)
    assert web.post("/api/account/email/verify", json={"token": first}).status_code == 400
    assert web.post("/api/account/email/verify", json={"token": second}).status_code == 200


def test_an_address_verified_by_another_account_is_refused_when_followed(
    web: TestClient, mailbox: Mailbox
) -> None:
    sign_up(web)
    verified(web, mailbox, "shared@example.org")
    web.cookies.clear()
    sign_up(web, "Bob")
    r = web.post(
        "/api/account/email/verify",
        json={"token": set_email(web, mailbox, "shared@example.org", 2)},
    )
    assert r.status_code == 409 and r.json()["error"]["code"] == "email_taken"
    assert web.get("/api/account/email").json()["email"] is None


def test_links_expire(web: TestClient, mailbox: Mailbox, clock: Clock) -> None:
    sign_up(web)
    token = set_email(web, mailbox, "alice@example.org")
    clock.now += 24 * 3600 + 1
    assert web.post("/api/account/email/verify", json={"token": token}).status_code == 400
    verified(web, mailbox, n=2)
    assert web.post("/api/account/reset/request", json={"who": "Alice"}).status_code == 202
    reset = token_of(mailbox.link(3, "reset"))
    clock.now += 3600 + 1
    r = web.post("/api/account/reset", json={"token": reset, "new_password": NEW_PASSWORD})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_link"


def test_a_reset_sets_the_password_and_ends_every_session(
    db_path: str, web: TestClient, mailbox: Mailbox
) -> None:
    sign_up(web)
    verified(web, mailbox)
    csrf = web.headers.pop(CSRF_HEADER)
    signed_in = dict(web.cookies)
    web.cookies.clear()
    r = web.post("/api/account/reset/request", json={"who": "alice@example.org"})
    assert r.status_code == 202
    link = mailbox.link(2, "reset")
    assert link.startswith(f"{SITE}/#/reset/") and mailbox.wait(2)["To"] == "alice@example.org"
    short = web.post("/api/account/reset", json={"token": token_of(link), "new_password": "short"})
    assert short.status_code == 422  # the link is not spent by a refused password
    r = web.post("/api/account/reset", json={"token": token_of(link), "new_password": NEW_PASSWORD})
    assert r.status_code == 200 and r.json()["sessions_ended"] == 1
    again = web.post("/api/account/reset", json={"token": token_of(link), "new_password": PASSWORD})
    assert again.status_code == 400
    old = web.post("/api/account/login", json={"name": "Alice", "password": PASSWORD})
    assert old.status_code == 401
    new = web.post("/api/account/login", json={"name": "Alice", "password": NEW_PASSWORD})
    assert new.status_code == 200
    web.cookies.clear()
    web.cookies.update(signed_in)
    assert web.get("/api/account").json()["user"] is None  # the old session ended
    assert csrf


def test_a_password_change_outdates_a_reset_link(web: TestClient, mailbox: Mailbox) -> None:
    sign_up(web)
    verified(web, mailbox)
    web.post("/api/account/reset/request", json={"who": "Alice"})
    token = token_of(mailbox.link(2, "reset"))
    r = web.post(
        "/api/account/password",
        json={"current_password": PASSWORD, "new_password": NEW_PASSWORD},
    )
    assert r.status_code == 200, r.text
    r = web.post("/api/account/reset", json={"token": token, "new_password": "a third password"})
    assert r.status_code == 400


def test_every_reset_request_gets_one_answer(web: TestClient, mailbox: Mailbox) -> None:
    sign_up(web, "Alice")
    verified(web, mailbox)
    web.cookies.clear()
    sign_up(web, "Bob")  # no address
    web.cookies.clear()
    answers = []
    for who in ("Alice", "alice@example.org", "Bob", "Nobody", "no@example.org", "@@", " "):
        r = web.post("/api/account/reset/request", json={"who": who})
        answers.append((r.status_code, r.json(), r.headers["cache-control"]))
    assert len(set(map(repr, answers))) == 1 and answers[0][0] == 202
    mailbox.wait(3)
    assert [m["To"] for m in mailbox.mails] == ["alice@example.org"] * 3


def test_reset_requests_are_limited_per_target_and_per_client(
    web: TestClient, mailbox: Mailbox
) -> None:
    for _ in range(3):
        assert web.post("/api/account/reset/request", json={"who": "Nobody"}).status_code == 202
    r = web.post("/api/account/reset/request", json={"who": "nobody"})
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
    for i in range(7):
        r = web.post("/api/account/reset/request", json={"who": f"someone{i}"})
        assert r.status_code == 202
    r = web.post("/api/account/reset/request", json={"who": "someone else"})
    assert r.status_code == 429
    assert mailbox.mails == []


def test_verification_mails_are_limited_per_address(web: TestClient, mailbox: Mailbox) -> None:
    sign_up(web)
    for n in range(1, 4):
        set_email(web, mailbox, "Alice@example.org", n)
    r = web.post("/api/account/email", json={"email": "alice@example.org", "password": PASSWORD})
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
    assert (
        web.post(
            "/api/account/email", json={"email": "other@example.org", "password": PASSWORD}
        ).status_code
        == 202
    )
    mailbox.wait(4)
    assert [m["To"] for m in mailbox.mails].count("alice@example.org") == 3


def test_the_link_points_to_the_site_whatever_the_host_header(
    web: TestClient, mailbox: Mailbox
) -> None:
    sign_up(web)
    web.post(
        "/api/account/email",
        json={"email": "alice@example.org", "password": PASSWORD},
        headers={"Host": "evil.example", "X-Forwarded-Host": "evil.example"},
    )
    web.post("/api/account/email/verify", json={"token": token_of(mailbox.link(1, "verify"))})
    web.post(
        "/api/account/reset/request",
        json={"who": "Alice"},
        headers={"Host": "evil.example", "X-Forwarded-Host": "evil.example",
                 "Forwarded": "host=evil.example"},
    )  # fmt: skip
    for n, purpose in ((1, "verify"), (2, "reset")):
        link = mailbox.link(n, purpose)
        assert urlsplit(link).netloc == "sansu.example.org"
        assert "evil" not in mailbox.wait(n).get_content()


def test_no_token_or_password_in_any_log_line(
    web: TestClient, mailbox: Mailbox, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    sign_up(web)
    verified(web, mailbox)
    web.post("/api/account/reset/request", json={"who": "Alice"})
    reset = token_of(mailbox.link(2, "reset"))
    web.post("/api/account/reset", json={"token": reset, "new_password": NEW_PASSWORD})
    verify = token_of(mailbox.link(1, "verify"))
    # Every record but the test's SMTP server's own (it stands for the mail provider).
    ours = [r for r in caplog.records if not r.name.startswith("mail.log")]
    logged = "\n".join(f"{r.getMessage()} {r.__dict__}" for r in ours)
    assert caplog.records  # the requests were logged
    for secret in (reset, verify, PASSWORD, NEW_PASSWORD):
        assert secret not in logged


def test_without_smtp_the_email_features_are_off(db_path: str, fast_hashing: None) -> None:
    with make_client(db_path) as c:
        sign_up(c)
        assert c.get("/api/account/email").json()["configured"] is False
        r = c.post("/api/account/email", json={"email": "a@example.org", "password": PASSWORD})
        assert r.status_code == 404 and r.json()["error"]["code"] == "email_not_configured"
        r = c.post("/api/account/reset/request", json={"who": "Alice"})
        assert r.status_code == 404
        assert c.get("/api/account/email").json()["pending"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"token": "x" * 129, "new_password": NEW_PASSWORD},
        {"token": "", "new_password": NEW_PASSWORD},
        {"token": "ünïcode", "new_password": NEW_PASSWORD},
        {"token": 5, "new_password": NEW_PASSWORD},
        {"token": "abc"},
        {"token": "abc", "new_password": NEW_PASSWORD, "extra": 1},
    ],
)
def test_a_bad_reset_is_refused_clearly(web: TestClient, body: dict) -> None:
    r = web.post("/api/account/reset", json=body)
    assert r.status_code in (400, 422) and r.json()["error"]["message"]


TOKENS = st.one_of(
    st.text(max_size=140),
    st.text(string.ascii_letters + string.digits + "-_", min_size=40, max_size=50),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(token=TOKENS)
def test_no_made_up_token_opens_a_link(web: TestClient, mailbox: Mailbox, token: str) -> None:
    if not web.cookies:
        sign_up(web)
        verified(web, mailbox)
        web.post("/api/account/reset/request", json={"who": "Alice"})
        mailbox.wait(2)
    before = web.get("/api/account/email").json()
    for path, body in (
        ("/api/account/email/verify", {"token": token}),
        ("/api/account/reset", {"token": token, "new_password": NEW_PASSWORD}),
    ):
        r = web.post(path, json=body)
        assert r.status_code in (400, 422) and r.json()["error"]["code"] in (
            "bad_link", "invalid_request",
        ), r.text  # fmt: skip
    assert web.get("/api/account/email").json() == before
    assert web.get("/api/account").json()["user"]["name"] == "Alice"  # no session ended
