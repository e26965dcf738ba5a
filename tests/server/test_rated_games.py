"""Rated games over HTTP: who may play them, the rating written with the result, exactly
once (a failed rating is made up at the next start, never twice), and the change shown."""

from __future__ import annotations

import random
import time

import glicko2
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce

from sansu.server.base.store import make_engine
from sansu.server.play import rated as rated_module
from sansu.server.ratings import table as ratings
from sansu.server.ratings.rating_math import OPENSKILL
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import make_client, pick
from tests.server.test_seat_accounts import Browser

GAME = {"game": "uttt", "casual": False}


def rated_game(a: Browser, b: Browser, **body) -> str:
    r = a.post("/api/games", json={**GAME, **body})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    r = b.post(f"/api/games/{gid}/join", json={})
    assert r.status_code == 200, r.text
    return gid


def open_game(gid: str, *by_seat: Browser) -> None:
    """Plays until every seat has moved once: before that, an ending aborts a rated game."""
    moved: set[int] = set()
    rng = random.Random(7)
    while len(moved) < len(by_seat):
        game = by_seat[0].get(f"/api/games/{gid}").json()
        seat = game["view"]["to_move"]
        move = pick(game["view"]["legal_moves"], rng)
        body = {"move": move, "state": game["state"]}
        r = by_seat[seat].post(f"/api/games/{gid}/moves", json=body)
        assert r.status_code == 200, r.text
        moved.add(seat)


def opened_game(a: Browser, b: Browser, **body) -> str:
    """A rated game of ``a`` and ``b`` in which each has moved."""
    gid = rated_game(a, b, **body)
    open_game(gid, a, b)
    return gid


def profile(browser: Browser, name: str) -> dict:
    r = browser.get(f"/api/users/{name}")
    assert r.status_code == 200, r.text
    return r.json()


def library_after(me: float, other: float, score: float) -> float:
    """The rating after one game between fresh players, straight from ``glicko2``."""
    player = glicko2.Player(me, 350.0, 0.06)
    player.update_player([other], [350.0], [score])
    return player.getRating()


@pytest.fixture
def two(client: TestClient, fast_hashing: None) -> tuple[Browser, Browser]:
    return Browser(client).sign("Alice", new=True), Browser(client).sign("Bob", new=True)


def test_a_resignation_moves_both_ratings_by_the_librarys_numbers(two) -> None:
    alice, bob = two
    gid = opened_game(alice, bob)
    r = alice.post(f"/api/games/{gid}/resign", json={})
    assert r.status_code == 200, r.text
    shown = {entry["name"]: entry for entry in r.json()["ratings"]}
    win, loss = library_after(1500, 1500, 1.0), library_after(1500, 1500, 0.0)
    assert shown["Bob"]["change"] == f"{round(win - 1500):+d}"
    assert shown["Alice"]["change"] == f"{round(loss - 1500):+d}"
    assert shown["Bob"]["shown"].endswith("?")  # one game: still provisional
    for name, expected in (("Alice", loss), ("Bob", win)):
        (entry,) = profile(alice, name)["ratings"]
        assert (entry["game"], entry["speed"], entry["games"]) == ("uttt", "untimed", 1)
        assert entry["rating"] == pytest.approx(expected, abs=0.05)
    assert profile(bob, "bob")["wins"] == 1 and profile(bob, "ALICE")["losses"] == 1
    game = alice.get(f"/api/games/{gid}").json()
    assert game["rated"] is True
    assert game["seats"][1]["rating"]["change"] == shown["Bob"]["change"]


def test_a_game_ended_by_the_rules_is_rated_and_the_event_carries_the_change(two) -> None:
    alice, bob = two
    gid = rated_game(alice, bob)
    rng = random.Random(3)
    players = {0: alice, 1: bob}
    game = alice.get(f"/api/games/{gid}").json()
    with alice.websocket(f"/api/games/{gid}/ws", "http://testserver") as ws:
        while game["status"] == "active":
            mover = players[game["view"]["to_move"]]
            move = pick(game["view"]["legal_moves"], rng)
            r = mover.post(f"/api/games/{gid}/moves", json={"move": move, "state": game["state"]})
            assert r.status_code == 200, r.text
            game = alice.get(f"/api/games/{gid}").json()
        answer = r.json()
        while (event := ws.receive_json()).get("type") != "game_over":
            pass
    assert answer["ratings"] == event["ratings"]
    result = game["result"]
    scores = (
        {0: 0.5, 1: 0.5} if result["draw"] else {s: float(s in result["winners"]) for s in (0, 1)}
    )
    for entry in event["ratings"]:
        expected = library_after(1500, 1500, scores[entry["seat"]])
        assert entry["after"] == round(expected)


def test_a_fallen_flag_rates_the_game(two) -> None:
    alice, bob = two
    gid = opened_game(alice, bob, time_control={"initial_seconds": 3})
    deadline = time.monotonic() + 15
    while (game := alice.get(f"/api/games/{gid}").json())["status"] == "active":
        assert time.monotonic() < deadline, "the flag never fell"
        time.sleep(0.1)
    assert game["termination"] == "time"
    assert {s["seat"]: s["rating"]["change"] for s in game["seats"]} == {
        0: f"{round(library_after(1500, 1500, 0.0) - 1500):+d}",
        1: f"{round(library_after(1500, 1500, 1.0) - 1500):+d}",
    }
    assert profile(alice, "alice")["ratings"][0]["speed"] == "timed"


def test_who_may_create_and_join_a_rated_game(client: TestClient, two) -> None:
    alice, bob = two
    anonymous = client.post("/api/games", json=GAME)
    assert anonymous.status_code == 403 and anonymous.json()["error"]["code"] == "sign_in_required"
    computer = alice.post(
        "/api/games", json={**GAME, "seats": [{"kind": "human"}, {"kind": "computer"}]}
    )
    assert computer.status_code == 422 and computer.json()["error"]["code"] == "rated_computer"
    both = alice.post("/api/games", json={**GAME, "take": [0, 1]})
    assert both.status_code == 409 and both.json()["error"]["code"] == "same_account"
    gid = alice.post("/api/games", json=GAME).json()["id"]
    r = client.post(f"/api/games/{gid}/join", json={})
    assert r.status_code == 403 and r.json()["error"]["code"] == "sign_in_required"
    again = Browser(client).sign("alice", new=False)  # the same account, another browser
    r = again.post(f"/api/games/{gid}/join", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "same_account"
    game = alice.get(f"/api/games/{gid}").json()
    assert [s["taken"] for s in game["seats"]] == [True, False]  # nothing changed
    early = alice.post(f"/api/games/{gid}/moves", json={"move": "r5c5", "state": game["state"]})
    assert early.status_code == 409 and early.json()["error"]["code"] == "waiting_for_players"
    assert bob.post(f"/api/games/{gid}/join", json={}).status_code == 200
    game = alice.get(f"/api/games/{gid}").json()
    assert game["moves"] == []
    r = alice.post(f"/api/games/{gid}/moves", json={"move": "r5c5", "state": game["state"]})
    assert r.status_code == 200, r.text
    r = alice.post(f"/api/games/{gid}/takeback", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_takeback"


def test_a_casual_game_between_accounts_changes_no_rating(two) -> None:
    alice, bob = two
    gid = rated_game(alice, bob, casual=True)
    r = alice.post(f"/api/games/{gid}/resign", json={})
    assert r.status_code == 200 and r.json()["ratings"] is None
    assert profile(alice, "alice")["ratings"] == []


def history_rows(db: str) -> list[tuple]:
    engine = make_engine(db)
    with engine.connect() as c:
        rows = c.execute(
            sa.select(ratings.rating_history.c.game_id, ratings.rating_history.c.user_id)
        ).all()
    engine.dispose()
    return [tuple(r) for r in rows]


def test_a_rating_that_failed_is_made_once_at_the_next_start(
    any_db: str, fast_hashing: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault in the rating (injected) leaves the game finished but unrated; the next
    start rates it, and the start after that rates nothing again."""
    real = ratings.rate_game

    def failing(*args, **kwargs):
        raise ValueError("injected fault")

    with make_client(any_db) as client:
        alice, bob = Browser(client).sign("Alice", new=True), Browser(client).sign("Bob", new=True)
        gid = opened_game(alice, bob)
        monkeypatch.setattr(rated_module, "rate_game", failing)
        r = alice.post(f"/api/games/{gid}/resign", json={})
        assert r.status_code == 200 and r.json()["ratings"] is None
        assert r.json()["result"]["winners"] == [1]
    assert history_rows(any_db) == []
    monkeypatch.setattr(rated_module, "rate_game", real)
    for _restart in range(2):
        with make_client(any_db) as client:
            (entry,) = profile(Browser(client), "bob")["ratings"]
            assert entry["rating"] == pytest.approx(library_after(1500, 1500, 1.0), abs=0.05)
    assert sorted(history_rows(any_db)) == sorted([(gid, 1), (gid, 2)])


def test_a_retried_commit_rates_the_game_once(two, client: TestClient) -> None:
    """The store retries a failed batch job by job: the rating's write runs again in a new
    transaction; the rated game's key keeps it to one rating."""
    alice, bob = two
    gid = opened_game(alice, bob)
    store = client.app.state.service.store
    engine = store.engine
    calls = []
    real = rated_module.rate_live

    def twice(connection, live, result, now):
        calls.append(live.id)
        first = real(connection, live, result, now)
        again = real(connection, live, result, now)  # a second attempt in one transaction
        assert again is None
        return first

    rated_module.rate_live = twice
    try:
        r = alice.post(f"/api/games/{gid}/resign", json={})
    finally:
        rated_module.rate_live = real
    assert r.status_code == 200 and calls == [gid]
    with engine.connect() as c:
        n = c.execute(
            sa.select(sa.func.count()).where(ratings.rating_history.c.game_id == gid)
        ).scalar()
    assert n == 2
    assert profile(alice, "bob")["ratings"][0]["games"] == 1


def test_sudoku_challenge_rates_its_players_with_openskill(
    client: TestClient, fast_hashing
) -> None:
    names = ["Ann", "Ben", "Cat"]
    players = [Browser(client).sign(n, new=True) for n in names]
    r = players[0].post(
        "/api/games", json={"game": "challenge", "casual": False, "options": {"players": 3}}
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    for p in players[1:]:
        assert p.post(f"/api/games/{gid}/join", json={}).status_code == 200
    open_game(gid, *players)
    r = players[1].post(f"/api/games/{gid}/resign", json={})
    assert r.status_code == 200, r.text
    model = PlackettLuce(mu=1500, sigma=350, beta=175, tau=3.5)
    assert OPENSKILL.beta == model.beta and OPENSKILL.tau == model.tau
    fresh = [[model.rating(mu=1500, sigma=350)] for _ in names]
    expected = model.rate(fresh, ranks=[0, 1, 0])
    for name, (new,) in zip(names, expected, strict=True):
        (entry,) = profile(players[0], name)["ratings"]
        assert entry["rating"] == pytest.approx(new.mu, abs=0.01)


def test_ratings_persist_across_a_restart(any_db: str, fast_hashing: None) -> None:
    with make_client(any_db) as client:
        alice, bob = Browser(client).sign("Alice", new=True), Browser(client).sign("Bob", new=True)
        gid = opened_game(alice, bob)
        assert alice.post(f"/api/games/{gid}/resign", json={}).status_code == 200
    with make_client(any_db) as client:
        shown = profile(Browser(client), "Bob")
        assert shown["ratings"][0]["games"] == 1 and shown["wins"] == 1
        assert shown["recent"][0]["id"] == gid and shown["recent"][0]["outcome"] == "win"
        assert shown["recent"][0]["change"] == f"{round(library_after(1500, 1500, 1.0) - 1500):+d}"


def test_leaderboard_keeps_humans_and_bots_apart(client: TestClient, fast_hashing) -> None:
    names = ["Ann", "Ben", "Robo"]
    players = {n: Browser(client).sign(n, new=True) for n in names}
    for k in range(3):
        for a, b in (("Ann", "Ben"), ("Robo", "Ann")):
            gid = opened_game(players[a], players[b])
            loser = players[b] if k % 2 else players[a]
            assert loser.post(f"/api/games/{gid}/resign", json={}).status_code == 200
    engine = client.app.state.service.store.engine
    with engine.begin() as c:  # Robo's games were played as a person's; now it is a bot
        c.execute(sa.text("UPDATE users SET bot = true WHERE name = 'Robo'"))
    r = client.get("/api/leaderboard/ultimate", params={"min_games": 3})
    assert r.status_code == 200, r.text
    data = r.json()
    assert (data["game"], data["days"], data["min_games"]) == ("uttt", 90, 3)
    untimed = next(b for b in data["boards"] if b["speed"] == "untimed")
    assert untimed["humans"] == [] and untimed["bots"] == []  # all still provisional
    r = client.get("/api/leaderboard/uttt", params={"min_games": 3})
    assert r.json() == data
    with engine.begin() as c:  # as if many games had been played: no longer provisional
        c.execute(sa.update(ratings.ratings).values(deviation=60.0))
    boards = client.get("/api/leaderboard/uttt", params={"min_games": 3}).json()["boards"]
    untimed = next(b for b in boards if b["speed"] == "untimed")
    assert {row["name"] for row in untimed["humans"]} == {"Ann", "Ben"}
    assert [row["name"] for row in untimed["bots"]] == ["Robo"]
    assert [row["rank"] for row in untimed["humans"]] == [1, 2]
    ratings_shown = [row["rating"] for row in untimed["humans"]]
    assert ratings_shown == sorted(ratings_shown, reverse=True)
    assert client.get("/api/users/robo").json()["bot"] is True
    too_few = client.get("/api/leaderboard/uttt", params={"min_games": 7}).json()["boards"]
    assert all(not b["humans"] and not b["bots"] for b in too_few)


@pytest.mark.parametrize(
    "path",
    [
        "/api/users/nobody-here",
        "/api/users/" + "x" * 21,
        "/api/leaderboard/chess",
        "/api/leaderboard/uttt?min_games=0",
        "/api/leaderboard/uttt?limit=1000",
    ],
)
def test_bad_profile_and_leaderboard_requests_are_refused(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code in (404, 422), r.text
    assert r.json()["error"]["code"]


def test_the_catalog_publishes_every_levels_rating_anchored_at_medium(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    published = catalog["level_ratings"]
    assert published, "no level ratings shipped"
    for game, by_level in published.items():
        assert set(by_level) == set(catalog["levels"]), game
        assert by_level["medium"] == 1500
        assert by_level["beginner"] < by_level["medium"] < by_level["max"], (game, by_level)


def test_sudoku_challenge_teams_are_rated_as_teams(client: TestClient, fast_hashing) -> None:
    names = ["Ann", "Ben", "Cat", "Dan"]
    players = [Browser(client).sign(n, new=True) for n in names]
    body = {"game": "challenge", "casual": False, "options": {"players": 4, "teams": True}}
    r = players[0].post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    for p in players[1:]:
        assert p.post(f"/api/games/{gid}/join", json={}).status_code == 200
    open_game(gid, *players)
    assert players[3].post(f"/api/games/{gid}/resign", json={}).status_code == 200
    model = PlackettLuce(mu=1500, sigma=350, beta=175, tau=3.5)
    fresh = [[model.rating(mu=1500, sigma=350) for _ in range(2)] for _ in range(2)]
    (a1, a2), (b1, b2) = model.rate(fresh, ranks=[0, 1])  # seats 0 and 2 against 1 and 3
    expected = {"Ann": a1.mu, "Cat": a2.mu, "Ben": b1.mu, "Dan": b2.mu}
    for name, mu in expected.items():
        (entry,) = profile(players[0], name)["ratings"]
        assert entry["rating"] == pytest.approx(mu, abs=0.01), name
    assert expected["Ann"] > 1500 > expected["Dan"]


def test_a_failing_rating_write_leaves_the_game_unfinished_and_a_retry_rates_it_once(
    two, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The result and the rating are one transaction: when the rating's write fails in
    the store, the resignation is refused 503 and nothing of it is kept; the retry
    finishes and rates the game, once."""
    alice, bob = two
    gid = opened_game(alice, bob)
    real = ratings.rate_game

    def broken(connection, *args, **kwargs):
        real(connection, *args, **kwargs)  # writes the rating, then the store fails
        raise sa.exc.OperationalError("INSERT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(rated_module, "rate_game", broken)
    r = alice.post(f"/api/games/{gid}/resign", json={})
    assert r.status_code == 503, r.text
    game = alice.get(f"/api/games/{gid}").json()
    assert game["status"] == "active" and "change" not in game["seats"][0]["rating"]
    assert profile(alice, "alice")["ratings"] == []
    monkeypatch.setattr(rated_module, "rate_game", real)
    r = alice.post(f"/api/games/{gid}/resign", json={})
    assert r.status_code == 200 and r.json()["ratings"] is not None
    assert alice.post(f"/api/games/{gid}/resign", json={}).status_code == 409
    assert [e["games"] for e in profile(alice, "bob")["ratings"]] == [1]
