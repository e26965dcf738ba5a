"""Roles and the audit log (migration 0009): ``sansu admin grant NAME ROLE`` makes an
account an admin or a moderator, every grant is one line of the audit log written with
it, and what is refused changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from sansu.cli.main import main
from sansu.server.accounts import UserError, audit_entries, grant, role_of
from sansu.server.base.store import make_engine, migrate
from tests.server.accounts_fixtures import engine_fixture as engine_fixture
from tests.server.accounts_fixtures import fast_hashing_fixture as fast_hashing_fixture
from tests.server.accounts_fixtures import sign_up
from tests.server.test_ratings_migration import HEAD, state
from tests.server.test_reviews_migration import downgrade


def test_a_grant_sets_the_role_and_writes_the_audit_log(engine: sa.Engine) -> None:
    user = sign_up(engine, "Marta")
    with engine.begin() as c:
        assert role_of(c, user.id) is None
        assert grant(c, "marta", "moderator", now=10.0) is None  # any case names the account
        assert grant(c, "Marta", "admin", now=20.0) == "moderator"
        assert grant(c, "Marta", None, now=30.0) == "admin"
    with engine.connect() as c:
        assert role_of(c, user.id) is None
        entries = audit_entries(c)
    assert [(e.at, e.actor, e.action, e.target, e.detail) for e in entries] == [
        (30.0, "command line", "grant", "Marta", {"role": None, "was": "admin"}),
        (20.0, "command line", "grant", "Marta", {"role": "admin", "was": "moderator"}),
        (10.0, "command line", "grant", "Marta", {"role": "moderator", "was": None}),
    ]


@pytest.mark.parametrize(
    ("name", "role", "code"), [("Ghost", "admin", "no_user"), ("Marta", "owner", "bad_role")]
)
def test_a_refused_grant_changes_nothing(
    engine: sa.Engine, name: str, role: str, code: str
) -> None:
    user = sign_up(engine, "Marta")
    with engine.begin() as c, pytest.raises(UserError) as refused:
        grant(c, name, role, now=1.0)
    assert refused.value.code == code
    with engine.connect() as c:
        assert role_of(c, user.id) is None and audit_entries(c) == []


def test_the_audit_log_outlives_the_account_it_names(engine: sa.Engine) -> None:
    user = sign_up(engine, "Leaving")
    with engine.begin() as c:
        grant(c, "Leaving", "moderator", now=1.0)
        c.execute(sa.text("DELETE FROM users WHERE id = :id"), {"id": user.id})
    with engine.connect() as c:
        (entry,) = audit_entries(c)
        target_id = c.execute(sa.text("SELECT target_id FROM audit_log")).scalar()
    assert entry.target == "Leaving" and target_id is None


def test_roles_come_and_go_with_0009(engine: sa.Engine, any_db: str) -> None:
    sign_up(engine, "Marta")
    with engine.begin() as c:
        grant(c, "Marta", "admin", now=1.0)
    assert state(engine)[1] == HEAD
    downgrade(engine, "0008")
    tables, version = state(engine)
    assert version == "0008" and "audit_log" not in tables
    with engine.connect() as c:
        columns = {col["name"] for col in sa.inspect(c).get_columns("users")}
        assert "role" not in columns
        assert c.execute(sa.text("SELECT name FROM users")).scalar() == "Marta"
    migrate(make_engine(any_db))
    with engine.connect() as c:
        assert c.execute(sa.text("SELECT role FROM users")).scalar() is None


def test_sansu_admin_grant_and_audit(
    tmp_path: Path, fast_hashing: None, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "roles.db")
    engine = make_engine(db)
    migrate(engine)
    sign_up(engine, "Marta")
    assert main(["admin", "grant", "Marta", "moderator", "--db", db]) == 0
    assert capsys.readouterr().out.strip() == "Marta: moderator (was player)"
    assert main(["admin", "grant", "Marta", "owner", "--db", db]) == 2
    assert "unknown role 'owner'" in capsys.readouterr().err
    assert main(["admin", "grant", "Nobody", "admin", "--db", db]) == 1
    assert "no account named 'Nobody'" in capsys.readouterr().err
    assert main(["admin", "audit", "--db", db]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert "command line  grant  Marta" in line and '"role": "moderator"' in line
    with engine.connect() as c:
        assert c.execute(sa.text("SELECT role FROM users")).scalar() == "moderator"
    engine.dispose()
