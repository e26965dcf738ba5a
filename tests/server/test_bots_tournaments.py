"""Bots in tournaments on a real server: entering and leaving through the bot API, the
pairing announced on the event stream, and who may act for whom (both directions)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.bots_fixtures import Account, ThreadServer, bot, events, next_of
from tests.server.bots_fixtures import server_fixture as server_fixture

TC = {"initial_seconds": 300, "increment_seconds": 0}


def code(r: httpx.Response) -> str:
    return r.json()["error"]["code"]


def create(host: Account, **body: Any) -> str:
    r = host.web.post(
        "/api/tournaments", json={"game": "uttt", "time_control": TC, **body}, headers=host.csrf
    )
    assert r.status_code == 201, r.text
    return r.json()["id"]


def entrants(url: str, tid: str) -> list[str]:
    return sorted(s["name"] for s in httpx.get(f"{url}/api/tournaments/{tid}").json()["standings"])


def test_a_bot_enters_through_its_token_and_hears_of_its_pairing(server: ThreadServer) -> None:
    host = Account(server.url, "dora", bot=False)
    alpha, beta, gamma = (bot(server.url, n) for n in ("alpha", "beta", "gamma"))
    tid = create(host, format="swiss", rounds=1, rated=True)
    for b in (alpha, beta):
        r = b.api.post(f"/api/bot/tournament/{tid}/join")
        assert r.status_code == 200, r.text
        assert b.name in [s["name"] for s in r.json()["standings"]]
    r = alpha.api.post(f"/api/bot/tournament/{tid}/join")
    assert r.status_code == 409 and code(r) == "already_entered"
    r = alpha.api.post(f"/api/bot/tournament/{tid}/pause")
    assert r.status_code == 409 and code(r) == "arena_only"
    r = alpha.api.post("/api/bot/tournament/nosuchthing/join")
    assert r.status_code == 404
    with alpha.api.stream("GET", "/api/bot/stream/events") as stream:
        seen = events(stream.iter_lines())
        r = host.web.post(f"/api/tournaments/{tid}/start", headers=host.csrf)
        assert r.status_code == 200, r.text
        pairing = next_of(seen, "tournamentPairing")["tournament"]
        start = next_of(seen, "gameStart")["game"]
    assert pairing["id"] == tid and pairing["round"] == 1
    assert sorted(p["name"] for p in pairing["players"]) == ["alpha", "beta"]
    assert start["id"] == pairing["game_id"] and start["tournament"] == tid
    assert start["opponent"]["name"] == "beta" and start["rated"] is True
    gid, seat = start["id"], start["you"][0]
    mover, waiter = (alpha, beta) if seat == 0 else (beta, alpha)
    # Nobody else acts in it: another bot, the bot not on move, a person.
    r = gamma.api.post(f"/api/bot/game/{gid}/move/r5c5", params={"state": 0})
    assert r.status_code == 403 and code(r) == "not_your_game"
    assert gamma.api.get(f"/api/bot/game/stream/{gid}").status_code == 403
    r = waiter.api.post(f"/api/bot/game/{gid}/move/r5c5", params={"state": 0})
    assert r.status_code == 409 and code(r) == "not_your_turn"
    r = host.web.post(f"/api/games/{gid}/moves", json={"move": "r5c5", "state": 0},
                      headers=host.csrf)  # fmt: skip
    assert r.status_code == 403, r.text
    assert httpx.get(f"{server.url}/api/games/{gid}").json()["ply"] == 0  # nothing changed
    r = mover.api.post(f"/api/bot/game/{gid}/move/r5c5", params={"state": 0})
    assert r.status_code == 200, r.text
    seats = httpx.get(f"{server.url}/api/games/{gid}").json()["seats"]
    assert all(s["bot"] for s in seats)
    # The stream of a bot that reconnects names the tournament of the game under way.
    with beta.api.stream("GET", "/api/bot/stream/events") as stream:
        again = next(events(stream.iter_lines()))
    assert again["type"] == "gameStart" and again["game"]["tournament"] == tid


def test_a_token_acts_for_its_own_bot_only_and_a_person_never_uses_it(
    server: ThreadServer,
) -> None:
    host = Account(server.url, "dora", bot=False)
    alpha, beta = bot(server.url, "alpha"), bot(server.url, "beta")
    tid = create(host, format="arena", minutes=5)
    assert host.web.post(f"/api/tournaments/{tid}/join", headers=host.csrf).status_code == 200
    # A bot's token does not open the people's routes, a person's session not the bots'.
    r = alpha.api.post(f"/api/tournaments/{tid}/join")
    assert r.status_code == 401 and code(r) == "not_signed_in"
    r = host.web.post(f"/api/bot/tournament/{tid}/withdraw", headers=host.csrf)
    assert r.status_code == 403 and code(r) == "not_a_bot"
    r = httpx.post(
        f"{server.url}/api/bot/tournament/{tid}/join",
        headers={"Authorization": "Bearer sansu_bot_forged"},
    )
    assert r.status_code == 401 and code(r) == "bad_token"
    assert entrants(server.url, tid) == ["dora"]  # nothing changed
    for b in (alpha, beta):
        assert b.api.post(f"/api/bot/tournament/{tid}/join").status_code == 200
    # Withdrawing takes the token's own bot out, nobody else.
    assert beta.api.post(f"/api/bot/tournament/{tid}/withdraw").status_code == 200
    assert entrants(server.url, tid) == ["alpha", "dora"]
    r = beta.api.post(f"/api/bot/tournament/{tid}/withdraw")
    assert r.status_code == 409 and code(r) == "not_entered"
    with alpha.api.stream("GET", "/api/bot/stream/events") as stream:
        seen = events(stream.iter_lines())
        assert host.web.post(f"/api/tournaments/{tid}/start", headers=host.csrf).status_code == 200
        start = next_of(seen, "gameStart")["game"]
    assert start["tournament"] == tid and start["opponent"] == {
        "id": host.id, "name": "dora", "bot": False,
    }  # fmt: skip
    gid, seat = start["id"], start["you"][0]
    # The person's seat is no bot's: neither the other bot's nor the opponent's token.
    r = beta.api.post(f"/api/bot/game/{gid}/move/r5c5", params={"state": 0})
    assert r.status_code == 403 and code(r) == "not_your_game"
    if seat == 1:
        r = alpha.api.post(f"/api/bot/game/{gid}/move/r5c5", params={"state": 0})
        assert r.status_code == 409 and code(r) == "not_your_turn"
        r = host.web.post(f"/api/games/{gid}/moves", json={"move": "r5c5", "state": 0},
                          headers=host.csrf)  # fmt: skip
        assert r.status_code == 200, r.text
    r = alpha.api.post(f"/api/bot/game/{gid}/resign")
    assert r.status_code == 200
    game = httpx.get(f"{server.url}/api/games/{gid}").json()
    assert [s["bot"] for s in game["seats"]] == [seat != 1, seat == 1]
    assert game["result"]["winners"] == [1 - seat]
    r = alpha.api.post(f"/api/bot/tournament/{tid}/pause", json={"paused": True})
    assert r.status_code == 200
    line = next(s for s in r.json()["standings"] if s["name"] == "alpha")
    assert line["paused"] is True
