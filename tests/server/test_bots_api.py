"""The bot API on a real server: tokens, refusals, challenges, the streams, moves."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.bots_fixtures import Account, ThreadServer, bot, events, next_of
from tests.server.bots_fixtures import server_fixture as server_fixture


def code(r: httpx.Response) -> str:
    return r.json()["error"]["code"]


def test_a_token_is_shown_once_stored_hashed_and_dies_when_revoked(
    server: ThreadServer, tmp_path: Path
) -> None:
    alpha = bot(server.url, "alpha")
    token = alpha.token
    assert token is not None and token.startswith("sansu_bot_")
    r = alpha.api.get("/api/bot/account")
    assert r.status_code == 200 and r.json() == {"id": alpha.id, "name": "alpha", "bot": True}
    listed = alpha.web.get("/api/account/tokens").json()["tokens"]
    assert [t["label"] for t in listed] == ["tests"]
    assert token not in str(listed)
    with sqlite3.connect(tmp_path / "bots.db") as db:
        rows = db.execute("select * from api_tokens").fetchall()
    assert token not in str(rows)
    assert hashlib.sha256(token.encode()).hexdigest() in str(rows)
    r = alpha.web.delete(f"/api/account/tokens/{listed[0]['id']}", headers=alpha.csrf)
    assert r.status_code == 200
    r = alpha.api.get("/api/bot/account")
    assert r.status_code == 401 and code(r) == "bad_token"
    r = alpha.web.delete(f"/api/account/tokens/{listed[0]['id']}", headers=alpha.csrf)
    assert r.status_code == 404
    # A token's writes need the CSRF header like every account write.
    r = alpha.web.post("/api/account/tokens", json={"label": "x"})
    assert r.status_code == 403 and code(r) == "csrf_failed"


def test_a_person_cannot_use_the_bot_api(server: ThreadServer) -> None:
    person = Account(server.url, "carol", bot=False)
    r = person.web.post("/api/account/tokens", json={"label": "x"}, headers=person.csrf)
    assert r.status_code == 403 and code(r) == "not_a_bot"
    r = person.web.get("/api/bot/account")
    assert r.status_code == 403 and code(r) == "not_a_bot"
    r = person.web.get("/api/bot/stream/events", headers=person.csrf)
    assert r.status_code == 403
    r = httpx.get(f"{server.url}/api/bot/account", headers={"Authorization": "Bearer sansu_bot_x"})
    assert r.status_code == 401 and code(r) == "bad_token"
    r = httpx.get(f"{server.url}/api/bot/account")
    assert r.status_code == 401 and code(r) == "token_required"


def test_a_bot_cannot_play_through_a_browser_session(server: ThreadServer) -> None:
    beta = bot(server.url, "beta")
    r = beta.web.post("/api/games", json={"game": "uttt"}, headers=beta.csrf)
    assert r.status_code == 403 and code(r) == "bot_account"
    gid = httpx.post(f"{server.url}/api/games", json={"game": "uttt"}).json()["id"]
    r = beta.web.post(f"/api/games/{gid}/join", json={}, headers=beta.csrf)
    assert r.status_code == 403 and code(r) == "bot_account"
    # ... but it may still look after its account: its tokens, its password.
    assert beta.web.get("/api/account/tokens").status_code == 200


def test_an_account_becomes_a_bot_only_before_it_played(server: ThreadServer) -> None:
    fresh = Account(server.url, "fresh", bot=False)
    r = fresh.web.post("/api/account/bot", headers=fresh.csrf)
    assert r.status_code == 200 and r.json()["bot"] is True
    assert fresh.web.get("/api/account").json()["user"]["bot"] is True
    fresh.new_token()
    assert fresh.api.get("/api/bot/account").status_code == 200
    player = Account(server.url, "player", bot=False)
    r = player.web.post("/api/games", json={"game": "uttt"}, headers=player.csrf)
    assert r.status_code == 201
    r = player.web.post("/api/account/bot", headers=player.csrf)
    assert r.status_code == 409 and code(r) == "has_played"
    assert player.web.get("/api/account").json()["user"]["bot"] is False


def test_declined_and_accepted_challenges_reach_both_event_streams(server: ThreadServer) -> None:
    alpha, beta = bot(server.url, "alpha"), bot(server.url, "beta")
    with (
        alpha.api.stream("GET", "/api/bot/stream/events") as ra,
        beta.api.stream("GET", "/api/bot/stream/events") as rb,
    ):
        assert ra.headers["content-type"].startswith("application/x-ndjson")
        a_events, b_events = events(ra.iter_lines()), events(rb.iter_lines())
        body = {"game": "uttt", "rated": True, "time_control": {"initial_seconds": 60}}
        r = alpha.api.post("/api/challenge/beta", json=body)
        assert r.status_code == 201, r.text
        first = r.json()
        got = next_of(b_events, "challenge")["challenge"]
        assert got["id"] == first["id"]
        assert got["challenger"] == {"id": alpha.id, "name": "alpha", "bot": True}
        r = alpha.api.post(f"/api/bot/challenge/{first['id']}/accept")
        assert r.status_code == 403 and code(r) == "not_your_challenge"
        r = beta.api.post(f"/api/bot/challenge/{first['id']}/decline", json={"reason": "not now"})
        assert r.status_code == 200
        declined = next_of(a_events, "challengeDeclined")["challenge"]
        assert declined["id"] == first["id"] and declined["reason"] == "not now"
        r = beta.api.post(f"/api/bot/challenge/{first['id']}/accept")
        assert r.status_code == 409 and code(r) == "challenge_closed"

        second = alpha.api.post("/api/challenge/beta", json={**body, "challenger_seat": 1}).json()
        r = beta.api.post(f"/api/bot/challenge/{second['id']}/accept")
        assert r.status_code == 200 and r.json()["status"] == "accepted"
        start_a = next_of(a_events, "gameStart")["game"]
        start_b = next_of(b_events, "gameStart")["game"]
        assert start_a["id"] == start_b["id"] == r.json()["game_id"]
        assert (start_a["you"], start_b["you"]) == ([1], [0])
        assert start_a["rated"] is True and start_a["opponent"]["name"] == "beta"
    game = httpx.get(f"{server.url}/api/games/{start_a['id']}").json()
    assert game["casual"] is False
    assert [(s["name"], s["bot"], s["account"]) for s in game["seats"]] == [
        ("beta", True, True),
        ("alpha", True, True),
    ]
    assert game["time_control"]["initial_seconds"] == 60
    listed = httpx.get(f"{server.url}/api/games", params={"status": "active"}).json()["games"]
    assert [s["bot"] for s in listed[0]["seats"]] == [True, True]
    record = httpx.get(f"{server.url}/api/games/{start_a['id']}/record").json()
    assert [p["bot"] for p in record["metadata"]["players"]] == [True, True]


def start_game(alpha: Account, beta: Account, **body: object) -> str:
    """A game of ``alpha`` (seat 0) against ``beta`` (seat 1) through a challenge."""
    made = alpha.api.post(
        "/api/challenge/beta", json={"game": "uttt", "challenger_seat": 0, **body}
    ).json()
    accepted = beta.api.post(f"/api/bot/challenge/{made['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    return accepted.json()["game_id"]


def test_game_stream_and_moves_with_state_numbers(server: ThreadServer) -> None:
    alpha, beta = bot(server.url, "alpha"), bot(server.url, "beta")
    gid = start_game(alpha, beta, time_control={"initial_seconds": 300, "increment_seconds": 2})
    with (
        alpha.api.stream("GET", f"/api/bot/game/stream/{gid}") as r,
        alpha.api.stream("GET", "/api/bot/stream/events") as re,
    ):
        stream = events(r.iter_lines())
        full = next(stream)
        assert full["type"] == "gameFull" and full["state"] == 0 and full["you"] == [0]
        assert full["view"]["to_move"] == 0 and full["clock"]["running"] == 0
        assert full["clock"]["remaining"][1] == 300.0 and full["clock"]["remaining"][0] > 290
        r1 = beta.api.post(f"/api/bot/game/{gid}/move/r5c5", params={"state": 0})
        assert r1.status_code == 409 and code(r1) == "not_your_turn"
        r1 = alpha.api.post(f"/api/bot/game/{gid}/move/r5c5", params={"state": 3})
        assert r1.status_code == 409 and code(r1) == "stale_state"
        r1 = alpha.api.post(f"/api/bot/game/{gid}/move/r5c5")
        assert r1.status_code == 422 and code(r1) == "state_required"
        r1 = alpha.api.post(f"/api/bot/game/{gid}/move/r5c5", json={"state": 0})
        assert r1.status_code == 200 and r1.json()["state"] == 1
        move = next_of(stream, "move")
        assert (move["move"], move["state"], move["seat"]) == ("r5c5", 1, 0)
        assert move["view"]["to_move"] == 1 and move["clock"]["running"] == 1
        r1 = beta.api.post(f"/api/bot/game/{gid}/move", json={"move": "r4c4", "state": 1})
        assert r1.status_code == 200 and r1.json()["state"] == 2
        assert next_of(stream, "move")["state"] == 2
        r1 = alpha.api.post(f"/api/bot/game/{gid}/move/r9c9", params={"state": 2})
        assert r1.status_code == 422 and code(r1) == "illegal_move"
        assert beta.api.post(f"/api/bot/game/{gid}/resign").status_code == 200
        over = next_of(stream, "game_over")
        assert over["result"]["winners"] == [0]
        assert list(stream) == []  # the game's stream ends with the game
        finish = next_of(events(re.iter_lines()), "gameFinish")["game"]
        assert finish["id"] == gid and finish["result"]["winners"] == [0] and finish["you"] == [0]


def test_a_bot_cannot_act_in_someone_elses_game(server: ThreadServer) -> None:
    alpha, beta, gamma = (bot(server.url, n) for n in ("alpha", "beta", "gamma"))
    gid = start_game(alpha, beta)
    r = gamma.api.get(f"/api/bot/game/stream/{gid}")
    assert r.status_code == 403 and code(r) == "not_your_game"
    r = gamma.api.post(f"/api/bot/game/{gid}/move/r5c5", params={"state": 0})
    assert r.status_code == 403 and code(r) == "not_your_game"
    r = gamma.api.post(f"/api/bot/game/{gid}/resign")
    assert r.status_code == 403
    # A person's game (seat tokens, no account) is no bot's either.
    made = httpx.post(f"{server.url}/api/games", json={"game": "uttt"}).json()
    r = alpha.api.post(f"/api/bot/game/{made['id']}/move/r5c5", params={"state": 0})
    assert r.status_code == 403
    # Nor does a seat token open the bot API.
    r = httpx.get(
        f"{server.url}/api/bot/account", headers={"Authorization": f"Bearer {made['token']}"}
    )
    assert r.status_code == 401


def test_reconnecting_event_stream_lists_games_and_open_challenges(server: ThreadServer) -> None:
    alpha, beta = bot(server.url, "alpha"), bot(server.url, "beta")
    gid = start_game(alpha, beta)
    pending = alpha.api.post("/api/challenge/beta", json={"game": "sansumoku"}).json()
    with beta.api.stream("GET", "/api/bot/stream/events") as r:
        stream = events(r.iter_lines())
        start = next(stream)
        assert start["type"] == "gameStart" and start["game"]["id"] == gid
        assert start["game"]["opponent"]["name"] == "alpha"
        assert next(stream)["challenge"]["id"] == pending["id"]
    assert httpx.get(f"{server.url}/api/bots").json()["bots"][0]["bot"] is True


def test_a_game_started_while_a_stream_opens_is_announced_once(server: ThreadServer) -> None:
    """The stream listens before it reads what it opens with: a game that starts
    in between (the challenge accepted just then) reaches it, and only once."""
    alpha, beta = bot(server.url, "alpha"), bot(server.url, "beta")
    challenges = server.app.state.challenges
    pending = alpha.api.post("/api/challenge/beta", json={"game": "uttt"}).json()
    reading = challenges.open_events

    async def accepted_meanwhile(user: Any) -> list[dict[str, Any]]:
        await challenges.accept(user, pending["id"])
        return await reading(user)

    challenges.open_events = accepted_meanwhile
    try:
        with beta.api.stream("GET", "/api/bot/stream/events") as r:
            stream = r.iter_lines()
            seen = []
            deadline = time.monotonic() + 60

            def read_up_to(challenge: dict[str, Any]) -> None:
                for line in stream:  # keep-alives at least every 7 s: the deadline is read
                    assert time.monotonic() < deadline, f"no challenge {challenge['id']}: {seen}"
                    if not line.strip():
                        continue
                    seen.append(event := json.loads(line))
                    if event["type"] == "challenge" and event["challenge"]["id"] == challenge["id"]:
                        return

            # Whatever was sent before a challenge arrives before it.
            read_up_to(beta.api.post("/api/challenge/alpha", json={"game": "sansumoku"}).json())
            read_up_to(beta.api.post("/api/challenge/alpha", json={"game": "thirtyfive"}).json())
    finally:
        challenges.open_events = reading
    starts = [e["game"] for e in seen if e["type"] == "gameStart"]
    assert len(starts) == 1 and starts[0]["opponent"]["name"] == "alpha"
    offers = [e["challenge"]["id"] for e in seen if e["type"] == "challenge"]
    assert len(offers) == len(set(offers)) == 2


def test_a_game_listed_before_its_second_seat_is_taken_names_the_opponent(
    server: ThreadServer,
) -> None:
    """A stream that opens while an accept is still seating the second player lists
    the game with the right opponent (the challenge's), not the bot itself."""
    alpha, beta = bot(server.url, "alpha"), bot(server.url, "beta")
    seating = server.app.state.challenges.seating
    join = seating.join
    pending = alpha.api.post("/api/challenge/beta", json={"game": "uttt"}).json()
    listed: list[dict[str, Any]] = []

    def first_game_start() -> dict[str, Any]:
        deadline = time.monotonic() + 30
        with alpha.api.stream("GET", "/api/bot/stream/events") as r:
            for line in r.iter_lines():  # the opening comes at once
                assert time.monotonic() < deadline, "no gameStart in the stream's opening"
                if line.strip() and (event := json.loads(line))["type"] == "gameStart":
                    return event
        raise AssertionError("the stream ended")

    async def listed_then_join(*args: Any, **kwargs: Any) -> Any:
        listed.append(await asyncio.to_thread(first_game_start))
        return await join(*args, **kwargs)

    seating.join = listed_then_join
    try:
        r = beta.api.post(f"/api/bot/challenge/{pending['id']}/accept")
    finally:
        del seating.join
    assert r.status_code == 200, r.text
    game = listed[0]["game"]
    assert game["id"] == r.json()["game_id"] and game["challenge"] == pending["id"]
    assert game["opponent"]["name"] == "beta" and len(game["you"]) == 1


def test_challenges_are_rate_limited_per_account(server: ThreadServer) -> None:
    server.app.state.challenges.set_limit("3/minute")
    alpha, beta = bot(server.url, "alpha"), bot(server.url, "beta")
    for _ in range(3):
        made = alpha.api.post("/api/challenge/beta", json={"game": "uttt"})
        assert made.status_code == 201
    r = alpha.api.post("/api/challenge/beta", json={"game": "uttt"})
    assert r.status_code == 429 and code(r) == "rate_limited"
    assert r.json()["error"]["detail"]["retry_after"] >= 1
    # Another account has its own count.
    assert beta.api.post("/api/challenge/alpha", json={"game": "uttt"}).status_code == 201


def test_bad_challenges_are_refused_and_change_nothing(server: ThreadServer) -> None:
    alpha = bot(server.url, "alpha")
    bot(server.url, "beta")
    for path, body, status, why in (
        ("/api/challenge/nobody", {"game": "uttt"}, 404, "no_user"),
        ("/api/challenge/alpha", {"game": "uttt"}, 422, "self_challenge"),
        (
            "/api/challenge/beta",
            {"game": "challenge", "options": {"players": 3}},
            422,
            "bad_options",
        ),
        ("/api/challenge/beta", {"game": "uttt", "options": {"rows": 3}}, 422, "bad_options"),
        ("/api/challenge/beta", {"game": "chess"}, 422, "unknown_game"),
    ):
        r = alpha.api.post(path, json=body)
        assert (r.status_code, code(r)) == (status, why), r.text
    assert alpha.api.get("/api/challenges").json() == {"challenges": []}


def test_a_person_challenges_a_bot_and_plays_it(server: ThreadServer) -> None:
    person = Account(server.url, "dora", bot=False)
    beta = bot(server.url, "beta")
    r = person.web.post("/api/challenge/beta", json={"game": "uttt", "challenger_seat": 0})
    assert r.status_code == 401  # a cookie write without the CSRF header is anonymous
    r = person.web.post(
        "/api/challenge/beta", json={"game": "uttt", "challenger_seat": 0}, headers=person.csrf
    )
    assert r.status_code == 201
    cid = r.json()["id"]
    accepted = beta.api.post(f"/api/bot/challenge/{cid}/accept").json()
    assert "seat_token" not in accepted  # a bot plays by its API token
    answer = person.web.get(f"/api/challenges/{cid}").json()
    gid, seat_token = answer["game_id"], answer["seat_token"]
    assert answer["seat"] == 0
    assert "seat_token" not in person.web.get(f"/api/challenges/{cid}").json()  # once
    held = httpx.get(
        f"{server.url}/api/games/{gid}", headers={"Authorization": f"Bearer {seat_token}"}
    )
    assert held.json()["you"] == [0]
    r = person.web.post(
        f"/api/games/{gid}/moves", json={"move": "r5c5", "state": 0}, headers=person.csrf
    )
    assert r.status_code == 200, r.text
    r = beta.api.post(f"/api/bot/game/{gid}/move/r4c4", params={"state": 1})
    assert r.status_code == 200
    seats = person.web.get(f"/api/games/{gid}").json()["seats"]
    assert [(s["name"], s["bot"]) for s in seats] == [("dora", False), ("beta", True)]


def test_open_streams_end_at_shutdown(server: ThreadServer) -> None:
    alpha, beta = bot(server.url, "alpha"), bot(server.url, "beta")
    gid = start_game(alpha, beta)
    with (
        alpha.api.stream("GET", "/api/bot/stream/events") as r1,
        alpha.api.stream("GET", f"/api/bot/game/stream/{gid}") as r2,
    ):
        e1, e2 = events(r1.iter_lines()), events(r2.iter_lines())
        assert next(e1)["type"] == "gameStart" and next(e2)["type"] == "gameFull"
        assert server.stop() < 4  # well before uvicorn's 5 s grace ends
        assert next_of(e1, "serverShutdown") and list(e1) == []
        assert next_of(e2, "serverShutdown") and list(e2) == []


def test_the_challenger_cancels_and_only_the_challenger(server: ThreadServer) -> None:
    alpha, beta = bot(server.url, "alpha"), bot(server.url, "beta")
    with beta.api.stream("GET", "/api/bot/stream/events") as rb:
        b_events = events(rb.iter_lines())
        made = alpha.api.post("/api/challenge/beta", json={"game": "uttt"}).json()
        assert next_of(b_events, "challenge")["challenge"]["id"] == made["id"]
        r = beta.api.post(f"/api/challenge/{made['id']}/cancel")
        assert r.status_code == 403 and code(r) == "not_your_challenge"
        r = alpha.api.post(f"/api/challenge/{made['id']}/cancel")
        assert r.status_code == 200 and r.json()["status"] == "canceled"
        assert next_of(b_events, "challengeCanceled")["challenge"]["id"] == made["id"]
    r = beta.api.post(f"/api/bot/challenge/{made['id']}/accept")
    assert r.status_code == 409 and code(r) == "challenge_closed"
    assert beta.api.get("/api/challenges").json() == {"challenges": []}
