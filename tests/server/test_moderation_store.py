"""Moderation in the store: an engine mark keeps an account off the leaderboards and its
rated games out of the ratings, a closed account's session and log-in are refused, and
migration 0012 moves the chat's reports into the queue and back."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from sansu.cli.main import main
from sansu.server.accounts import UserError, record, users_table
from sansu.server.accounts.login_limits import LoginLimiter
from sansu.server.accounts.sessions import open_session, session_user
from sansu.server.accounts.users import authenticate
from sansu.server.base.store import make_engine, migrate
from sansu.server.ratings import refund_opponents
from sansu.server.ratings import table as ratings
from tests.server.accounts_fixtures import (  # noqa: F401
    engine_fixture,
    fast_hashing_fixture,
    sign_up,
)
from tests.server.test_ratings import rate
from tests.server.test_ratings_migration import HEAD, state
from tests.server.test_reviews_migration import downgrade

DAY = 86_400.0


def mark(engine: sa.Engine, user_id: int, column: str, at: float | None) -> None:
    with engine.begin() as c:
        c.execute(sa.update(users_table).where(users_table.c.id == user_id).values({column: at}))


def test_an_engine_mark_takes_the_account_off_the_board_and_its_games_off_the_ratings(
    engine: sa.Engine,
) -> None:
    now = 100 * DAY
    people = {name: sign_up(engine, name) for name in ("Ann", "Ben", "Cy")}
    for i in range(20):  # each plays 40 games, and loses some: no rating is provisional
        for a, b in (("Ann", "Ben"), ("Ben", "Cy"), ("Ann", "Cy")):
            ranks = [1, 2] if i % 3 else [2, 1]
            rate(engine, f"{a}{b}{i}", [people[a].id, people[b].id], ranks, now=now - i)

    def board() -> list[str]:
        with engine.connect() as c:
            return [s.name for s in ratings.leaderboard(c, "uttt", "timed", now=now, min_games=5)]

    def rating(name: str) -> float:
        with engine.connect() as c:
            return ratings.get_rating(c, people[name].id, "uttt", "timed").rating

    assert board() == ["Ann", "Ben", "Cy"]
    mark(engine, people["Ann"].id, "engine_at", now)
    assert board() == ["Ben", "Cy"]
    ann, ben = rating("Ann"), rating("Ben")
    rate(engine, "after", [people["Ann"].id, people["Ben"].id], [1, 2], now=now + 1)
    assert (rating("Ann"), rating("Ben")) == (ann, ben)  # neither moves
    with engine.connect() as c:
        assert ratings.is_rated(c, "after")  # counted as rated: never rated later
    rate(engine, "fair", [people["Ben"].id, people["Cy"].id], [1, 2], now=now + 2)
    assert rating("Ben") > ben  # others' games still count
    mark(engine, people["Ann"].id, "engine_at", None)
    mark(engine, people["Cy"].id, "closed_at", now)
    assert board() == ["Ann", "Ben"]


def test_an_engine_mark_gives_back_the_recent_points_lost_to_the_account_once(
    engine: sa.Engine,
) -> None:
    now = 100 * DAY
    cheat, ben, cy = (sign_up(engine, name) for name in ("Cheat", "Ben", "Cy"))
    rate(engine, "old", [cheat.id, ben.id], [1, 2], now=now - 40 * DAY)  # past the window

    def rating(user_id: int) -> float:
        with engine.connect() as c:
            return ratings.get_rating(c, user_id, "uttt", "timed").rating

    before_recent = rating(ben.id)
    lost = [rate(engine, f"g{i}", [cheat.id, ben.id], [1, 2], now=now - i)[ben.id] for i in (1, 2)]
    won = rate(engine, "g3", [ben.id, cheat.id], [1, 2], now=now - 3)[ben.id]  # Ben won one
    rate(engine, "g4", [cy.id, ben.id], [1, 2], now=now - 4)  # not against the account
    after_games = rating(ben.id)
    with engine.begin() as c:
        refunds = refund_opponents(c, cheat.id, now=now)
    back = sum(change.before.rating - change.after.rating for change in lost)
    assert back > 0 and refunds == {ben.id: pytest.approx(back)}
    assert rating(ben.id) == pytest.approx(after_games + back)
    assert won.after.rating > won.before.rating and before_recent < rating(ben.id)
    with engine.begin() as c:  # marked again later: nothing twice
        assert refund_opponents(c, cheat.id, now=now + 1) == {}
    assert rating(ben.id) == pytest.approx(after_games + back)


def test_a_closed_accounts_session_and_log_in_are_refused(engine: sa.Engine) -> None:
    user = sign_up(engine, "Rude")
    with engine.begin() as c:
        session = open_session(c, user, now=0.0)
    mark(engine, user.id, "closed_at", 1.0)
    with engine.connect() as c:
        assert session_user(c, session.token, now=2.0) is None
    with engine.begin() as c, pytest.raises(UserError) as refused:
        authenticate(c, "Rude", "correct horse", client="1.2.3.4", limiter=LoginLimiter())
    assert refused.value.code == "account_closed"
    with engine.begin() as c, pytest.raises(UserError) as wrong:
        authenticate(c, "Rude", "wrong password", client="1.2.3.4", limiter=LoginLimiter())
    assert wrong.value.code == "bad_credentials"  # only the password's holder is told


def columns(engine: sa.Engine, table: str) -> set[str]:
    with engine.connect() as c:
        return {column["name"] for column in sa.inspect(c).get_columns(table)}


def add_chat_report(engine: sa.Engine, user_id: int | None, seat: int | None) -> None:
    with engine.begin() as c:
        c.execute(
            sa.text(
                "INSERT INTO games (id, game, options, public_options, status, casual,"
                " created_at, updated_at, version, seq, ply, computer_to_move, rematch_offers,"
                " seed_chosen, meta, private, watchable) VALUES ('g1', 'uttt', '{}', '{}',"
                " 'active', true, 0, 0, 0, 0, 0, false, '[]', false, '{}', false, true)"
                " ON CONFLICT DO NOTHING"
            )
        )
        c.execute(
            sa.text(
                "INSERT INTO chat_messages (game_id, room, user_id, seat, name, text, at)"
                " VALUES ('g1', 'players', NULL, 0, 'Anon', 'bad words', 1.0)"
            )
        )
        message_id = c.execute(sa.text("SELECT max(id) FROM chat_messages")).scalar()
        c.execute(
            sa.text(
                "INSERT INTO chat_reports (message_id, reason, user_id, seat, at)"
                " VALUES (:m, 'insult', :u, :s, 2.0)"
            ),
            {"m": message_id, "u": user_id, "s": seat},
        )


def test_0012_moves_the_chats_reports_into_the_queue_and_back(
    engine: sa.Engine, any_db: str
) -> None:
    ann = sign_up(engine, "Ann")
    assert state(engine)[1] == HEAD
    downgrade(engine, "0010")
    tables, _version = state(engine)
    assert "reports" not in tables and "chat_reports" in tables
    assert "refunded_at" not in columns(engine, "rating_history")
    add_chat_report(engine, ann.id, None)
    add_chat_report(engine, None, 1)
    migrate(make_engine(any_db))
    tables, version = state(engine)
    assert version == HEAD and "chat_reports" not in tables
    assert {"closed_at", "engine_at", "rename_once"} <= columns(engine, "users")
    assert "refunded_at" in columns(engine, "rating_history")
    with engine.connect() as c:
        rows = c.execute(
            sa.text("SELECT kind, category, reporter, target, status FROM reports ORDER BY id")
        ).all()
        user = c.execute(sa.text("SELECT closed_at, engine_at, rename_once FROM users")).first()
    assert [tuple(r) for r in rows] == [
        ("message", "insult", "Ann", "Anon", "open"),
        ("message", "insult", "seat 1 of g1", "Anon", "open"),
    ]
    assert tuple(user) == (None, None, False)
    downgrade(engine, "0010")
    with engine.connect() as c:
        back = c.execute(sa.text("SELECT reason, user_id FROM chat_reports ORDER BY id")).all()
    assert [tuple(r) for r in back] == [("insult", ann.id), ("insult", None)]


def test_the_audit_command_shows_moderators_actions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fast_hashing: None
) -> None:
    db = tmp_path / "audit.db"
    engine = make_engine(f"sqlite:///{db}")
    migrate(engine)
    target = sign_up(engine, "Rude")
    with engine.begin() as c:
        record(c, "close", {"reason": "abuse"}, now=5.0, actor="Moddy", target=target)
    engine.dispose()
    assert main(["admin", "audit", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Moddy" in out and "close" in out and "Rude" in out and "abuse" in out
