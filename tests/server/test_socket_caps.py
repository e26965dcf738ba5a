"""Open sockets per client: one address cannot hold the server's sockets without end."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from sansu.cli.main import main
from sansu.server.app import assemble
from sansu.server.base.ratelimit import RateLimits
from sansu.server.play.hub import MAX_SOCKETS_PER_CLIENT
from tests.server.conftest import Api


def test_a_client_past_its_sockets_is_refused_with_a_clear_close(api: Api) -> None:
    hub = api.client.app.state.service.hub  # type: ignore[attr-defined]
    assert hub.max_per_client == MAX_SOCKETS_PER_CLIENT
    hub.max_per_client = 3
    gid = api.create("uttt")["id"]
    url = f"/api/games/{gid}/ws"
    with contextlib.ExitStack() as open_ones:
        for _ in range(3):
            ws = open_ones.enter_context(api.client.websocket_connect(url))
            assert ws.receive_json()["type"] == "hello"
        with api.client.websocket_connect(url) as refused:
            error = refused.receive_json()
            assert error["type"] == "error" and error["code"] == "too_many_sockets"
            assert "at most 3" in error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                refused.receive_json()
            assert closed.value.code == 4429
        other = TestClient(api.client.app, client=("192.0.2.9", 1234))
        with other.websocket_connect(url) as ws:  # another address is not refused
            assert ws.receive_json()["type"] == "hello"
    with api.client.websocket_connect(url) as ws:  # once closed, they count no more
        assert ws.receive_json()["type"] == "hello"
    assert hub.per_client == {}


def test_the_cap_is_a_server_limit_that_can_be_set_or_turned_off(tmp_path: Path) -> None:
    capped = assemble(str(tmp_path / "a.db"), rate_limits=RateLimits(sockets=5))
    assert capped.hub.max_per_client == 5
    uncapped = assemble(str(tmp_path / "b.db"), rate_limits=RateLimits(sockets=None))
    assert uncapped.hub.max_per_client is None
    for _ in range(MAX_SOCKETS_PER_CLIENT + 1):
        uncapped.hub.admit("127.0.0.1")
    assert uncapped.hub.per_client == {"127.0.0.1": MAX_SOCKETS_PER_CLIENT + 1}


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_serve_refuses_a_bad_socket_cap(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--rate-limit-sockets", value]) == 2
    assert "--rate-limit-sockets" in capsys.readouterr().err
