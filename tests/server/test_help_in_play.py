"""No engine help for a game in play: the analysis board, its hints, reviews and imports
refuse a position of a game being played to its players, and to everyone while the game
is rated or hides information, whichever way the position is named; watching off keeps
a game's positions from strangers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sansu.server.base import games as games_table
from sansu.server.base import metadata
from sansu.server.base import moves as moves_table
from sansu.server.base.store import make_engine
from sansu.server.play import in_play
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import Api, bearer, make_client
from tests.server.test_seat_accounts import Browser

SUMODOKU = {"seed": 11}


@pytest.fixture
def client(any_db: str, fast_hashing: None) -> Iterator[TestClient]:
    with make_client(any_db, analysis_simulations=(8, 16), review_simulations=4) as c:
        yield c


@pytest.fixture
def two(client: TestClient) -> tuple[Browser, Browser]:
    return Browser(client).sign("Alice", new=True), Browser(client).sign("Bob", new=True)


def between(a: Browser, b: Browser, **body: Any) -> str:
    """A game of ``a`` and ``b`` (their accounts hold the seats: no token is kept)."""
    r = a.post("/api/games", json={"game": "uttt", **body})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert b.post(f"/api/games/{gid}/join", json={}).status_code == 200
    return gid


def play(players: dict[int, Browser], gid: str, count: int, seed: int = 5) -> list[str]:
    """Plays ``count`` random moves by the accounts' cookies; the moves of the game."""
    rng = random.Random(seed)
    for _ in range(count):
        game = players[0].get(f"/api/games/{gid}").json()
        mover = players[game["view"]["to_move"]]
        move = rng.choice(game["view"]["legal_moves"])
        r = mover.post(f"/api/games/{gid}/moves", json={"move": move, "state": game["state"]})
        assert r.status_code == 200, r.text
    return [m["move"] for m in players[0].get(f"/api/games/{gid}").json()["moves"]]


def analyse(who: Browser | TestClient, expect: int, token: str | None = None, **body: Any) -> Any:
    r = who.post("/api/analysis", json=body, headers=bearer(token))
    assert r.status_code == expect, r.text
    return r.json()


def refused(answer: Any, code: str = "analysis_refused") -> bool:
    return answer["error"]["code"] == code


def test_a_stranger_cannot_analyse_a_game_whose_watching_is_off(client: TestClient) -> None:
    api = Api(client)
    gid, tokens = api.two_players("uttt")
    off = api.post(gid, "watching", tokens[0], watchable=False)
    assert off.status_code == 200, off.text
    assert refused(analyse(client, 403, game_id=gid), "not_watchable")  # in play
    api.play_random(gid, tokens, random.Random(2))
    assert refused(analyse(client, 403, game_id=gid), "not_watchable")  # finished
    assert refused(analyse(client, 403, game_id=gid, ply=3), "not_watchable")
    assert analyse(client, 201, token=tokens[1], game_id=gid)["game_id"] == gid  # a player


def test_a_signed_in_player_with_the_cookie_alone_is_refused(
    client: TestClient, two: tuple[Browser, Browser]
) -> None:
    alice, bob = two
    gid = between(alice, bob)  # casual: a stranger may analyse it
    moves = play({0: alice, 1: bob}, gid, 2)
    answer = analyse(alice, 403, game_id=gid)
    assert refused(answer) and "playing" in answer["error"]["message"]
    assert refused(analyse(bob, 403, game="uttt", moves=moves))
    assert refused(analyse(bob, 403, game="uttt", moves=moves[:1]))
    assert analyse(client, 201, game_id=gid)["game_id"] == gid  # a stranger
    assert analyse(client, 201, game="uttt", moves=moves)["moves"] == moves


def test_an_analysis_hint_is_refused_once_a_game_of_the_hints_asker_reaches_it(
    client: TestClient, two: tuple[Browser, Browser]
) -> None:
    alice, bob = two
    before = analyse(alice, 201, game="sumodoku", options=SUMODOKU)  # no such game yet
    assert alice.get(f"/api/analysis/{before['id']}/hint").status_code == 200
    r = alice.post("/api/games", json={"game": "sumodoku", "options": SUMODOKU})
    gid = r.json()["id"]
    assert bob.post(f"/api/games/{gid}/join", json={}).status_code == 200
    answer = alice.get(f"/api/analysis/{before['id']}/hint")
    assert answer.status_code == 403 and refused(answer.json())
    assert client.get(f"/api/analysis/{before['id']}/hint").status_code == 200  # a stranger
    assert refused(analyse(bob, 403, game="sumodoku", options=SUMODOKU))


def test_the_public_moves_of_a_rated_game_in_play_are_refused_to_everyone(
    client: TestClient, two: tuple[Browser, Browser]
) -> None:
    alice, bob = two
    gid = between(alice, bob, casual=False)
    moves = play({0: alice, 1: bob}, gid, 3)
    variation = [*moves, client.get(f"/api/games/{gid}").json()["view"]["legal_moves"][0]]
    for position in (moves, moves[:1], moves[:2], variation):  # passed, or from where it stands
        answer = analyse(client, 403, game="uttt", moves=position)
        assert refused(answer) and "rated" in answer["error"]["message"]
    other = next(m for m in ("r1c1", "r9c9", "r2c2") if m != moves[0])
    assert analyse(client, 201, game="uttt", moves=[other])["moves"] == [other]
    assert analyse(client, 201, game="uttt")["moves"] == []  # the start every game shares
    assert alice.post(f"/api/games/{gid}/resign", json={}).status_code == 200
    assert analyse(client, 201, game="uttt", moves=moves)["moves"] == moves  # it is over


def test_an_exported_and_imported_record_of_a_game_in_play_gets_no_help(
    client: TestClient, two: tuple[Browser, Browser]
) -> None:
    alice, bob = two
    rated = between(alice, bob, casual=False)
    play({0: alice, 1: bob}, rated, 2)
    record = client.get(f"/api/games/{rated}/record").json()
    answer = client.post("/api/records", json=record)
    assert answer.status_code == 409 and refused(answer.json(), "game_in_play")

    casual = between(alice, bob)
    moves = play({0: alice, 1: bob}, casual, 2, seed=8)
    record = client.get(f"/api/games/{casual}/record").json()
    by_player = alice.post("/api/records", json=record)
    assert by_player.status_code == 409 and refused(by_player.json(), "game_in_play")
    copy = client.post("/api/records", json=record).json()["id"]  # a stranger's import
    assert refused(analyse(alice, 403, game_id=copy))
    review = alice.post(f"/api/games/{copy}/review")
    assert review.status_code == 409 and refused(review.json(), "game_in_play")
    assert analyse(client, 201, game_id=copy)["moves"] == moves  # a casual game's spectator
    started = client.post(f"/api/games/{copy}/review")
    assert started.status_code in (200, 202), started.text
    seen = alice.get(f"/api/games/{copy}/review")  # nor through a review someone else asked for
    assert seen.status_code == 409 and refused(seen.json(), "game_in_play")
    assert alice.post(f"/api/games/{casual}/resign", json={}).status_code == 200
    assert analyse(alice, 201, game_id=copy)["moves"] == moves  # over: open to all
    assert alice.get(f"/api/games/{copy}/review").status_code == 200


# -- which games a position belongs to: the store's query against the rule itself ----------

MOVE = st.sampled_from(["a", "b", "c"])
GAME_ROW = st.tuples(
    st.sampled_from(["active", "active", "finished"]),
    st.sampled_from([{}, {"seed": 1}, {"seed": 2}, {"seed": 1, "aids": True}]),
    st.lists(MOVE, max_size=4),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(GAME_ROW, max_size=8),
    options=st.sampled_from([{}, {"seed": 1}, {"seed": 1, "aids": True}]),
    moves=st.lists(MOVE, max_size=5),
)
def test_the_store_finds_exactly_the_games_in_play_a_position_belongs_to(
    tmp_path_factory: pytest.TempPathFactory,
    rows: list[tuple[str, dict[str, Any], list[str]]],
    options: dict[str, Any],
    moves: list[str],
) -> None:
    engine = make_engine(str(tmp_path_factory.mktemp("in_play") / "sansu.db"))
    metadata.create_all(engine)
    with engine.begin() as c:
        for number, (status, game_options, played) in enumerate(rows):
            gid = f"g{number}"
            c.execute(
                sa.insert(games_table).values(
                    id=gid, game="x", options=game_options, public_options={}, status=status,
                    casual=True, created_at=0.0, updated_at=0.0, ply=len(played),
                )
            )  # fmt: skip
            for ply, text in enumerate(played, 1):
                c.execute(
                    sa.insert(moves_table).values(
                        game_id=gid, ply=ply, text=text, at=0.0, state=ply
                    )
                )
    with engine.connect() as c:
        found = {x.id for x in in_play.find(c, "x", options, moves)}
    engine.dispose()
    expected = set()
    for number, (status, game_options, played) in enumerate(rows):
        if status != "active" or not in_play.same_options(game_options, options):
            continue
        shared = min(len(moves), len(played))
        if shared == 0 and "seed" not in options:
            continue  # the start every game with these options shares
        if moves[:shared] == played[:shared]:
            expected.add(f"g{number}")
    assert found == expected
