"""Offers between two people: draws (accepted, declined, answered by a move, refused where
the rules cannot draw, never twice), takeback requests (accepted, declined, refused in rated
games), and claims of a draw, and the claim's time shown to the player who may claim."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import Api, bearer
from tests.server.test_aborts_claims import game_of, later, left_by_bob
from tests.server.test_rated_games import opened_game, profile
from tests.server.test_seat_accounts import Browser


@pytest.fixture
def pair(client: TestClient, fast_hashing: None) -> tuple[Browser, Browser]:
    return Browser(client).sign("Alice", new=True), Browser(client).sign("Bob", new=True)


def offer(api: Api, gid: str, token: str | None, kind: str = "draw", **body: Any) -> Any:
    return api.client.post(f"/api/games/{gid}/offers/{kind}", json=body, headers=bearer(token))


def answer(api: Api, gid: str, token: str | None, accept: bool, kind: str = "draw") -> Any:
    url = f"/api/games/{gid}/offers/{kind}"
    if accept:
        return api.client.post(f"{url}/accept", headers=bearer(token))
    return api.client.delete(url, headers=bearer(token))


def play(api: Api, gid: str, token: str) -> dict[str, Any]:
    game = api.get(gid, token)
    r = api.move(gid, token, game["view"]["legal_moves"][0], game["state"])
    assert r.status_code == 200, r.text
    return api.get(gid, token)


def code(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def until(ws: Any, kind: str) -> dict[str, Any]:
    while (message := ws.receive_json())["type"] != kind:
        pass
    return message


def test_a_draw_offer_reaches_both_players_and_accepted_ends_the_game_drawn(api: Api) -> None:
    gid, tokens = api.two_players("uttt")
    play(api, gid, tokens[0])
    sockets = [
        api.client.websocket_connect(f"/api/games/{gid}/ws", subprotocols=["sansu", f"token.{t}"])
        for t in (tokens[0], tokens[1])
    ]
    with sockets[0] as ws0, sockets[1] as ws1:
        assert ws0.receive_json()["type"] == ws1.receive_json()["type"] == "hello"
        r = offer(api, gid, tokens[0])  # on the opponent's turn
        assert r.status_code == 200, r.text
        assert r.json()["offers"] == {"draw": 0}
        for ws in (ws0, ws1):
            event = until(ws, "offer")
            assert (event["offer"], event["seat"]) == ("draw", 0)
        assert api.get(gid, tokens[1])["offers"] == {"draw": 0}
        assert api.get(gid)["offers"] == {"draw": 0}  # spectators see it too
        r = answer(api, gid, tokens[1], accept=True)
        assert r.status_code == 200, r.text
        for ws in (ws0, ws1):
            over = until(ws, "game_over")
            assert over["termination"] == "agreement" and over["result"]["draw"] is True
    game = api.get(gid, tokens[0])
    assert (game["status"], game["termination"], game["offers"]) == ("finished", "agreement", {})
    assert game["result"]["winners"] == [] and game["result"]["reason"] == "drawn by agreement"
    assert "offers" not in api.client.get(f"/api/games/{gid}/record").json()["metadata"]


def test_a_declined_draw_offer_is_gone_and_may_be_made_again_but_not_twice(api: Api) -> None:
    gid, tokens = api.two_players("sansumoku")
    play(api, gid, tokens[0])
    assert offer(api, gid, tokens[1]).status_code == 200
    assert code(offer(api, gid, tokens[1])) == (409, "no_offer")  # not twice
    assert code(answer(api, gid, tokens[1], accept=True)) == (409, "own_offer")
    r = answer(api, gid, tokens[0], accept=False)
    assert r.status_code == 200 and r.json()["offers"] == {}
    game = api.get(gid, tokens[0])
    assert (game["status"], game["offers"]) == ("active", {})
    assert code(answer(api, gid, tokens[0], accept=True)) == (409, "no_offer")
    assert offer(api, gid, tokens[1]).json()["offers"] == {"draw": 1}  # again, after a no
    r = answer(api, gid, tokens[1], accept=False)  # the offerer withdraws it
    assert r.status_code == 200 and r.json()["offers"] == {}
    with api.client.websocket_connect(f"/api/games/{gid}/ws?since=0") as ws:
        hello = ws.receive_json()
    kinds = [e["type"] for e in hello["missed"] if e["type"].startswith("offer")]
    assert kinds == ["offer", "offer_declined", "offer", "offer_withdrawn"]


def test_the_opponents_move_answers_a_draw_offer_and_the_offerers_own_does_not(api: Api) -> None:
    gid, tokens = api.two_players("thirtyfive")
    assert offer(api, gid, tokens[0]).json()["offers"] == {"draw": 0}  # on the offerer's turn
    assert play(api, gid, tokens[0])["offers"] == {"draw": 0}  # offer, then move
    assert play(api, gid, tokens[1])["offers"] == {}  # the reply declines it
    assert offer(api, gid, tokens[0]).status_code == 200
    assert offer(api, gid, tokens[1]).json() | {"state": 0} == {
        "offers": {},
        "state": 0,
        "status": "finished",
        "result": api.get(gid)["result"],
    }  # both offered: a draw
    assert api.get(gid)["termination"] == "agreement"


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"game": "sumodoku"}, "cannot end drawn"),
        ({"game": "uttt", "seats": [{"kind": "human"}, {"kind": "computer"}]}, "two people"),
        ({"game": "challenge", "options": {"players": 3}}, "two people"),
    ],
)
def test_no_draw_offer_where_the_rules_cannot_draw_or_not_between_two_people(
    api: Api, body: dict[str, Any], why: str
) -> None:
    gid, tokens = api.two_players(body.pop("game"), **body)
    before = api.get(gid)["seq"]
    r = offer(api, gid, tokens[0])
    assert code(r) == (409, "no_offer") and why in r.json()["error"]["message"]
    assert api.get(gid)["seq"] == before and api.get(gid)["offers"] == {}


def test_nobody_offers_or_answers_for_a_seat_not_theirs(api: Api) -> None:
    gid, tokens = api.two_players("uttt")
    assert code(offer(api, gid, None)) == (401, "token_required")
    assert offer(api, gid, "not-a-token").status_code == 403
    assert offer(api, gid, tokens[0]).status_code == 200
    assert code(answer(api, gid, None, accept=True)) == (401, "token_required")
    assert answer(api, gid, "not-a-token", accept=False).status_code == 403
    assert offer(api, gid, tokens[0], kind="resign").status_code == 422
    assert code(offer(api, gid, tokens[1], state=99)) == (409, "stale_state")
    assert api.get(gid)["offers"] == {"draw": 0} and api.get(gid)["status"] == "active"


def test_a_takeback_request_accepted_gives_the_requester_the_move_again(api: Api) -> None:
    gid, tokens = api.two_players("uttt")
    play(api, gid, tokens[0])
    assert code(offer(api, gid, tokens[1], "takeback")) == (409, "no_offer")  # no move of his
    assert offer(api, gid, tokens[0], "takeback").json()["offers"] == {"takeback": 0}
    r = answer(api, gid, tokens[1], accept=True, kind="takeback")
    assert r.status_code == 200, r.text
    game = api.get(gid, tokens[0])
    assert (game["moves"], game["view"]["to_move"], game["offers"]) == ([], 0, {})
    # asked on one's own turn, after the reply: both moves go
    play(api, gid, tokens[0])
    play(api, gid, tokens[1])
    offer(api, gid, tokens[0], "takeback")
    answer(api, gid, tokens[1], accept=True, kind="takeback")
    game = api.get(gid, tokens[0])
    assert (len(game["moves"]), game["view"]["to_move"], game["status"]) == (0, 0, "active")


def test_a_takeback_request_declined_or_answered_by_a_move_changes_nothing(api: Api) -> None:
    gid, tokens = api.two_players("sansumoku")
    played = play(api, gid, tokens[0])
    offer(api, gid, tokens[0], "takeback")
    r = answer(api, gid, tokens[1], accept=False, kind="takeback")
    assert r.status_code == 200 and r.json()["offers"] == {}
    assert api.get(gid)["moves"] == played["moves"]
    offer(api, gid, tokens[0], "takeback")
    assert play(api, gid, tokens[1])["offers"] == {}  # a move leaves the request behind
    taken = answer(api, gid, tokens[1], accept=True, kind="takeback")
    assert code(taken) == (409, "no_offer") and len(api.get(gid)["moves"]) == 2


def test_no_takeback_request_in_a_rated_game_and_a_draw_there_is_rated(pair) -> None:
    alice, bob = pair
    gid = opened_game(alice, bob)
    r = alice.post(f"/api/games/{gid}/offers/takeback", json={})
    assert r.status_code == 409 and "casual" in r.json()["error"]["message"]
    assert alice.post(f"/api/games/{gid}/offers/draw", json={}).status_code == 200
    r = bob.post(f"/api/games/{gid}/offers/draw/accept")
    assert r.status_code == 200, r.text
    game = game_of(alice, gid)
    assert (game["termination"], game["result"]["draw"]) == ("agreement", True)
    assert all("change" in s["rating"] for s in game["seats"])
    assert [r["draws"] for r in profile(alice, "alice")["ratings"]] == [1]


def test_a_claim_may_call_it_a_draw_and_the_page_knows_when_it_may_claim(pair, client) -> None:
    alice, bob = pair
    gid = left_by_bob(alice, bob)
    waiting = game_of(alice, gid)["claim_at"]
    assert time.time() + 50 < waiting <= time.time() + 60
    assert game_of(bob, gid)["claim_at"] is None  # his own turn
    later(client, 61)
    assert game_of(alice, gid)["claim_at"] <= time.time() + 61
    r = alice.post(f"/api/games/{gid}/claim", json={"draw": True})
    assert r.status_code == 200, r.text
    game = game_of(alice, gid)
    assert (game["termination"], game["result"]["draw"]) == ("abandonment", True)
