"""Ratings at the domain level, on SQLite and PostgreSQL: the libraries' numbers, rated
exactly once per game, history, leaderboards, time-control classes."""

from __future__ import annotations

import math

import glicko2
import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy import Engine

from sansu.server.accounts.users import users as users_table
from sansu.server.ratings import table as ratings
from sansu.server.ratings.rating_math import Rating, glicko2_pair, openskill_teams
from sansu.server.ratings.table import RatingChange, rate_game
from tests.server.accounts_fixtures import (  # noqa: F401
    engine_fixture,
    fast_hashing_fixture,
    sign_up,
)
from tests.server.test_users import dump


def rate(engine: Engine, game_id: str, players, ranks, game="uttt", speed="timed", now=0.0):
    with engine.begin() as c:
        return rate_game(c, game_id, game=game, speed=speed, players=players, ranks=ranks, now=now)


def library_glicko2(me: Rating, other: Rating, score: float) -> glicko2.Player:
    player = glicko2.Player(me.rating, me.deviation, me.volatility)
    player.update_player([other.rating], [other.deviation], [score])
    return player


@pytest.mark.parametrize(
    ("time_control", "speed"),
    [
        (None, "untimed"),
        ({}, "untimed"),
        ({"initial_seconds": 300, "increment_seconds": 2}, "timed"),
        ({"initial_seconds": 86_399, "increment_seconds": 0}, "timed"),
        ({"initial_seconds": 86_400}, "correspondence"),
        ({"initial_seconds": 3600, "increment_seconds": 3600}, "correspondence"),
    ],
)
def test_time_control_classes(time_control, speed: str) -> None:
    assert ratings.speed_of(time_control) == speed


def paper_volatility(mu, phi, sigma, opponents, tau=0.5):
    """Step 5 of Glickman's paper, solved by bisection on f (independent of both the
    package and rating_math): the new volatility after one rating period."""
    g = [1 / math.sqrt(1 + 3 * p**2 / math.pi**2) for _, p, _ in opponents]
    e = [1 / (1 + math.exp(-gj * (mu - m))) for gj, (m, _, _) in zip(g, opponents, strict=True)]
    v = 1 / sum(gj**2 * ej * (1 - ej) for gj, ej in zip(g, e, strict=True))
    delta = v * sum(gj * (s - ej) for gj, ej, (_, _, s) in zip(g, e, opponents, strict=True))
    a = math.log(sigma**2)

    def f(x):
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    low, high = a - 20, a + 20  # f falls from positive to negative across its one root
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if f(mid) > 0 else (low, mid)
    return math.exp(low / 2)


def test_glicko2_reproduces_glickmans_worked_example() -> None:
    """Glickman's paper: 1500/200 beats 1400/30, loses to 1550/100 and 1700/300,
    giving 1464.06 and 151.52; the volatility is step 5's root, computed here too."""
    from sansu.server.ratings.rating_math import _Glicko2Player

    scale = 173.7178
    for rating in (1500.0, 1850.0):
        player = _Glicko2Player(rating, 200, 0.06)
        player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
        opponents = [((r - 1500) / scale, d / scale, s)
                     for r, d, s in ((1400, 30, 1), (1550, 100, 0), (1700, 300, 0))]  # fmt: skip
        want = paper_volatility((rating - 1500) / scale, 200 / scale, 0.06, opponents)
        assert player.vol == pytest.approx(want, abs=1e-8)
    player = _Glicko2Player(1500, 200, 0.06)
    player.update_player([1400, 1550, 1700], [30, 100, 300], [1, 0, 0])
    assert player.getRating() == pytest.approx(1464.06, abs=0.01)
    assert player.getRd() == pytest.approx(151.52, abs=0.01)
    assert player.vol == pytest.approx(0.05999, abs=1e-5)


def test_a_two_player_game_moves_ratings_by_the_librarys_numbers(engine: Engine) -> None:
    alice, bob = sign_up(engine, "Alice"), sign_up(engine, "Bob")
    changes = rate(engine, "g1", [alice.id, bob.id], [1, 2], now=50.0)
    assert changes is not None
    fresh = Rating()
    a, b = library_glicko2(fresh, fresh, 1.0), library_glicko2(fresh, fresh, 0.0)
    for user, expected in ((alice, a), (bob, b)):
        after = changes[user.id].after
        assert after.rating == pytest.approx(expected.getRating(), abs=0.01)
        assert after.deviation == pytest.approx(expected.getRd(), abs=0.01)
        assert after.volatility == pytest.approx(expected.vol, abs=1e-5)
    assert changes[alice.id].shown() == f"+{round(a.getRating() - 1500)}"
    assert changes[bob.id].change < 0 and changes[bob.id].shown().startswith("-")
    # the second game starts from the stored ratings
    second = rate(engine, "g2", [bob.id, alice.id], [1, 1], now=60.0)
    pa, pb = changes[alice.id].after, changes[bob.id].after
    with engine.connect() as c:
        stored_a = ratings.get_rating(c, alice.id, "uttt", "timed")
    assert second[alice.id].before == pa and second[bob.id].before == pb
    assert stored_a == second[alice.id].after
    assert stored_a.rating == pytest.approx(library_glicko2(pa, pb, 0.5).getRating(), abs=0.05)


def test_rating_math_matches_the_library_for_rated_players() -> None:
    """The package's volatility step differs slightly from the paper's (see
    rating_math); rating and deviation still agree with the package closely."""
    me, other = Rating(1720.0, 80.0, 0.059), Rating(1610.0, 120.0, 0.061)
    new_me, new_other = glicko2_pair(me, other, 0.0)
    lib_me, lib_other = library_glicko2(me, other, 0.0), library_glicko2(other, me, 1.0)
    assert new_me.rating == pytest.approx(lib_me.getRating(), abs=0.05)
    assert new_other.deviation == pytest.approx(lib_other.getRd(), abs=0.05)


def test_sudoku_challenge_uses_openskill_with_teams(engine: Engine) -> None:
    people = [sign_up(engine, f"P{i}") for i in range(5)]
    ids = [p.id for p in people]
    changes = rate(engine, "c1", [ids[0], (ids[1], ids[2]), ids[3], ids[4]], [2, 1, 3, 3],
                   game="challenge", speed="untimed")  # fmt: skip
    model = PlackettLuce(mu=1500, sigma=350, beta=175, tau=3.5)
    fresh = [[model.rating()], [model.rating(), model.rating()], [model.rating()], [model.rating()]]
    expected = model.rate(fresh, ranks=[2, 1, 3, 3])
    flat = [r for team in expected for r in team]
    for user_id, want in zip(ids, flat, strict=True):
        assert changes[user_id].after.rating == pytest.approx(want.mu, abs=1e-6)
        assert changes[user_id].after.deviation == pytest.approx(want.sigma, abs=1e-6)
    assert changes[ids[1]].change > 0 and changes[ids[4]].change < 0
    with engine.connect() as c:
        rows = {r.user_id: r for r in c.execute(sa.select(ratings.ratings))}
    assert [(rows[i].wins, rows[i].draws, rows[i].losses) for i in ids] == [
        (0, 0, 1), (1, 0, 0), (1, 0, 0), (0, 0, 1), (0, 0, 1)
    ]  # fmt: skip


def test_a_game_is_rated_once_whatever_the_retries(engine: Engine) -> None:
    alice, bob = sign_up(engine, "Alice"), sign_up(engine, "Bob")
    assert rate(engine, "g1", [alice.id, bob.id], [1, 2]) is not None
    after_first = dump(engine)
    assert rate(engine, "g1", [alice.id, bob.id], [1, 2]) is None
    assert rate(engine, "g1", [bob.id, alice.id], [1, 2]) is None  # even told otherwise
    assert dump(engine) == after_first


def test_a_crash_before_the_commit_rates_the_game_after_the_restart(engine: Engine) -> None:
    alice, bob = sign_up(engine, "Alice"), sign_up(engine, "Bob")
    before = dump(engine)

    class Crash(Exception):
        pass

    with pytest.raises(Crash), engine.begin() as c:
        rate_game(c, "g1", game="uttt", speed="timed", players=[alice.id, bob.id],
                  ranks=[1, 2], now=1.0)  # fmt: skip
        raise Crash  # the process dies before the result's transaction commits
    assert dump(engine) == before
    assert rate(engine, "g1", [alice.id, bob.id], [1, 2]) is not None
    assert rate(engine, "g1", [alice.id, bob.id], [1, 2]) is None
    with engine.connect() as c:
        assert c.execute(sa.select(sa.func.count()).select_from(ratings.rated_games)).scalar() == 1
        assert ratings.is_rated(c, "g1") and not ratings.is_rated(c, "g2")


BAD_GAMES = [
    lambda a, b, c: (["Aa", "Bb"], [1, 2], "uttt", "timed"),  # names, not ids
    lambda a, b, c: ([a, a], [1, 2], "uttt", "timed"),  # one user in both seats
    lambda a, b, c: ([a], [1], "uttt", "timed"),
    lambda a, b, c: ([a, b], [1], "uttt", "timed"),
    lambda a, b, c: ([a, b], [1, 2], "uttt", "blitz"),
    lambda a, b, c: ([a, b], [1, 2], "", "timed"),
    lambda a, b, c: ([a, 999], [1, 2], "uttt", "timed"),  # no such user
    lambda a, b, c: ([a, (b, c)], [1, 2], "uttt", "timed"),  # teams: Sudoku Challenge only
    lambda a, b, c: ([a, b, c], [1, 2, 3], "uttt", "timed"),
    lambda a, b, c: ([a, b], ["1", 2], "uttt", "timed"),
    lambda a, b, c: ([a, b], [True, False], "uttt", "timed"),
    lambda a, b, c: ([a, ()], [1, 2], "challenge", "timed"),
    lambda a, b, c: ([a, (b, a)], [1, 2], "challenge", "timed"),
    lambda a, b, c: ([a, None], [1, 2], "uttt", "timed"),
    lambda a, b, c: ([a, "Bb"], [1, 2], "uttt", "timed"),
    lambda a, b, c: ([a, b], [1, float("nan")], "uttt", "timed"),
    lambda a, b, c: ([a, b], [1, float("inf")], "challenge", "timed"),
    lambda a, b, c: (None, [1, 2], "uttt", "timed"),
    lambda a, b, c: ({a: 1, b: 2}, [1, 2], "uttt", "timed"),
    lambda a, b, c: ([a, b], None, "uttt", "timed"),
]


@pytest.mark.parametrize("bad", range(len(BAD_GAMES)))
def test_bad_input_is_refused_and_changes_nothing(engine: Engine, bad: int) -> None:
    a, b, c = (sign_up(engine, name).id for name in ("Aa", "Bb", "Cc"))
    players, ranks, game, speed = BAD_GAMES[bad](a, b, c)
    before = dump(engine)
    with pytest.raises(ValueError):
        rate(engine, "bad", players, ranks, game=game, speed=speed)
    assert dump(engine) == before


def test_provisional_until_the_deviation_falls(engine: Engine) -> None:
    alice, bob = sign_up(engine, "Alice"), sign_up(engine, "Bob")
    assert Rating().shown() == "1500?"
    shown = []
    for i in range(30):
        changes = rate(engine, f"g{i}", [alice.id, bob.id], [1 + i % 2, 2 - i % 2], now=i)
        shown.append(changes[alice.id].after.shown())
    assert shown[0].endswith("?") and not shown[-1].endswith("?")
    last = changes[alice.id].after
    assert last.deviation < 110 and shown[-1] == str(round(last.rating))


def test_history_and_leaderboard(engine: Engine) -> None:
    day = 86_400.0
    now = 200 * day
    people = {name: sign_up(engine, name) for name in ("Ann", "Ben", "Cy", "Dee", "Bot1")}
    with engine.begin() as c:
        c.execute(sa.update(users_table).where(users_table.c.name == "Bot1").values(bot=True))
    n = 0

    def play(winner: str, loser: str, at: float) -> None:
        nonlocal n
        n += 1
        rate(engine, f"g{n}", [people[winner].id, people[loser].id], [1, 2], now=at)

    for i in range(15):  # recent games: Ann wins most, Ben is second, all play the bot
        at = now - 30 * day + i
        play(*(("Ann", "Ben") if i % 3 else ("Ben", "Ann")), at)
        play(*(("Ann", "Cy") if i % 4 else ("Cy", "Ann")), at)
        play(*(("Ben", "Cy") if i % 3 else ("Cy", "Ben")), at)
        play(*(("Bot1", "Ben") if i % 2 else ("Ben", "Bot1")), at)
        play(*(("Bot1", "Ann") if i % 2 else ("Ann", "Bot1")), at)
    for i in range(12):  # Dee played long ago only
        play("Dee", "Cy", now - 120 * day + i)
    with engine.connect() as c:
        board = ratings.leaderboard(c, "uttt", "timed", now=now, min_games=10)
        names = [s.name for s in board]
        assert names == ["Ann", "Ben", "Cy"]  # not the bot, not Dee (no recent games)
        assert [s.rating for s in board] == sorted((s.rating for s in board), reverse=True)
        assert all(s.recent_games >= 10 and s.deviation < 110 for s in board)
        assert ratings.leaderboard(c, "uttt", "timed", now=now, min_games=100) == []
        assert ratings.leaderboard(c, "uttt", "untimed", now=now, min_games=1) == []
        assert [s.name for s in ratings.leaderboard(c, "uttt", "timed", now=now, limit=1)] == [
            "Ann"
        ]
        chart = ratings.history(c, people["Ann"].id, "uttt", "timed")
        stored = ratings.get_rating(c, people["Ann"].id, "uttt", "timed")
    assert len(chart) == 45 and [t for t, _ in chart] == sorted(t for t, _ in chart)
    assert chart[-1][1] == pytest.approx(stored.rating)
    assert chart[0][1] < 1500 < chart[-1][1]  # lost her first game, then rose


def test_openskill_math_refuses_bad_shapes() -> None:
    with pytest.raises(ValueError):
        openskill_teams([[Rating()]], [1])
    with pytest.raises(ValueError):
        openskill_teams([[Rating()], []], [1, 2])
    with pytest.raises(ValueError):
        glicko2_pair(Rating(), Rating(), 0.7)
    assert RatingChange(Rating(1500), Rating(1488.4)).shown() == "-12"


def test_bad_game_ids_are_refused_before_any_query(engine: Engine) -> None:
    a, b = sign_up(engine, "Aa").id, sign_up(engine, "Bb").id
    before = dump(engine)
    for game_id in ("", "x" * 25, "a\x00b", "\ud800", "a b", None, 5):
        with pytest.raises(ValueError):
            rate(engine, game_id, [a, b], [1, 2])
    with pytest.raises(ValueError):
        rate(engine, "g1", [a, b], [1, 2], game="ut\x00tt")
    assert dump(engine) == before


def test_openskill_ratings_leave_provisional_at_their_own_threshold(engine: Engine) -> None:
    players = [sign_up(engine, name).id for name in ("Aa", "Bb", "Cc")]
    games = 0
    while True:
        games += 1
        ranks = [1 + (games + i) % 3 for i in range(3)]
        changes = rate(engine, f"c{games}", players, ranks, game="challenge", speed="untimed")
        after = changes[players[0]].after
        if not after.provisional:
            break
        assert after.shown().endswith("?")
    assert 110 < after.deviation < 175 and 20 < games < 60
    with engine.connect() as c:
        stored = ratings.get_rating(c, players[0], "challenge", "untimed")
        assert not stored.provisional and stored == after
        assert ratings.get_rating(c, players[0], "uttt", "untimed").shown() == "1500?"
        board = ratings.leaderboard(c, "challenge", "untimed", now=0.0, min_games=games)
    assert {s.user_id for s in board} <= set(players) and board
    assert Rating(1500, 150).provisional and not Rating(1500, 150, 0.06, 175).provisional
