"""Accounts at the domain level, on SQLite and PostgreSQL: names, Argon2 hashes, log-in,
the brute-force limiter, password change, sessions and CSRF tokens."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Engine

from sansu.server.accounts import sessions as user_sessions
from sansu.server.accounts import users
from sansu.server.accounts.login_limits import LoginLimiter
from sansu.server.accounts.users import UserError
from sansu.server.base.schema import metadata
from tests.server.accounts_fixtures import (  # noqa: F401
    engine_fixture,
    fast_hashing_fixture,
    sign_up,
)

PASSWORD = "correct horse battery"


def dump(engine: Engine) -> dict[str, list[tuple]]:
    """Every row of every table, to compare before and after."""
    with engine.connect() as c:
        return {
            t.name: sorted(map(tuple, c.execute(sa.select(t))), key=repr)
            for t in metadata.sorted_tables
        }


def login(engine: Engine, name: object, password: object, limiter: LoginLimiter, client="1.2.3.4"):
    with engine.begin() as c:
        return users.authenticate(c, name, password, client=client, limiter=limiter)


@pytest.mark.parametrize("name", ["ab", "Alice", "bob_99", "x-y", "A" * 20, "0_-9"])
def test_good_names_are_accepted(name: str) -> None:
    assert users.check_name(name) == name


@pytest.mark.parametrize(
    "name", ["a", "A" * 21, "al ice", "alïce", "émile", "a.b", "", "ab\n", None, 12, "Ａbc"]
)
def test_bad_names_are_refused(name: object) -> None:
    with pytest.raises(UserError) as e:
        users.check_name(name)
    assert e.value.code == "bad_name"


@pytest.mark.parametrize("name", ["admin", "ADMIN", "Sansu", "root", "Anonymous"])
def test_reserved_names_are_refused_in_any_case(name: str) -> None:
    with pytest.raises(UserError) as e:
        users.check_name(name)
    assert e.value.code == "reserved_name"


def test_sign_up_then_log_in(engine: Engine) -> None:
    alice = sign_up(engine, "Alice", PASSWORD, now=10.0)
    assert (alice.name, alice.created_at, alice.bot) == ("Alice", 10.0, False)
    limiter = LoginLimiter()
    assert login(engine, "alice", PASSWORD, limiter) == alice  # any case
    assert login(engine, "ALICE", PASSWORD, limiter).id == alice.id
    with engine.connect() as c:
        stored = c.execute(sa.select(users.users.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


def test_names_are_unique_case_insensitively_and_a_refusal_changes_nothing(engine: Engine) -> None:
    sign_up(engine, "Alice", PASSWORD)
    before = dump(engine)
    for name in ("alice", "ALICE", "aLiCe"):
        with pytest.raises(UserError) as e:
            sign_up(engine, name, "another password")
        assert e.value.code == "name_taken"
    assert dump(engine) == before


@pytest.mark.parametrize(
    "password",
    [
        "short",
        "x" * 1025,
        None,
        12345678,
        "abc\ud800defgh",
        "\x00" * 10,
        "good password\x00",
        "tab\there and more",
        "\x1b[31mred alert",
        " " * 12,
        " \t\n\r\u00a0\u2003\u3000\u0085 ",
    ],
)
def test_bad_passwords_are_refused_without_echo(engine: Engine, password: object) -> None:
    before = dump(engine)
    with pytest.raises(UserError) as e:
        sign_up(engine, "Bob", password)
    assert e.value.code == "bad_password"
    if isinstance(password, str):
        assert password not in str(e.value)
    assert dump(engine) == before


@given(st.text(alphabet=st.characters(categories=["Cc", "Zs", "Zl", "Zp"]), min_size=8))
def test_no_password_of_only_blanks_or_controls(password: str) -> None:
    with pytest.raises(UserError) as e:
        users.check_password(password)
    assert e.value.code == "bad_password"


@pytest.mark.parametrize("password", ["correct horse", "  spaced  out  ", "ünïcödé密码🙂"])
def test_passwords_with_spaces_and_any_script_are_fine(password: str) -> None:
    assert users.check_password(password) == password


def test_wrong_password_and_unknown_name_get_the_same_error(engine: Engine) -> None:
    sign_up(engine, "Alice", PASSWORD)
    limiter = LoginLimiter()
    errors = []
    for name, password in [("Alice", "wrong password"), ("Nobody", PASSWORD), ("a", PASSWORD),
                           ("Alice", None), (None, PASSWORD), ("Alice", "\ud800" * 9)]:  # fmt: skip
        with pytest.raises(UserError) as e:
            login(engine, name, password, limiter, client=f"client-{len(errors)}")
        errors.append((e.value.code, str(e.value)))
    assert set(errors) == {("bad_credentials", "wrong user name or password")}


def test_the_limiter_holds_an_account_back_after_failures_from_many_addresses(
    engine: Engine,
) -> None:
    sign_up(engine, "Alice", PASSWORD)
    limiter = LoginLimiter(per_account="3/hour")
    for i in range(3):
        with pytest.raises(UserError):
            login(engine, "alice", "wrong password", limiter, client=f"c{i}")
    with pytest.raises(UserError) as e:
        login(engine, "ALICE", PASSWORD, limiter, client="elsewhere")
    assert e.value.code == "too_many_attempts"
    # another name is not held back
    sign_up(engine, "Bob", PASSWORD)
    assert login(engine, "Bob", PASSWORD, limiter).name == "Bob"


def test_the_limiter_holds_a_client_back_across_names(engine: Engine) -> None:
    sign_up(engine, "Alice", PASSWORD)
    limiter = LoginLimiter(per_client="4/hour")
    for name in ("n1", "n2", "n3", "n4"):
        with pytest.raises(UserError):
            login(engine, name, "guess guess", limiter, client="sprayer")
    with pytest.raises(UserError) as e:
        login(engine, "Alice", PASSWORD, limiter, client="sprayer")
    assert e.value.code == "too_many_attempts"
    assert login(engine, "Alice", PASSWORD, limiter, client="someone else").name == "Alice"


def test_a_success_clears_the_count_of_its_account_and_address(engine: Engine) -> None:
    sign_up(engine, "Alice", PASSWORD)
    limiter = LoginLimiter(per_pair="3/hour")
    for _ in range(3):
        for _ in range(2):
            with pytest.raises(UserError):
                login(engine, "Alice", "wrong password", limiter)
        login(engine, "Alice", PASSWORD, limiter)


def test_a_hash_with_old_parameters_is_replaced_at_log_in(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_up(engine, "Alice", PASSWORD)
    with engine.connect() as c:
        old = c.execute(sa.select(users.users.c.password_hash)).scalar_one()
    stronger = PasswordHasher(time_cost=2, memory_cost=2048, parallelism=1)
    monkeypatch.setattr(users, "HASHER", stronger)
    login(engine, "Alice", PASSWORD, LoginLimiter())
    with engine.connect() as c:
        new = c.execute(sa.select(users.users.c.password_hash)).scalar_one()
    assert new != old and "t=2" in new and not stronger.check_needs_rehash(new)
    assert login(engine, "Alice", PASSWORD, LoginLimiter()).name == "Alice"


def test_password_change_checks_the_old_one(engine: Engine) -> None:
    alice = sign_up(engine, "Alice", PASSWORD)
    before = dump(engine)
    for old, new, code in [("wrong password", "new password!", "bad_credentials"),
                           (PASSWORD, "short", "bad_password")]:  # fmt: skip
        with pytest.raises(UserError) as e, engine.begin() as c:
            users.change_password(c, alice.id, old, new, now=5.0)
        assert e.value.code == code
    assert dump(engine) == before
    with engine.begin() as c:
        users.change_password(c, alice.id, PASSWORD, "new password!", now=5.0)
    limiter = LoginLimiter()
    assert login(engine, "Alice", "new password!", limiter).id == alice.id
    with pytest.raises(UserError):
        login(engine, "Alice", PASSWORD, limiter)


def test_sessions_open_expire_and_are_revoked(engine: Engine) -> None:
    alice = sign_up(engine, "Alice", PASSWORD)
    with engine.begin() as c:
        one = user_sessions.open_session(c, alice, now=100.0, seconds=50.0)
        two = user_sessions.open_session(c, alice, now=100.0)
    assert one.token != two.token and one.csrf != two.csrf
    with engine.connect() as c:
        assert user_sessions.session_user(c, one.token, now=149.0) == alice
        assert user_sessions.session_user(c, one.token, now=150.0) is None  # expired
        assert user_sessions.session_user(c, one.token[:-1] + "x", now=120.0) is None
        for bad in (None, "", "x" * 500, "\ud800", 7):
            assert user_sessions.session_user(c, bad, now=120.0) is None
        stored = [row.id for row in c.execute(sa.select(user_sessions.user_sessions))]
    assert one.token not in stored and two.token not in stored
    with engine.begin() as c:
        assert user_sessions.revoke(c, two.token)
        assert not user_sessions.revoke(c, two.token)
        assert user_sessions.session_user(c, two.token, now=120.0) is None
        assert user_sessions.purge_expired(c, now=1000.0) == 1


def test_revoke_all_keeps_the_current_session_only(engine: Engine) -> None:
    alice = sign_up(engine, "Alice", PASSWORD)
    bob = sign_up(engine, "Bob", PASSWORD)
    with engine.begin() as c:
        mine = [user_sessions.open_session(c, alice, now=0.0) for _ in range(3)]
        his = user_sessions.open_session(c, bob, now=0.0)
        assert user_sessions.revoke_all(c, alice.id, keep=mine[0].token) == 2
        assert user_sessions.session_user(c, mine[0].token, now=1.0) == alice
        assert user_sessions.session_user(c, mine[1].token, now=1.0) is None
        assert user_sessions.session_user(c, his.token, now=1.0) == bob


def test_csrf_tokens_belong_to_their_session() -> None:
    token, other = "token-one", "token-two"
    csrf = user_sessions.csrf_token(token)
    assert user_sessions.check_csrf(token, csrf)
    assert not user_sessions.check_csrf(other, csrf)
    for bad in (None, "", csrf[:-1], csrf.upper(), "\ud800", 5):
        assert not user_sessions.check_csrf(token, bad)


def test_passwords_are_in_no_column_and_no_log_record(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    secrets = ["first secret pw", "second secret pw", "wrong secret pw", "third secret pw"]
    caplog.set_level(logging.DEBUG)
    alice = sign_up(engine, "Alice", secrets[0])
    limiter = LoginLimiter()
    login(engine, "Alice", secrets[0], limiter)
    with pytest.raises(UserError):
        login(engine, "Alice", secrets[2], limiter)
    with engine.begin() as c:
        users.change_password(c, alice.id, secrets[0], secrets[1], now=1.0)
        session = user_sessions.open_session(c, alice, now=1.0)
    with pytest.raises(UserError), engine.begin() as c:
        users.sign_up(c, "alice", secrets[3], now=2.0)
    text = repr(dump(engine)) + caplog.text + "".join(map(repr, caplog.records))
    for secret in [*secrets, session.token]:
        assert secret not in text
