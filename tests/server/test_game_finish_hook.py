"""``Rounds.on_finish``: called once when a game ends, whichever way, never for other
changes (a seat taken, a move, a rematch offer) nor for a game loaded from the store."""

from __future__ import annotations

import random
import time

from fastapi.testclient import TestClient

from tests.server.conftest import Api, make_client


def test_called_once_per_ending(client: TestClient, api: Api) -> None:
    ended: list[tuple[str, str | None]] = []
    client.app.state.service.rounds.on_finish(
        lambda live: ended.append((live.id, live.termination))
    )
    by_rules, tokens = api.two_players("uttt")
    api.play_random(by_rules, tokens, random.Random(3))
    resigned, tokens2 = api.two_players("sansumoku")
    assert api.move(resigned, tokens2[0], "r5c5", 0).status_code == 200
    assert api.post(resigned, "resign", tokens2[1]).status_code == 200
    assert api.post(resigned, "rematch", tokens2[0]).status_code == 200
    assert api.post(resigned, "resign", tokens2[1]).status_code == 409
    assert ended == [(by_rules, "rules"), (resigned, "resignation")]


def test_not_called_when_a_finished_game_is_loaded(db_path: str) -> None:
    with make_client(db_path) as client:
        gid, tokens = Api(client).two_players("uttt")
        Api(client).play_random(gid, tokens, random.Random(4))
    with make_client(db_path) as client:
        ended: list[str] = []
        client.app.state.service.rounds.on_finish(lambda live: ended.append(live.id))
        assert Api(client).get(gid)["status"] == "finished"
        assert ended == []


def test_called_when_a_flag_falls(client: TestClient, api: Api) -> None:
    ended: list[str | None] = []
    client.app.state.service.rounds.on_finish(lambda live: ended.append(live.termination))
    gid, _ = api.two_players("uttt", time_control={"initial_seconds": 1})
    for _ in range(300):
        if api.get(gid)["status"] == "finished":
            break
        time.sleep(0.02)
    assert ended == ["time"]
