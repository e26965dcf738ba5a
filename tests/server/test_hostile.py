"""A hostile client: every odd message or body gets a clean refusal, changes nothing, logs
no traceback, and the socket keeps answering."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import WebSocketTestSession

from sansu.server.play.hub import Connection
from tests.server.conftest import Api, bearer

ANSWERS = ("error", "pong", "ack")


def token_protocols(token: str | None) -> list[str]:
    return ["sansu", f"token.{token}"] if token else ["sansu"]


def answer(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next answer to the client's own message (presence and events skipped); it must
    be sendable on a real socket, i.e. UTF-8 text."""
    while True:
        text = ws.receive_text()
        message = json.loads(text.encode("utf-8"))
        if message["type"] in ANSWERS:
            return message


def still_answers(ws: WebSocketTestSession, request_id: int = 99) -> None:
    ws.send_json({"type": "ping", "id": request_id})
    assert answer(ws) == {"type": "pong", "id": request_id}


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


def snapshot(api: Api, gid: str) -> tuple[int, int, int]:
    game = api.get(gid)
    return game["state"], game["seq"], len(game["moves"])


HOSTILE_TEXT = {
    "deeply nested": "[" * 8000 + "]" * 8000,
    "deeply nested object": '{"a":' * 2500 + "1" + "}" * 2500,
    "long number": '{"type": "ping", "id": ' + "7" * 5000 + "}",
    "long state": '{"type": "move", "move": "r5c5", "state": ' + "1" * 4400 + "}",
    "lone surrogate type": '{"type": "\\ud800"}',
    "lone surrogate move": '{"type": "move", "move": "r5c5\\udfff", "state": 0, "id": 3}',
    "lone surrogate key": '{"\\ud800": 1}',
    "not json": "hello",
    "a list": "[1, 2]",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_TEXT))
def test_hostile_socket_text_gets_an_error_and_the_socket_stays(
    api: Api, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    gid, tokens = api.two_players("uttt")
    before = snapshot(api, gid)
    url = f"/api/games/{gid}/ws"
    with api.client.websocket_connect(url, subprotocols=token_protocols(tokens[0])) as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.send_text(HOSTILE_TEXT[name])
        got = answer(ws)
        assert got["type"] == "error" and got["code"] in ("bad_message", "malformed_json"), got
        still_answers(ws)
        assert api.client.app.state.service.hub.count() == 1
    assert snapshot(api, gid) == before
    no_traceback(caplog)


def test_a_binary_frame_gets_an_error_and_the_socket_stays(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    gid, tokens = api.two_players("uttt")
    url = f"/api/games/{gid}/ws"
    with api.client.websocket_connect(url, subprotocols=token_protocols(tokens[0])) as ws:
        ws.receive_json()
        ws.send_bytes(json.dumps({"type": "move", "move": "r5c5", "state": 0}).encode())
        got = answer(ws)
        assert got["type"] == "error" and got["code"] == "bad_message"
        assert "binary" in got["message"]
        still_answers(ws)
    assert snapshot(api, gid)[0] == 0
    no_traceback(caplog)


class Unsendable:
    """A socket whose sends fail as a real one's does for text that is not UTF-8."""

    def __init__(self) -> None:
        self.closed_with: int | None = None

    async def send_text(self, data: str) -> None:
        data.encode("utf-8")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = code


def test_a_message_that_cannot_be_sent_closes_the_socket_instead_of_a_zombie() -> None:
    socket = Unsendable()
    connection = Connection(socket, "g", frozenset())

    async def run() -> None:
        connection.send('{"type":"pong","id":"ok"}')
        connection.send('{"type":"error","message":"\ud800"}')
        await asyncio.wait_for(connection.run_sender(), 5)

    asyncio.run(run())
    assert connection.closed and socket.closed_with == 1011


def test_records_with_a_lone_surrogate_are_refused_at_import(api: Api) -> None:
    c = api.client
    total = c.get("/api/games").json()["total"]
    bodies = {
        "metadata": {"game": "uttt", "moves": ["r5c5"], "metadata": {"event": "\ud800"}},
        "player name": {"game": "uttt", "moves": ["r5c5"], "metadata": {"players": ["\udfff"]}},
        "player dict": {
            "game": "uttt",
            "moves": [],
            "metadata": {"players": [{"name": "a\ud800"}]},
        },
    }
    for name, body in bodies.items():
        r = c.post(
            "/api/records",
            content=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 422, (name, r.text)
        assert r.json()["error"]["code"] == "bad_record" and "surrogate" in r.text
    assert c.get("/api/games").json()["total"] == total


def test_declining_a_rematch_needs_an_offer(api: Api) -> None:
    gid, tokens = api.two_players("uttt")
    for _ in range(3):
        r = api.client.delete(f"/api/games/{gid}/rematch", headers=bearer(tokens[0]))
        assert r.status_code == 409 and r.json()["error"]["code"] == "no_rematch_offer"
    assert api.get(gid)["seq"] == snapshot(api, gid)[1]
    seq = api.get(gid)["seq"]
    api.post(gid, "resign", tokens[0])
    r = api.client.delete(f"/api/games/{gid}/rematch", headers=bearer(tokens[1]))
    assert r.status_code == 409  # over, but nobody offered
    assert (
        api.client.post(f"/api/games/{gid}/rematch", headers=bearer(tokens[0])).status_code == 200
    )
    r = api.client.delete(f"/api/games/{gid}/rematch", headers=bearer(tokens[1]))
    assert r.status_code == 200 and r.json()["offers"] == []
    # resign + game_over, the offer, the refusal: nothing else was written
    assert api.get(gid)["seq"] == seq + 4


# -- properties over the socket and the HTTP API -----------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
TYPES = st.sampled_from(["move", "resign", "takeback", "rematch", "decline_rematch", "x", 1])
MESSAGES = st.one_of(
    st.binary(max_size=64).map(lambda b: ("bytes", b)),
    st.text(max_size=64).map(lambda t: ("text", t)),
    JSON.map(lambda j: ("text", json.dumps(j))),
    st.fixed_dictionaries({"type": TYPES}, optional={"state": JSON, "move": JSON, "id": JSON}).map(
        lambda j: ("text", json.dumps(j))
    ),
)


def test_a_spectator_socket_answers_anything_with_an_error(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    gid, _ = api.two_players("uttt")
    before = snapshot(api, gid)
    with api.client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()

        @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
        @given(MESSAGES)
        def check(message: tuple[str, Any]) -> None:
            kind, payload = message
            if kind == "bytes":
                ws.send_bytes(payload)
            else:
                ws.send_text(payload)
            got = answer(ws)
            assert got["type"] in ("error", "pong"), got
            assert got["type"] == "pong" or set(got) >= {"code", "message", "id"}
            still_answers(ws)

        check()
    assert snapshot(api, gid) == before
    no_traceback(caplog)


def test_a_player_socket_refuses_every_bad_request(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    """Requests of every type with a wrong state or a bad move are refused, the game unchanged."""
    gid, tokens = api.two_players("uttt")
    before = snapshot(api, gid)
    not_current = JSON.filter(lambda s: s is not None and not (type(s) is int and s == before[0]))
    requests = st.fixed_dictionaries(
        {"type": TYPES, "state": not_current}, optional={"move": JSON, "id": JSON}
    )
    url = f"/api/games/{gid}/ws"
    with api.client.websocket_connect(url, subprotocols=token_protocols(tokens[0])) as ws:
        ws.receive_json()

        @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
        @given(requests)
        def check(request: dict[str, Any]) -> None:
            ws.send_text(json.dumps(request))
            got = answer(ws)
            assert got["type"] == "error", (request, got)
            still_answers(ws)

        check()
    assert snapshot(api, gid) == before
    no_traceback(caplog)


PATHS = ["moves", "join", "resign", "takeback", "rematch"]


def test_http_bodies_of_any_shape_are_refused_cleanly(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    gid, tokens = api.two_players("uttt")
    before = snapshot(api, gid)
    bodies = st.one_of(
        st.binary(max_size=64),
        JSON.map(lambda j: json.dumps(j).encode()),
        st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
    )

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(PATHS), bodies, st.booleans())
    def check(path: str, body: bytes, with_token: bool) -> None:
        headers = {"content-type": "application/json"}
        if with_token and path in ("moves", "takeback", "rematch"):
            headers.update(bearer(tokens[1]))  # seat 1 is not to move: nothing can change
        r = api.client.post(f"/api/games/{gid}/{path}", content=body, headers=headers)
        assert 400 <= r.status_code < 500, (path, body, r.status_code, r.text)
        assert set(r.json()["error"]) >= {"code", "message"}

    check()
    r = api.client.post("/api/records", content=b"[" * 100_000, headers={"content-type": "x"})
    assert 400 <= r.status_code < 500
    after = snapshot(api, gid)
    assert after[0] == before[0] and after[2] == before[2]
    no_traceback(caplog)


def test_a_fault_of_the_server_is_answered_and_the_socket_stays(
    api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    gid, tokens = api.two_players("uttt")
    service = api.client.app.state.service

    async def broken(*_args: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(service, "play", broken)
    url = f"/api/games/{gid}/ws"
    with api.client.websocket_connect(url, subprotocols=token_protocols(tokens[0])) as ws:
        ws.receive_json()
        ws.send_json({"type": "move", "move": "r5c5", "state": 0, "id": 5})
        got = answer(ws)
        assert got["type"] == "error" and got["code"] == "internal" and got["id"] == 5
        still_answers(ws)
    assert any("a socket message failed" in r.getMessage() for r in caplog.records)
