"""Tournaments over HTTP: each format played to its end with scripted results, standings
checked against the stored games, entries and refusals, and a restart mid-round."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from sansu.server.accounts.identity import CSRF_HEADER
from sansu.server.base.store import make_engine
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import FEW_BLANKS, bearer, make_client
from tests.server.test_seat_accounts import PASSWORD, Browser

TC = {"initial_seconds": 600, "increment_seconds": 0}


def people(client: TestClient, *names: str, new: bool = True) -> dict[str, Browser]:
    return {n: Browser(client).sign(n, new=new) for n in names}


def create(b: Browser, expect: int = 201, **body: Any) -> dict[str, Any]:
    body.setdefault("time_control", TC)
    body.setdefault("game", "uttt")
    r = b.post("/api/tournaments", json=body)
    assert r.status_code == expect, r.text
    return r.json()


def act(b: Browser, tid: str, what: str, expect: int = 200, **body: Any) -> dict[str, Any]:
    r = b.post(f"/api/tournaments/{tid}/{what}", json=body or None)
    assert r.status_code == expect, r.text
    return r.json()


def duel(ps: dict[str, Browser], **body: Any) -> tuple[str, dict[str, Any]]:
    """A tournament of Alice and Bob, started: its id and its first game."""
    tid = create(ps["Alice"], **body)["id"]
    act(ps["Alice"], tid, "join")
    act(ps["Bob"], tid, "join")
    (game,) = open_games(act(ps["Alice"], tid, "start"))
    return tid, game


def look(client: TestClient, tid: str) -> dict[str, Any]:
    r = client.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return r.json()


def wait_for(client: TestClient, tid: str, ok: Callable[[dict], bool]) -> dict[str, Any]:
    """The tournament once ``ok`` holds (a game's end reaches it in the background)."""
    for _ in range(200):
        t = look(client, tid)
        if ok(t):
            return t
        time.sleep(0.02)
    raise AssertionError(f"the tournament never got there: {t}")


def open_games(t: dict[str, Any]) -> list[dict[str, Any]]:
    """The games under way (a pairing gets its game id once the game is created)."""
    return [
        p
        for r in t["rounds"]
        for p in r["pairings"]
        if p["kind"] == "game" and not p["finished"] and p["game_id"]
    ]


def finished(t: dict[str, Any]) -> int:
    return sum(1 for r in t["rounds"] for p in r["pairings"] if p["finished"])


def resign(by: Browser, gid: str) -> None:
    assert gid, "no game"
    r = by.post(f"/api/games/{gid}/resign", json=None)
    assert r.status_code == 200, r.text


def finish_round(
    client: TestClient, players: dict[str, Browser], t: dict, loser_seat: Callable[[int], int]
) -> None:
    """Ends every open game: the seat ``loser_seat(board)`` resigns."""
    for p in open_games(t):
        loser = p["players"][loser_seat(p["board"])]["name"]
        resign(players[loser], p["game_id"])


def stored_scores(
    client: TestClient, t: dict[str, Any], win: float, draw: float
) -> dict[str, float]:
    """Scores computed from the games themselves (not from the tournament's records)."""
    scores: dict[str, float] = {}
    for r in t["rounds"]:
        for p in r["pairings"]:
            names = [x["name"] for x in p["players"]]
            for n in names:
                scores.setdefault(n, 0.0)
            if p["kind"] == "bye":
                scores[names[0]] += 1.0 if t["format"] == "swiss" else 0.0
                continue
            game = client.get(f"/api/games/{p['game_id']}").json()
            seat_names = [s["name"] for s in game["seats"]]
            assert seat_names == names  # every seat bound to its player's account
            assert all(s["account"] for s in game["seats"])
            assert game["casual"] is (not t["rated"])
            result = game["result"]
            for seat, n in enumerate(seat_names):
                scores[n] += win if seat in result["winners"] else draw if result["draw"] else 0.0
    return scores


@pytest.fixture
def four(client: TestClient, fast_hashing: None) -> dict[str, Browser]:
    return people(client, "Alice", "Bob", "Carol", "Dave", "Erin")


def test_swiss_runs_to_the_end(client: TestClient, four: dict[str, Browser]) -> None:
    t = create(four["Alice"], format="swiss", rounds=3, rated=True, name="Tuesday Swiss")
    tid = t["id"]
    assert t["status"] == "upcoming" and t["players"] == 0
    for name in four:
        act(four[name], tid, "join")
    act(four["Bob"], tid, "start", expect=403)
    t = act(four["Alice"], tid, "start")
    assert t["status"] == "running" and t["round"] == 1
    byes = []
    for number in range(1, 4):
        t = wait_for(client, tid, lambda t, n=number: t["round"] == n and len(open_games(t)) == 2)
        current = t["rounds"][-1]["pairings"]
        byes += [p["players"][0]["name"] for p in current if p["kind"] == "bye"]
        assert len(current) == 3  # five players: two games and a bye
        finish_round(client, four, t, lambda board: board % 2)  # board 1: black resigns
        standings_after = wait_for(
            client, tid, lambda t, n=number: t["round"] > n or t["status"] == "finished"
        )
        assert standings_after["standings"]  # standings after each round
    t = wait_for(client, tid, lambda t: t["status"] == "finished")
    assert len(set(byes)) == 3  # nobody gets two byes
    met = [
        frozenset(x["name"] for x in p["players"])
        for r in t["rounds"]
        for p in r["pairings"]
        if p["kind"] == "game"
    ]
    assert len(met) == len(set(met)) == 6  # no rematch
    expected = stored_scores(client, t, 1.0, 0.5)
    assert {s["name"]: s["score"] for s in t["standings"]} == expected
    scores = [s["score"] for s in t["standings"]]
    assert scores == sorted(scores, reverse=True)
    assert [p["name"] for p in t["podium"]] == [s["name"] for s in t["standings"][:3]]
    listed = client.get("/api/tournaments?status=finished").json()["tournaments"]
    assert [x["id"] for x in listed] == [tid]


def test_round_robin_everyone_meets_everyone(client: TestClient, four: dict[str, Browser]) -> None:
    t = create(four["Carol"], format="round_robin", game="sansumoku")
    tid = t["id"]
    for name in ("Alice", "Bob", "Carol", "Dave"):
        act(four[name], tid, "join")
    t = act(four["Carol"], tid, "start")
    assert t["rounds"] and t["rounds"][0]["round"] == 1
    for number in range(1, 4):
        t = wait_for(client, tid, lambda t, n=number: t["round"] == n and len(open_games(t)) == 2)
        finish_round(client, four, t, lambda board: 1)  # white wins every game
    t = wait_for(client, tid, lambda t: t["status"] == "finished")
    met = [frozenset(x["name"] for x in p["players"]) for r in t["rounds"] for p in r["pairings"]]
    assert len(met) == len(set(met)) == 6
    assert {s["name"]: s["score"] for s in t["standings"]} == stored_scores(client, t, 1.0, 0.5)
    act(four["Erin"], tid, "join", expect=409)


def test_arena_pairs_free_players_until_the_end(
    client: TestClient, four: dict[str, Browser]
) -> None:
    t = create(four["Alice"], format="arena", minutes=1, name="Blitz arena")
    tid = t["id"]
    for name in ("Alice", "Bob", "Carol", "Dave"):
        act(four[name], tid, "join")
    t = act(four["Alice"], tid, "start")
    assert len(open_games(t)) == 2 and t["ends_at"] > t["started_at"]
    # Erin joins late: nobody is free, so Erin waits; Dave pauses in his game
    t = act(four["Erin"], tid, "join")
    assert len(open_games(t)) == 2
    act(four["Dave"], tid, "pause", paused=True)
    first = open_games(t)
    finish_round(client, four, t, lambda board: 1)  # seat 0 wins each
    t = wait_for(client, tid, lambda t: finished(t) == 2 and len(open_games(t)) == 2)
    playing = {x["name"] for p in open_games(t) for x in p["players"]}
    assert "Dave" not in playing  # paused players are not paired
    assert len(playing) == 4
    for p in open_games(t):
        assert {x["name"] for x in p["players"]} not in [
            {x["name"] for x in q["players"]} for q in first
        ]
    winners = {p["players"][0]["name"] for p in first}
    for line in t["standings"]:
        assert line["score"] == (2 if line["name"] in winners else 0)


def test_arena_streak_and_end(db_path: str, fast_hashing: None) -> None:
    """Three wins in a row: 2 + 2 + 4. After the end no game starts; the last one counts."""
    now = [1_000_000.0]
    with make_client(db_path) as client:
        client.app.state.tournaments.director.time = lambda: now[0]
        ps = people(client, "Alice", "Bob")
        tid = create(ps["Alice"], format="arena", minutes=10)["id"]
        act(ps["Alice"], tid, "join")
        act(ps["Bob"], tid, "join")
        t = act(ps["Alice"], tid, "start")
        for count in range(1, 4):
            (p,) = open_games(t)
            if count == 3:
                now[0] += 11 * 60  # the arena ends while the third game is played
            resign(ps["Bob"], p["game_id"])
            t = wait_for(
                client,
                tid,
                lambda t, c=count: (
                    finished(t) == c and (len(open_games(t)) == 1 or t["status"] == "finished")
                ),
            )
        assert t["status"] == "finished" and not open_games(t)
        alice = next(s for s in t["standings"] if s["name"] == "Alice")
        assert alice["score"] == 8 and alice["fire"]
        assert len(t["rounds"]) == 3


def test_challenge_arena_seats_three_per_table(
    client: TestClient, four: dict[str, Browser]
) -> None:
    t = create(
        four["Alice"],
        format="arena",
        minutes=5,
        game="challenge",
        options={
            "players": 3,
            "puzzle": FEW_BLANKS,
        },
    )
    tid = t["id"]
    assert t["table_size"] == 3
    for name in four:
        act(four[name], tid, "join")
    t = act(four["Alice"], tid, "start")
    (table,) = open_games(t)
    assert len(table["players"]) == 3
    game = client.get(f"/api/games/{table['game_id']}").json()
    assert len(game["seats"]) == 3 and all(s["account"] for s in game["seats"])
    create(
        four["Alice"],
        expect=422,
        format="swiss",
        rounds=3,
        game="challenge",
        options={"players": 3},
    )


def test_refusals_change_nothing(client: TestClient, four: dict[str, Browser]) -> None:
    anonymous = client.post(
        "/api/tournaments",
        json={"format": "arena", "game": "uttt", "minutes": 5, "time_control": TC},
    )
    assert anonymous.status_code == 401
    no_csrf = four["Alice"].post(
        "/api/tournaments",
        json={"format": "arena", "game": "uttt", "minutes": 5, "time_control": TC},
        headers={"X-CSRF-Token": "x"},
    )
    assert no_csrf.status_code == 403 and no_csrf.json()["error"]["code"] == "csrf_failed"
    assert create(four["Alice"], expect=422, format="swiss")["error"]["code"] == "bad_tournament"
    assert create(four["Alice"], expect=422, format="arena", minutes=5, time_control=None)["error"][
        "code"
    ] in ("time_control_required", "invalid_request")
    assert (
        create(four["Alice"], expect=422, format="arena", minutes=5, options={"nope": 1})["error"][
            "code"
        ]
        == "bad_options"
    )
    assert client.get("/api/tournaments").json()["tournaments"] == []
    tid = create(four["Alice"], format="swiss", rounds=2)["id"]
    act(four["Alice"], tid, "start", expect=409)  # too few players
    act(four["Alice"], tid, "join")
    act(four["Alice"], tid, "join", expect=409)
    act(four["Bob"], tid, "pause", expect=409)  # not entered
    act(four["Alice"], tid, "pause", expect=409)  # arena only
    act(four["Alice"], tid, "withdraw")
    assert look(client, tid)["players"] == 0
    assert client.get("/api/tournaments/nope").status_code == 404
    assert client.delete(f"/api/tournaments/{tid}").status_code == 405


def test_restart_mid_round(db_path: str, fast_hashing: None) -> None:
    """A Swiss resumes after a restart; a game that ended unrecorded, and a pairing whose
    game id was not stored, are both found again; nothing is counted twice."""
    with make_client(db_path) as client:
        ps = people(client, "Alice", "Bob", "Carol", "Dave")
        tid = create(ps["Alice"], format="swiss", rounds=2)["id"]
        for b in ps.values():
            act(b, tid, "join")
        t = act(ps["Alice"], tid, "start")
        first, second = open_games(t)
        resign(ps[first["players"][1]["name"]], first["game_id"])
        wait_for(client, tid, lambda t: len(open_games(t)) == 1)
    engine = make_engine(db_path)
    with engine.begin() as c:  # as if the server had stopped before these two writes
        c.execute(
            sa.text(
                "UPDATE tournament_pairings SET finished_at = NULL, outcomes = NULL"
                " WHERE game_id = :g"
            ),
            {"g": first["game_id"]},
        )
        c.execute(
            sa.text("UPDATE tournament_pairings SET game_id = NULL WHERE game_id = :g"),
            {"g": second["game_id"]},
        )
        games_before = c.execute(sa.text("SELECT COUNT(*) FROM games")).scalar()
    engine.dispose()
    with make_client(db_path) as client:
        ps = people(client, "Alice", "Bob", "Carol", "Dave", new=False)
        t = look(client, tid)
        assert [p["game_id"] for p in open_games(t)] == [second["game_id"]]
        resign(ps[second["players"][1]["name"]], second["game_id"])
        t = wait_for(client, tid, lambda t: t["round"] == 2 and len(open_games(t)) == 2)
        assert sum(s["score"] for s in t["standings"]) == 2.0
        for p in open_games(t):
            resign(ps[p["players"][0]["name"]], p["game_id"])
        t = wait_for(client, tid, lambda t: t["status"] == "finished")
        assert {s["name"]: s["score"] for s in t["standings"]} == stored_scores(client, t, 1.0, 0.5)
    engine = make_engine(db_path)
    with engine.connect() as c:
        assert c.execute(sa.text("SELECT COUNT(*) FROM games")).scalar() == games_before + 2
    engine.dispose()


def test_round_robin_withdrawal_forfeits_and_rests(
    client: TestClient, four: dict[str, Browser]
) -> None:
    """Three players: one rests each round; Carol withdraws after round 1, so her later
    opponents win without a game; pairings are announced to the listeners (bots)."""
    heard: list[Any] = []

    async def listener(pairing: Any) -> None:
        heard.append(pairing)

    client.app.state.tournaments.on_pairing(listener)
    tid = create(four["Alice"], format="round_robin")["id"]
    for name in ("Alice", "Bob", "Carol"):
        act(four[name], tid, "join")
    t = act(four["Alice"], tid, "start")
    assert t["rounds"][0]["pairings"][-1]["kind"] == "bye" and t["rounds"] and t["round"] == 1
    (game,) = open_games(t)
    assert [(p.tournament_id, p.game_id) for p in heard] == [(tid, game["game_id"])]
    assert heard[0].players == tuple(x["user_id"] for x in game["players"])
    act(four["Carol"], tid, "withdraw")
    loser = game["players"][1]["name"]
    resign(four[loser], game["game_id"])
    played = {game["game_id"]}
    while True:
        t = wait_for(
            client,
            tid,
            lambda t, g=frozenset(played): (
                t["status"] == "finished" or any(p["game_id"] not in g for p in open_games(t))
            ),
        )
        if t["status"] == "finished":
            break
        for p in open_games(t):
            played.add(p["game_id"])
            resign(four[p["players"][1]["name"]], p["game_id"])
    kinds = sorted(p["kind"] for r in t["rounds"] for p in r["pairings"])
    assert kinds.count("bye") == 3 and kinds.count("forfeit") >= 1
    assert kinds.count("game") + kinds.count("forfeit") == 3
    assert len(t["rounds"]) == 3
    forfeits = [p for r in t["rounds"] for p in r["pairings"] if p["kind"] == "forfeit"]
    assert all(p["players"][1]["name"] == "Carol" for p in forfeits)
    total = {s["name"]: s["score"] for s in t["standings"]}
    assert sum(total.values()) == 3.0  # three pairs, a point each: games or forfeits
    carol = next(s for s in t["standings"] if s["name"] == "Carol")
    assert carol["withdrawn"]


def test_swiss_ends_early_without_a_pairing(client: TestClient, four: dict[str, Browser]) -> None:
    tid, game = duel(four, format="swiss", rounds=3)
    resign(four[game["players"][1]["name"]], game["game_id"])
    t = wait_for(client, tid, lambda t: t["status"] == "finished")
    assert len(t["rounds"]) == 1 and t["podium"][0]["score"] == 1.0


def test_starts_by_itself(client: TestClient, four: dict[str, Browser]) -> None:
    tid = create(four["Alice"], format="arena", minutes=5, starts_in_minutes=0)["id"]
    later = create(four["Alice"], format="arena", minutes=5, starts_in_minutes=0.01)["id"]
    act(four["Bob"], later, "join")
    act(four["Carol"], later, "join")
    t = wait_for(client, later, lambda t: t["status"] == "running" and len(open_games(t)) == 1)
    assert t["started_at"] >= t["starts_at"]
    # the first one's time came with nobody entered: it waits for its creator
    assert look(client, tid)["status"] == "upcoming"


def test_arena_end_passes_while_the_server_is_down(db_path: str, fast_hashing: None) -> None:
    with make_client(db_path) as client:
        tid, game = duel(people(client, "Alice", "Bob"), format="arena", minutes=30)
    engine = make_engine(db_path)
    with engine.begin() as c:
        c.execute(sa.text("UPDATE tournaments SET ends_at = ends_at - 3600"))
    engine.dispose()
    with make_client(db_path) as client:
        ps = people(client, "Alice", "Bob", new=False)
        assert look(client, tid)["status"] == "running"  # its last game is still played
        resign(ps["Bob"], game["game_id"])
        t = wait_for(client, tid, lambda t: t["status"] == "finished")
        assert finished(t) == 1 and not open_games(t)  # no game after the end
        assert [s["name"] for s in t["podium"]] == ["Alice", "Bob"]


def test_a_player_gets_a_seat_token_for_their_own_game(
    client: TestClient, four: dict[str, Browser]
) -> None:
    tid, game = duel(four, format="swiss", rounds=1)
    gid = game["game_id"]
    first = act(four["Alice"], tid, f"games/{gid}/token")
    seat = first["seat"]
    assert game["players"][seat]["name"] == "Alice"
    again = act(four["Alice"], tid, f"games/{gid}/token")
    assert again["seat"] == seat and again["token"] != first["token"]
    assert client.get(f"/api/games/{gid}", headers=bearer(again["token"])).json()["you"] == [seat]
    old = client.get(f"/api/games/{gid}", headers=bearer(first["token"]))
    assert old.status_code == 403  # the earlier token no longer holds the seat
    act(four["Carol"], tid, f"games/{gid}/token", expect=403)  # not her game
    assert client.post(f"/api/tournaments/{tid}/games/{gid}/token").status_code == 401
    other = duel(four, format="swiss", rounds=1)[0]
    act(four["Alice"], other, f"games/{gid}/token", expect=403)  # not that tournament's game
    r = client.post(f"/api/games/{gid}/resign", headers=bearer(again["token"]))
    assert r.status_code == 200
    wait_for(client, tid, lambda t: t["status"] == "finished")
    act(four["Alice"], tid, f"games/{gid}/token", expect=409)  # the game is over


def test_a_bot_accounts_browser_session_is_refused_everywhere(
    client: TestClient, fast_hashing: None
) -> None:
    """A bot plays tournaments through the bot API with its token: its browser session
    may read, but neither creates, joins, pauses, withdraws, starts nor takes a seat."""
    alice = people(client, "Alice")["Alice"]
    tid = create(alice, format="round_robin")["id"]
    robot = Browser(client)
    r = robot.post("/api/account/signup", json={"name": "Robot", "password": PASSWORD, "bot": True})
    assert r.status_code in (200, 201), r.text
    robot.headers[CSRF_HEADER] = r.json()["csrf_token"]
    r = robot.post(
        "/api/tournaments", json={"game": "uttt", "format": "round_robin", "time_control": TC}
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "bot_account", r.text
    for what in ("join", "pause", "withdraw", "start", "games/abcdef/token"):
        r = robot.post(f"/api/tournaments/{tid}/{what}")
        assert r.status_code == 403 and r.json()["error"]["code"] == "bot_account", (what, r.text)
    assert look(client, tid)["players"] == 0
    assert robot.get(f"/api/tournaments/{tid}").status_code == 200
