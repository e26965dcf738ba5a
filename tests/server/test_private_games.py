"""Private games: joined only with the invitation's secret, never listed; watching by
link open unless the creator turns it off."""

from __future__ import annotations

import hashlib

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import Api, bearer, make_client
from tests.server.test_seat_accounts import SITE, Browser


def private_game(api: Api, **body) -> dict:
    return api.create("uttt", private=True, **body)


def listed(client: TestClient) -> set[str]:
    ids: set[str] = set()
    for status in ("active", "abandoned", "archive", None):
        params = {"status": status} if status else {}
        ids |= {g["id"] for g in client.get("/api/games", params=params).json()["games"]}
    return ids


def test_creating_a_private_game_shows_its_secret_once_in_an_invitation(api: Api) -> None:
    created = private_game(api)
    secret = created["join_secret"]
    assert secret and created["invitation"] == f"/#/join/{created['id']}/{secret}"
    assert created["game"]["private"] is True and created["game"]["watchable"] is True
    again = api.get(created["id"], created["token"])
    assert secret not in str(again)


def test_the_server_keeps_only_the_secrets_sha256(api: Api, db_path: str) -> None:
    created = private_game(api)
    engine = sa.create_engine(f"sqlite:///{db_path}")
    with engine.connect() as c:
        kept = c.execute(sa.text("SELECT join_secret_hash FROM games")).scalar_one()
        dump = "\n".join(str(row) for row in c.execute(sa.text("SELECT * FROM games")))
    engine.dispose()
    assert kept == hashlib.sha256(created["join_secret"].encode()).hexdigest()
    assert created["join_secret"] not in dump


@pytest.mark.parametrize(
    ("secret", "code"), [(None, "invitation_required"), ("not-the-secret", "wrong_secret")]
)
def test_a_join_without_the_right_secret_is_refused_and_changes_nothing(
    api: Api, client: TestClient, secret: str | None, code: str
) -> None:
    created = private_game(api)
    before = api.get(created["id"], created["token"])
    body = {} if secret is None else {"secret": secret}
    r = client.post(f"/api/games/{created['id']}/join", json=body)
    assert r.status_code == 403
    assert r.json()["error"]["code"] == code
    after = api.get(created["id"], created["token"])
    assert after["seats"] == before["seats"] and after["seq"] == before["seq"]


def test_the_invitations_secret_lets_a_friend_join(api: Api, client: TestClient) -> None:
    created = private_game(api)
    joined = api.join(created["id"], secret=created["join_secret"])
    assert joined["seat"] == 1 and joined["token"]
    assert api.get(created["id"], joined["token"])["you"] == [1]


def test_a_player_of_the_game_takes_another_seat_without_the_secret(api: Api) -> None:
    created = api.create("challenge", private=True, options={"players": 3})
    joined = api.join(created["id"], created["token"], seat=1)
    assert joined["seats"] == [0, 1]


def test_private_games_are_never_listed_open_ones_are(api: Api, client: TestClient) -> None:
    hidden = private_game(api)
    shown = api.create("uttt")
    ids = listed(client)
    assert shown["id"] in ids and hidden["id"] not in ids
    api.join(hidden["id"], secret=hidden["join_secret"])
    assert hidden["id"] not in listed(client)
    r = api.post(hidden["id"], "resign", hidden["token"])
    assert r.status_code == 200
    assert hidden["id"] not in listed(client)


def test_the_api_default_is_open_and_computer_games_stay_listed(
    api: Api, client: TestClient
) -> None:
    people = api.create("uttt")
    assert people["game"]["private"] is False and people["join_secret"] is None
    computer = api.create("uttt", seats=[{"kind": "human"}, {"kind": "computer"}])
    assert computer["game"]["private"] is False and computer["game"]["watchable"] is True
    assert {people["id"], computer["id"]} <= listed(client)
    hidden = api.create("uttt", private=True, seats=[{"kind": "human"}, {"kind": "computer"}])
    assert hidden["id"] not in listed(client)
    assert api.get(hidden["id"])["id"] == hidden["id"]  # still watchable by link


def test_watching_off_at_creation_refuses_spectators_not_players(
    api: Api, client: TestClient
) -> None:
    created = private_game(api, watchable=False)
    gid = created["id"]
    for path in (f"/api/games/{gid}", f"/api/games/{gid}/positions/0", f"/api/games/{gid}/record"):
        r = client.get(path)
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_watchable", path
        assert client.get(path, headers=bearer(created["token"])).status_code == 200, path
    r = client.get(f"/api/games/{gid}/review")
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_watchable"
    r = client.get(f"/api/games/{gid}/review", headers=bearer(created["token"]))
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_review"
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["code"] == "not_watchable"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(
        f"/api/games/{gid}/ws", subprotocols=["sansu", f"token.{created['token']}"]
    ) as ws:
        assert ws.receive_json()["type"] == "hello"


def test_only_the_creator_turns_watching_off_and_spectators_are_dropped(
    api: Api, client: TestClient
) -> None:
    created = private_game(api)
    gid = created["id"]
    friend = api.join(gid, secret=created["join_secret"])
    outsider = api.create("uttt")["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        assert spectator.receive_json()["type"] == "hello"
        for token, status in ((None, 401), (outsider, 403)):
            r = api.post(gid, "watching", token, watchable=False)
            assert r.status_code == status, r.text
        assert api.get(gid)["watchable"] is True
        r = api.post(gid, "watching", created["token"], watchable=False)
        assert r.status_code == 200 and r.json()["watchable"] is False
        seen: list[dict] = []
        with pytest.raises(WebSocketDisconnect):
            for _ in range(10):
                seen.append(spectator.receive_json())
        assert any(m.get("code") == "not_watchable" for m in seen)
    assert client.get(f"/api/games/{gid}").status_code == 403
    assert api.get(gid, friend["token"])["watchable"] is False
    assert api.post(gid, "watching", created["token"], watchable=True).status_code == 200
    assert api.get(gid)["watchable"] is True


def test_a_signed_in_creators_account_turns_watching_off_not_their_friend(
    client: TestClient, fast_hashing: None
) -> None:
    alice = Browser(client).sign("Alice", new=True)
    bob = Browser(client).sign("Bob", new=True)
    created = alice.post("/api/games", json={"game": "uttt", "private": True}).json()
    gid = created["id"]
    joined = bob.post(f"/api/games/{gid}/join", json={"secret": created["join_secret"]})
    assert joined.status_code == 200
    r = bob.post(f"/api/games/{gid}/watching", json={"watchable": False})
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_creator"
    r = alice.post(f"/api/games/{gid}/watching", json={"watchable": False})
    assert r.status_code == 200
    assert Browser(client).get(f"/api/games/{gid}").status_code == 403
    with alice.websocket(f"/api/games/{gid}/ws", SITE) as ws:
        assert ws.receive_json()["you"] == [0]


def test_privacy_and_watching_survive_a_restart(any_db: str) -> None:
    with make_client(any_db) as client:
        api = Api(client)
        created = private_game(api, watchable=False)
    with make_client(any_db) as client:
        api = Api(client)
        gid = created["id"]
        assert client.get(f"/api/games/{gid}").status_code == 403
        assert client.post(f"/api/games/{gid}/join", json={}).status_code == 403
        assert api.join(gid, secret=created["join_secret"])["seat"] == 1
        assert gid not in listed(client)


def test_a_rematch_of_a_private_game_stays_private(api: Api, client: TestClient) -> None:
    created = private_game(api)
    gid = created["id"]
    friend = api.join(gid, secret=created["join_secret"])
    assert api.post(gid, "resign", created["token"]).status_code == 200
    api.post(gid, "rematch", created["token"])
    new = api.post(gid, "rematch", friend["token"]).json()["game_id"]
    assert new and api.get(new, created["token"])["private"] is True
    assert new not in listed(client)


@pytest.mark.parametrize("status", ["active", "archive", None])
def test_games_with_watching_off_are_never_listed(
    api: Api, client: TestClient, status: str | None
) -> None:
    """Neither in play nor once over: their players' names and result are theirs."""
    hidden = api.create("uttt", watchable=False, seats=[{"kind": "human"}, {"kind": "computer"}])
    shown = api.create("uttt", seats=[{"kind": "human"}, {"kind": "computer"}])
    for created in (hidden, shown):
        r = api.post(created["id"], "resign", created["token"])
        assert r.status_code == 200, r.text
    open_one = api.create("uttt", watchable=False)
    query = {} if status is None else {"status": status}
    everything = client.get("/api/games", params={**query, "limit": 200}).json()
    ids = {g["id"] for g in everything["games"]}
    assert hidden["id"] not in ids and open_one["id"] not in ids
    assert everything["total"] == len(ids)
    if status != "active":
        assert shown["id"] in ids
