"""Clocks: the games' own limits read from their JSON, time controls, timeouts, restarts."""

from __future__ import annotations

import random
import time

import pytest

import sansu
from sansu.server.play.clocks import ClockState, EngineClock, check_time_control, engine_clock
from tests.server.conftest import FEW_BLANKS, Api, make_client, pick

GAMES = sansu.game_ids()


def needs(game: str) -> None:
    assert game in GAMES, f"no {game} engine in this tree"


def test_a_clock_field_is_read_first() -> None:
    data = {"clock": {"key": "k1", "seconds": 30}, "turn_seconds": 5, "result": None}
    assert engine_clock(data) == EngineClock("k1", 30.0, "timeout")
    assert engine_clock({"result": {"winners": [0]}, "clock": {"key": 1, "seconds": 3}}) is None
    assert engine_clock({"to_move": 0}) is None


def test_the_challenge_chrono_runs_per_turn() -> None:
    needs("challenge")
    state = sansu.load_game("challenge", puzzle=FEW_BLANKS, turn_seconds=45).initial_state()
    first = engine_clock(state.to_dict())
    assert first is not None and first.seconds == 45 and first.move == "timeout"
    after = state.play("timeout")
    second = engine_clock(after.to_dict())
    assert second is not None and second.key != first.key
    assert (
        engine_clock(sansu.load_game("challenge", puzzle=FEW_BLANKS).initial_state().to_dict())
        is None
    )


def test_the_sumodoku_claim_has_its_minutes() -> None:
    needs("sumodoku")
    rng = random.Random(2)
    for _attempt in range(20):
        state = sansu.load_game("sumodoku").initial_state()
        while state.result is None and not state.claim_open():
            assert engine_clock(state.to_dict()) is None
            state = state.play(pick([str(m) for m in state.legal_moves()], rng))
        if state.result is not None:
            continue
        claimed = state.play("sudoku")
        if claimed.result is not None:
            continue
        spec = engine_clock(claimed.to_dict())
        assert spec is not None and spec.seconds == 16 * 60
        placed = claimed.play(pick([str(m) for m in claimed.legal_moves()], rng))
        if placed.result is None:
            assert engine_clock(placed.to_dict()) == spec  # one period for the whole claim
        return
    pytest.fail("no claim could be made in 20 random games")


def test_time_control_counts_down_and_adds_the_increment() -> None:
    clock = ClockState.start({"initial_seconds": 60, "increment_seconds": 2}, 2)
    clock.running, clock.since = 0, 1000.0
    assert clock.deadline == 1060.0 and clock.expired(1059.9) is None
    clock.after_move(0, 1, {"result": None}, 1010.0)
    assert clock.remaining == [52.0, 60.0] and clock.running == 1 and clock.since == 1010.0
    assert clock.expired(1070.0) == "flag"
    restored = ClockState.from_json(clock.to_json())
    assert restored == clock


@pytest.mark.parametrize(
    "bad", [{"initial_seconds": 0}, {"initial_seconds": "5"}, {"initial_seconds": 5, "x": 1}, 7]
)
def test_bad_time_controls(bad: object) -> None:
    with pytest.raises(ValueError, match="time_control"):
        check_time_control(bad)


def test_the_server_applies_the_games_timeout(api: Api) -> None:
    needs("challenge")
    # Three seconds: the hello must come inside the first turn, even on a busy machine.
    gid, _tokens = api.two_players("challenge", options={"puzzle": FEW_BLANKS, "turn_seconds": 3})
    with api.client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        hello = ws.receive_json()
        limit = hello["clock"]["limit"]
        assert limit["move"] == "timeout" and 0 < limit["seconds_left"] <= 3
        while (m := ws.receive_json())["type"] != "move":
            pass
    assert m["move"] == "timeout" and m["seat"] is None and m["by"] == "clock"
    assert m["view"]["to_move"] == 1
    assert m["at"] >= limit["deadline"]
    game = api.get(gid)
    assert game["moves"][0]["move"] == "timeout" and game["clock"]["limit"]["deadline"] > m["at"]


def test_a_fallen_flag_loses(api: Api) -> None:
    gid, tokens = api.two_players(  # two seconds: room for the first move on a busy machine
        "uttt", time_control={"initial_seconds": 2, "increment_seconds": 0}
    )
    r = api.move(gid, tokens[0], "r5c5", 0)
    assert r.status_code == 200
    end = time.monotonic() + 10  # the flag falls after two seconds; a busy machine may lag
    while (over := api.get(gid))["status"] == "active" and time.monotonic() < end:
        time.sleep(0.1)
    assert over["status"] == "finished" and over["termination"] == "time"
    # Seat 1's clock ran after the move until it fell. (Read after the fall: a look in
    # between may come after the two seconds are over on a busy machine.)
    clock = over["clock"]
    assert clock["running"] is None and clock["remaining"][1] == 0
    assert 0 < clock["remaining"][0] < 2
    assert over["result"]["winners"] == [0] and "ran out of time" in over["result"]["reason"]
    r = api.move(gid, tokens[1], "r4c4", 1)
    assert r.status_code == 409


def test_clocks_wait_for_every_player(api: Api) -> None:
    created = api.create("uttt", time_control={"initial_seconds": 30})
    assert created["game"]["clock"]["running"] is None
    joined = api.join(created["id"])
    assert joined["game"]["clock"]["running"] == 0


def test_clocks_survive_a_restart(db_path: str) -> None:
    needs("challenge")
    with make_client(db_path) as client:
        api = Api(client)
        gid, _tokens = api.two_players(
            "challenge", options={"puzzle": FEW_BLANKS, "turn_seconds": 2}
        )
        deadline = api.get(gid)["clock"]["limit"]["deadline"]
    with make_client(db_path) as client:
        api = Api(client)
        assert api.get(gid)["clock"]["limit"]["deadline"] == deadline
        time.sleep(max(0.0, deadline - time.time()) + 0.3)
        game = api.get(gid)
        assert [m["move"] for m in game["moves"]] == ["timeout"]
