"""The WebSocket of a game: live events, reconnection with missed events, presence, errors."""

from __future__ import annotations

import json

from tests.server.conftest import Api


def test_moves_over_the_socket_are_acknowledged_after_the_event(api: Api) -> None:
    gid, tokens = api.two_players("uttt")
    with (
        api.client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as p0,
        api.client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[1]}") as p1,
    ):
        assert p0.receive_json()["you"] == [0]
        assert p1.receive_json()["you"] == [1]
        p0.send_json({"type": "move", "move": "r5c5", "state": 0, "id": "a"})
        # presence messages may come first; then the move event, then the ack
        seen = []
        while not seen or seen[-1].get("type") != "ack":
            seen.append(p0.receive_json())
        kinds = [m["type"] for m in seen if m["type"] != "presence"]
        assert kinds == ["move", "ack"]
        move = next(m for m in seen if m["type"] == "move")
        assert move["move"] == "r5c5" and move["seat"] == 0 and move["state"] == 1
        assert move["view"]["to_move"] == 1 and move["status"] == "active"
        assert seen[-1] == {"type": "ack", "id": "a", "state": 1, "seq": move["seq"]}
        while (m := p1.receive_json())["type"] != "move":
            pass
        assert m["move"] == "r5c5"
        p1.send_json({"type": "move", "move": "r5c5", "state": 1, "id": 2})
        while (m := p1.receive_json())["type"] != "error":
            pass
        assert m["code"] == "illegal_move" and m["id"] == 2 and "r5c5" in m["message"]


def test_a_returning_client_gets_the_events_it_missed(api: Api) -> None:
    gid, tokens = api.two_players("uttt")
    with api.client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as ws:
        hello = ws.receive_json()
    seen = hello["seq"]
    state = hello["state"]
    for seat, move in ((0, "r5c5"), (1, "r4c4"), (0, "r2c2")):
        r = api.move(gid, tokens[seat], move, state)
        assert r.status_code == 200, r.text
        state = r.json()["state"]
    with api.client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}&since={seen}") as ws:
        back = ws.receive_json()
    assert back["type"] == "hello" and back["state"] == state
    assert [e["move"] for e in back["missed"] if e["type"] == "move"] == ["r5c5", "r4c4", "r2c2"]
    assert [e["seq"] for e in back["missed"]] == list(range(seen + 1, back["seq"] + 1))
    assert back["view"]["last_move"] == "r2c2"
    # after a restart the events come from the store
    api.client.app.state.service.rounds.games.clear()
    with api.client.websocket_connect(f"/api/games/{gid}/ws?since=0") as ws:
        cold = ws.receive_json()
    assert [e["type"] for e in cold["missed"]] == ["joined", "move", "move", "move"]


def test_presence_of_each_seat_is_visible(api: Api) -> None:
    created = api.create("uttt", seats=[{"kind": "human"}, {"kind": "computer", "level": "easy"}])
    gid, token = created["id"], created["token"]
    with api.client.websocket_connect(f"/api/games/{gid}/ws") as watcher:
        watcher.receive_json()
        assert watcher.receive_json() == {
            "type": "presence",
            "seats": [False, True],
            "spectators": 1,
        }
        with api.client.websocket_connect(f"/api/games/{gid}/ws?token={token}") as player:
            player.receive_json()
            assert watcher.receive_json()["seats"] == [True, True]
            assert api.get(gid)["presence"]["seats"] == [True, True]
        assert watcher.receive_json()["seats"] == [False, True]


def test_bad_socket_messages_are_answered_and_change_nothing(api: Api) -> None:
    gid, tokens = api.two_players("sansumoku")
    with api.client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as ws:
        ws.receive_json()
        cases = {
            "{not json": "malformed_json",
            json.dumps([1, 2]): "bad_message",
            json.dumps({"type": "dance"}): "bad_message",
            json.dumps({"type": "move", "move": 5, "state": 0}): "bad_message",
            json.dumps({"type": "move", "move": "r5c5", "state": "0"}): "bad_message",
            json.dumps({"type": "move", "move": "x" * 20000, "state": 0}): "too_large",
            json.dumps({"type": "move", "move": "r5c5", "state": 7}): "stale_state",
            json.dumps({"type": "move", "move": "r5c5"}): "state_required",
            json.dumps({"type": "rematch"}): "game_not_over",
        }
        for text, code in cases.items():
            ws.send_text(text)
            while (m := ws.receive_json())["type"] == "presence":
                pass
            assert m["type"] == "error" and m["code"] == code, (text[:40], m)
        ws.send_json({"type": "ping", "id": 9})
        while (m := ws.receive_json())["type"] == "presence":
            pass
        assert m == {"type": "pong", "id": 9}
    assert api.get(gid)["state"] == 0 and api.get(gid)["ply"] == 0


def test_spectators_cannot_move_and_bad_tokens_are_turned_away(api: Api) -> None:
    gid, _tokens = api.two_players("uttt")
    with api.client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "move": "r5c5", "state": 0})
        while (m := ws.receive_json())["type"] == "presence":
            pass
        assert m["code"] == "token_required"
    with api.client.websocket_connect(f"/api/games/{gid}/ws?token=nope") as ws:
        assert ws.receive_json()["code"] == "wrong_token"
    with api.client.websocket_connect("/api/games/nosuchgame/ws") as ws:
        assert ws.receive_json()["code"] == "no_such_game"


def test_a_change_while_the_hello_is_prepared_is_not_lost(api: Api) -> None:
    """A move committed while a connecting socket's hello is being prepared (the seats'
    ratings are read from the store) is in the hello: the socket is not left behind."""
    gid, tokens = api.two_players("uttt")
    service = api.client.app.state.service
    decorate = service.rated.decorate
    moved: list[int] = []

    async def slow_decorate(live, data):  # type: ignore[no-untyped-def]
        if not moved:
            moved.append((await service.play(gid, tokens[0], "r5c5", 0)).seq)
        return await decorate(live, data)

    service.rated.decorate = slow_decorate
    with api.client.websocket_connect(f"/api/games/{gid}/ws?since=0") as ws:
        hello = ws.receive_json()
    assert moved and hello["seq"] == moved[0] and hello["state"] == 1
    assert hello["view"]["last_move"] == "r5c5"


def test_a_view_the_same_for_all_is_computed_once_a_move_for_every_seat(
    api: Api, monkeypatch
) -> None:
    """Sudoku Challenge hides its solution from everyone alike: both seats and a spectator
    are sent one view of each position, computed once, and none shows the solution."""
    from sansu.games.challenge.game import ChallengeState

    gid, tokens = api.two_players("challenge")
    calls: list[object] = []
    view = ChallengeState.view
    monkeypatch.setattr(
        ChallengeState, "view", lambda self, player: calls.append(player) or view(self, player)
    )
    url = f"/api/games/{gid}/ws"
    with (
        api.client.websocket_connect(f"{url}?token={tokens[0]}") as p0,
        api.client.websocket_connect(f"{url}?token={tokens[1]}") as p1,
        api.client.websocket_connect(url) as watcher,
    ):
        hellos = [ws.receive_json() for ws in (p0, p1, watcher)]
        assert [h["you"] for h in hellos] == [[0], [1], []]
        assert hellos[0]["view"] == hellos[1]["view"] == hellos[2]["view"]
        move = hellos[0]["view"]["legal_moves"][0]
        calls.clear()
        p0.send_json({"type": "move", "move": move, "state": hellos[0]["state"]})
        events = []
        for ws in (p0, p1, watcher):
            while (m := ws.receive_json())["type"] != "move":
                pass
            events.append(m)
        assert calls == [None]  # the spectators' view, for every seat too
        assert events[0]["view"] == events[1]["view"] == events[2]["view"]
        assert events[0]["view"]["ply"] == 1 and "solution" not in json.dumps(events[0])
