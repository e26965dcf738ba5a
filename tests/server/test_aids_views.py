"""With ``aids`` off no client is sent the Sumodoku placements that fit (the data that
would draw the highlighting the text forbids), on any path: the game over HTTP, the
socket's hello and its move events, the replay's positions. The other moves stay."""

from __future__ import annotations

from typing import Any

import pytest

import sansu
from tests.server.conftest import Api, bearer


def placements(view: dict[str, Any]) -> list[str]:
    return [m for m in view["legal_moves"] if "=" in m]


def every_view(api: Api, gid: str, tokens: dict[int, str]) -> list[dict[str, Any]]:
    """The position as each path gives it to players and spectators, after one move each."""
    views = [api.get(gid, tokens[0])["view"], api.get(gid, tokens[1])["view"], api.get(gid)["view"]]
    protocols = ["sansu", f"token.{tokens[1]}"]
    with api.client.websocket_connect(f"/api/games/{gid}/ws", subprotocols=protocols) as ws:
        hello = ws.receive_json()
        assert hello["type"] == "hello"
        views.append(hello["view"])
        r = api.move(gid, tokens[0], "r1c1=1", api.get(gid)["state"])
        assert r.status_code == 200, r.text
        while (event := ws.receive_json())["type"] != "move":
            pass
        views.append(event["view"])
    views.append(api.client.get(f"/api/games/{gid}/positions/1").json()["view"])
    return views


def test_aids_off_sends_no_placement_to_anyone(api: Api) -> None:
    gid, tokens = api.two_players("sumodoku", options={"aids": False})
    views = every_view(api, gid, tokens)
    assert len(views) == 6
    for view in views:
        assert view["options"]["aids"] is False
        assert placements(view) == []
    state = sansu.load_game("sumodoku").play_moves(["r1c1=1"])
    assert len([m for m in state.legal_moves() if "=" in str(m)]) > 100  # there were some


def test_aids_on_sends_every_placement(api: Api) -> None:
    gid, tokens = api.two_players("sumodoku", options={"aids": True})
    views = every_view(api, gid, tokens)
    fresh = sansu.load_game("sumodoku", aids=True).initial_state()
    after = fresh.play("r1c1=1")
    for view in views:
        expected = fresh if view["ply"] == 0 else after
        assert sorted(placements(view)) == sorted(str(m) for m in expected.legal_moves())


@pytest.mark.parametrize("aids", [True, False])
def test_the_moves_that_are_buttons_stay(api: Api, aids: bool) -> None:
    gid, tokens = api.two_players("sumodoku", options={"aids": aids, "honour": True})
    view = api.get(gid, tokens[0])["view"]
    assert "challenge" in view["legal_moves"]
    r = api.client.post(
        f"/api/games/{gid}/moves",
        json={"move": "r1c1=1", "state": api.get(gid)["state"]},
        headers=bearer(tokens[0]),
    )
    assert r.status_code == 200, r.text  # aids off refuses no legal move


def test_the_engine_still_lists_every_move_outside_the_views() -> None:
    state = sansu.load_game("sumodoku", aids=False).initial_state()
    texts = state.to_dict()["legal_moves"]
    assert len(placements({"legal_moves": texts})) == len(texts) > 0  # `sansu show --json`
    assert state.view(None)["legal_moves"] == []
