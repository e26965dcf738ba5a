"""Chat in a game: who reads and writes each room, what a message may hold, how fast one
may write, the messages stored with the game and delivered on its sockets, reports, and
a moderator's removal."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import Api, bearer, make_client
from tests.server.test_cluster import Redis
from tests.server.test_seat_accounts import Browser


def say(client: TestClient, gid: str, token: str | None, room: str, text: str) -> Any:
    return client.post(
        f"/api/games/{gid}/chat", json={"room": room, "text": text}, headers=bearer(token)
    )


def read(client: TestClient, gid: str, token: str | None, room: str) -> Any:
    return client.get(f"/api/games/{gid}/chat", params={"room": room}, headers=bearer(token))


def texts(client: TestClient, gid: str, token: str | None, room: str) -> list[str]:
    r = read(client, gid, token, room)
    assert r.status_code == 200, r.text
    return [m["text"] for m in r.json()["messages"]]


def stored(db: str, table: str) -> list[dict[str, Any]]:
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as c:
            return [dict(r._mapping) for r in c.execute(sa.text(f"SELECT * FROM {table}"))]
    finally:
        engine.dispose()


def code(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def next_chat(ws: Any) -> dict[str, Any]:
    """The next chat event on a game's socket (hello and presence skipped)."""
    while True:
        event = ws.receive_json()
        if event["type"] in ("chat", "chat_removed"):
            return event


@pytest.fixture
def game(api: Api) -> tuple[str, dict[int, str]]:
    return api.two_players("uttt", name="Ann")


def test_players_talk_in_their_room_and_nobody_else_reads_or_writes_it(
    client: TestClient, game: tuple[str, dict[int, str]]
) -> None:
    gid, tokens = game
    r = say(client, gid, tokens[0], "players", "  Hello  ")
    assert r.status_code == 201, r.text
    message = r.json()["message"]
    assert message["text"] == "Hello" and message["seat"] == 0 and message["name"] == "Ann"
    assert message["author"] == f"seat:{gid}:0"
    assert say(client, gid, tokens[1], "players", "Good luck").status_code == 201
    assert texts(client, gid, tokens[1], "players") == ["Hello", "Good luck"]
    assert code(read(client, gid, None, "players")) == (401, "token_required")
    assert code(read(client, gid, "not-a-token", "players")) == (403, "players_only")
    assert code(say(client, gid, None, "players", "hi")) == (401, "token_required")
    assert code(say(client, gid, "not-a-token", "players", "hi")) == (403, "players_only")
    assert texts(client, gid, tokens[0], "players") == ["Hello", "Good luck"]


def test_nobody_writes_for_a_seat_not_theirs(
    client: TestClient, game: tuple[str, dict[int, str]], db_path: str
) -> None:
    gid, tokens = game
    body = {"room": "players", "text": "I am seat 1", "seat": 1}
    r = client.post(f"/api/games/{gid}/chat", json=body, headers=bearer(tokens[0]))
    assert r.status_code == 422
    assert say(client, gid, tokens[0], "players", "mine").json()["message"]["seat"] == 0
    assert [row["seat"] for row in stored(db_path, "chat_messages")] == [0]


def test_bad_messages_are_refused_and_change_nothing(
    client: TestClient, game: tuple[str, dict[int, str]], db_path: str
) -> None:
    gid, tokens = game
    refused = {
        "x" * 141: "too_long",
        "   ": "empty_message",
        "ring\x07": "control_character",
        "line\nbreak": "control_character",
        "abc\u202edcba": "control_character",
    }
    for text, expected in refused.items():
        assert code(say(client, gid, tokens[0], "players", text)) == (422, expected), text
    assert say(client, gid, tokens[0], "lobby", "hi").status_code == 422
    assert read(client, gid, tokens[0], "lobby").status_code == 422
    assert say(client, "nosuchgame", tokens[0], "players", "hi").status_code == 404
    r = client.post(
        f"/api/games/{gid}/chat", json={"room": "players", "text": 7}, headers=bearer(tokens[0])
    )
    assert r.status_code == 422
    assert stored(db_path, "chat_messages") == []
    longest = " " + "y" * 140 + " "
    assert say(client, gid, tokens[0], "players", longest).status_code == 201
    assert texts(client, gid, tokens[0], "players") == ["y" * 140]


def test_an_author_is_rate_limited_and_the_refused_message_is_not_stored(
    client: TestClient, game: tuple[str, dict[int, str]], db_path: str
) -> None:
    gid, tokens = game
    for n in range(4):
        assert say(client, gid, tokens[0], "players", f"m{n}").status_code == 201
    r = say(client, gid, tokens[0], "players", "one too many")
    assert code(r) == (429, "chat_rate_limited")
    assert r.json()["error"]["detail"]["retry_after"] >= 1
    assert say(client, gid, tokens[1], "players", "the other still may").status_code == 201
    assert [row["text"] for row in stored(db_path, "chat_messages")] == [
        "m0",
        "m1",
        "m2",
        "m3",
        "the other still may",
    ]


def test_the_spectators_room_is_hidden_from_players_until_the_game_ends(
    client: TestClient, game: tuple[str, dict[int, str]], fast_hashing: None
) -> None:
    gid, tokens = game
    carol = Browser(client).sign("Carol", new=True)
    assert code(say(client, gid, None, "spectators", "hi")) == (401, "sign_in_required")
    r = carol.post(f"/api/games/{gid}/chat", json={"room": "spectators", "text": "Nice move"})
    assert r.status_code == 201, r.text
    assert r.json()["message"]["name"] == "Carol" and r.json()["message"]["seat"] is None
    assert texts(client, gid, None, "spectators") == ["Nice move"]
    r = carol.get(f"/api/games/{gid}/chat", params={"room": "players"})
    assert code(r) == (403, "players_only")
    assert code(read(client, gid, tokens[0], "spectators")) == (403, "spectators_only")
    assert code(say(client, gid, tokens[0], "spectators", "hi all")) == (403, "spectators_only")
    assert client.post(f"/api/games/{gid}/resign", json={}, headers=bearer(tokens[1])).is_success
    assert texts(client, gid, tokens[0], "spectators") == ["Nice move"]
    assert say(client, gid, tokens[0], "spectators", "Thanks for watching").status_code == 201
    assert texts(client, gid, None, "spectators") == ["Nice move", "Thanks for watching"]


def test_messages_are_stored_with_the_game_and_kept_in_order(
    db_path: str, fast_hashing: None
) -> None:
    with make_client(db_path) as client:
        gid, tokens = Api(client).two_players("uttt")
        for n, seat in enumerate([0, 1, 0, 1]):
            assert say(client, gid, tokens[seat], "players", f"#{n}").status_code == 201
    with make_client(db_path) as client:
        assert texts(client, gid, tokens[1], "players") == ["#0", "#1", "#2", "#3"]


def test_a_report_is_stored_for_the_moderators(
    client: TestClient, game: tuple[str, dict[int, str]], db_path: str
) -> None:
    gid, tokens = game
    mid = say(client, gid, tokens[0], "players", "you are bad").json()["message"]["id"]
    report = f"/api/chat/{mid}/report"
    rude = client.post(report, json={"reason": "rude"}, headers=bearer(tokens[1]))
    assert rude.status_code == 422
    assert code(client.post(report, json={"reason": "spam"})) == (401, "token_required")
    r = client.post("/api/chat/999/report", json={"reason": "spam"}, headers=bearer(tokens[1]))
    assert code(r) == (404, "no_such_message")
    assert stored(db_path, "reports") == []
    r = client.post(report, json={"reason": "insult"}, headers=bearer(tokens[1]))
    assert r.status_code == 201, r.text
    [row] = stored(db_path, "reports")
    assert (row["kind"], row["message_id"], row["category"], row["game_id"]) == (
        "message",
        mid,
        "insult",
        gid,
    )
    assert row["reporter"] == f"seat 1 of {gid}" and row["status"] == "open"
    again = client.post(report, json={"reason": "spam"}, headers=bearer(tokens[1]))
    assert code(again) == (409, "already_reported")
    assert len(stored(db_path, "reports")) == 1


def test_messages_reach_their_rooms_audience_on_the_games_socket(
    client: TestClient, game: tuple[str, dict[int, str]], fast_hashing: None
) -> None:
    gid, tokens = game
    carol = Browser(client).sign("Carol", new=True)
    url = f"/api/games/{gid}/ws"
    with (
        client.websocket_connect(url, subprotocols=["sansu", f"token.{tokens[1]}"]) as player,
        client.websocket_connect(url) as spectator,
    ):
        assert player.receive_json()["type"] == "hello"
        assert spectator.receive_json()["type"] == "hello"
        carol.post(f"/api/games/{gid}/chat", json={"room": "spectators", "text": "gallery"})
        say(client, gid, tokens[0], "players", "Hello")
        assert next_chat(spectator)["message"]["text"] == "gallery"
        # The player hears the players' room only: the spectators' message never came.
        event = next_chat(player)
        assert event["message"]["text"] == "Hello" and event["message"]["room"] == "players"
        say(client, gid, tokens[0], "players", "second")
        carol.post(f"/api/games/{gid}/chat", json={"room": "spectators", "text": "after"})
        assert next_chat(spectator)["message"]["text"] == "after"
        assert next_chat(player)["message"]["text"] == "second"


def test_a_moderator_removal_hides_the_message_and_tells_the_sockets(
    client: TestClient, game: tuple[str, dict[int, str]], db_path: str
) -> None:
    gid, tokens = game
    chat = client.app.state.chat
    mid = say(client, gid, tokens[0], "players", "rude words").json()["message"]["id"]
    say(client, gid, tokens[0], "players", "sorry")
    url = f"/api/games/{gid}/ws"
    with client.websocket_connect(url, subprotocols=["sansu", f"token.{tokens[1]}"]) as ws:
        assert ws.receive_json()["type"] == "hello"
        assert client.portal.call(chat.remove, mid, 42) is True
        assert next_chat(ws) == {"type": "chat_removed", "room": "players", "id": mid}
    assert client.portal.call(chat.remove, mid, 43) is False
    assert texts(client, gid, tokens[1], "players") == ["sorry"]
    assert texts(client, gid, tokens[0], "players") == ["sorry"]
    row = next(r for r in stored(db_path, "chat_messages") if r["id"] == mid)
    assert row["text"] == "rude words" and row["removed_by"] == 42 and row["removed_at"]
    r = client.post(f"/api/chat/{mid}/report", json={"reason": "spam"}, headers=bearer(tokens[1]))
    assert code(r) == (404, "no_such_message")


async def linked(chat: Any, redis_url: str, node: str) -> Any:
    """A cluster bus of ``node`` on the Redis server of ``redis_url``, carrying ``chat``."""
    from redis.asyncio import Redis as Client

    from sansu.server.cluster.bus import Bus

    bus = Bus(Client.from_url(redis_url), node)
    chat.link(bus)
    await bus.start()
    await asyncio.wait_for(bus.connected.wait(), 10)
    return bus


def test_a_message_reaches_a_spectator_on_another_node(
    tmp_path: Path, db_path: str, fast_hashing: None
) -> None:
    redis = Redis(tmp_path)
    redis.start()
    try:
        with make_client(db_path) as one, make_client(db_path) as two:
            buses = [
                client.portal.call(linked, client.app.state.chat, redis.url, name)
                for client, name in ((one, "one"), (two, "two"))
            ]
            try:
                gid, tokens = Api(one).two_players("uttt")
                carol = Browser(one).sign("Carol", new=True)
                with (
                    two.websocket_connect(f"/api/games/{gid}/ws") as spectator,
                    two.websocket_connect(
                        f"/api/games/{gid}/ws", subprotocols=["sansu", f"token.{tokens[1]}"]
                    ) as player,
                ):
                    assert spectator.receive_json()["type"] == "hello"
                    assert player.receive_json()["type"] == "hello"
                    body = {"room": "spectators", "text": "from node one"}
                    assert carol.post(f"/api/games/{gid}/chat", json=body).status_code == 201
                    assert say(one, gid, tokens[0], "players", "hi from one").status_code == 201
                    assert next_chat(spectator)["message"]["text"] == "from node one"
                    assert next_chat(player)["message"]["text"] == "hi from one"
            finally:
                for client, bus in zip((one, two), buses, strict=True):
                    client.portal.call(bus.stop)
    finally:
        assert redis.process is not None
        redis.process.terminate()
        redis.process.wait(timeout=10)


def test_chat_on_postgresql(postgres_url: str) -> None:
    with make_client(postgres_url) as client:
        gid, tokens = Api(client).two_players("uttt")
        first = say(client, gid, tokens[0], "players", "Hello").json()["message"]["id"]
        assert say(client, gid, tokens[1], "players", "Good luck").status_code == 201
        assert client.portal.call(client.app.state.chat.remove, first, 7) is True
        assert texts(client, gid, tokens[1], "players") == ["Good luck"]
        r = client.post(
            f"/api/chat/{first + 1}/report", json={"reason": "other"}, headers=bearer(tokens[0])
        )
        assert r.status_code == 201, r.text
