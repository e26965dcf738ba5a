"""Moderation over HTTP: reports of accounts and chat messages, the queue, and what a
moderator does (close, reopen, rename, engine mark, remove a message), each refused to
anyone without the role, each needing a reason, each written to the audit log."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from sansu.server.accounts import grant
from sansu.server.accounts.identity import CSRF_HEADER
from sansu.server.base import ApiError
from sansu.server.moderation.reports import clean
from tests.server.accounts_fixtures import fast_hashing_fixture  # noqa: F401
from tests.server.conftest import bearer, legal
from tests.server.test_chat import code, stored
from tests.server.test_seat_accounts import PASSWORD, SITE, Browser, create

REASON = {"reason": "spoke abuse in chat"}


def grant_role(client: TestClient, name: str, role: str = "moderator") -> None:
    """A role as the operator grants it (``sansu admin grant``): straight in the store."""
    client.app.state.store.write_now(lambda c: grant(c, name, role, now=1.0))


@pytest.fixture
def people(client: TestClient, fast_hashing: None) -> dict[str, Browser]:
    found = {
        "mod": Browser(client).sign("Moddy", new=True),
        "ann": Browser(client).sign("Ann", new=True),
        "rude": Browser(client).sign("Rude", new=True),
    }
    grant_role(client, "Moddy")
    return found


def audit(mod: Browser) -> list[dict[str, Any]]:
    r = mod.get("/api/mod/audit")
    assert r.status_code == 200, r.text
    return r.json()["entries"]


def report(who: Browser, name: str, category: str = "abuse", text: str = "rude") -> Any:
    return who.post(f"/api/users/{name}/report", json={"category": category, "text": text})


def chat_game(people: dict[str, Browser]) -> tuple[str, int]:
    """A game of Rude and Ann with a message of Rude's in the players' room."""
    gid = create(people["rude"])["id"]
    assert people["ann"].post(f"/api/games/{gid}/join", json={}).status_code == 200
    said = people["rude"].post(
        f"/api/games/{gid}/chat", json={"room": "players", "text": "you are dreadful"}
    )
    assert said.status_code == 201, said.text
    return gid, said.json()["message"]["id"]


MOD_WRITES = [
    ("/api/mod/users/Rude/close", REASON),
    ("/api/mod/users/Rude/reopen", REASON),
    ("/api/mod/users/Rude/rename", REASON),
    ("/api/mod/users/Rude/engine", {**REASON, "on": True}),
    ("/api/mod/messages/1/remove", REASON),
    ("/api/mod/reports/1/close", {"resolution": "done"}),
]


def test_only_a_moderator_moderates_and_a_refusal_changes_nothing(
    client: TestClient, people: dict[str, Browser]
) -> None:
    ann, mod = people["ann"], people["mod"]
    gid, mid = chat_game(people)
    assert report(ann, "Rude").status_code == 201
    for path in ("/api/mod/reports", "/api/mod/users/Rude", "/api/mod/audit"):
        assert code(ann.get(path)) == (403, "not_a_moderator")
        assert code(client.get(path)) == (401, "not_signed_in")
    for path, body in MOD_WRITES:
        assert code(ann.post(path, json=body)) == (403, "not_a_moderator"), path
        assert code(client.post(path, json=body)) == (401, "not_signed_in"), path
        no_csrf = mod.post(path, json=body, headers={CSRF_HEADER: "forged"})
        assert code(no_csrf) == (403, "csrf_failed"), path
    # The moderator's own view: nothing happened.
    rude = mod.get("/api/mod/users/Rude").json()["user"]
    assert (rude["closed"], rude["engine"], rude["name"], rude["open_reports"]) == (
        False,
        False,
        "Rude",
        1,
    )
    messages = ann.get(f"/api/games/{gid}/chat?room=players").json()["messages"]
    assert [m["id"] for m in messages] == [mid]
    queue = mod.get("/api/mod/reports").json()["reports"]
    assert [(r["kind"], r["status"]) for r in queue] == [("account", "open")]
    assert [e["action"] for e in audit(mod)] == ["grant"]  # only the operator's grant


def test_every_action_needs_a_reason_and_bad_input_changes_nothing(
    client: TestClient, people: dict[str, Browser]
) -> None:
    mod = people["mod"]
    before = audit(mod)
    for path, _body in MOD_WRITES[:5]:
        assert code(mod.post(path, json={"reason": "   "}))[0] == 422, path
        assert code(mod.post(path, json={"reason": "x" * 201}))[0] == 422, path
        assert mod.post(path, json={}).status_code == 422, path
    assert code(mod.post("/api/mod/users/Nobody/close", json=REASON)) == (404, "no_user")
    assert code(mod.post("/api/mod/users/Moddy/close", json=REASON)) == (403, "own_account")
    r = mod.post("/api/mod/users/Rude/rename", json={**REASON, "name": "a b"})
    assert code(r) == (422, "bad_name")
    r = mod.post("/api/mod/users/Rude/rename", json={**REASON, "name": "ann"})
    assert code(r) == (409, "name_taken")
    assert code(mod.post("/api/mod/users/Rude/reopen", json=REASON)) == (409, "not_closed")
    r = mod.post("/api/mod/users/Rude/engine", json={**REASON, "on": False})
    assert code(r) == (409, "no_change")
    assert code(mod.post("/api/mod/messages/999/remove", json=REASON)) == (404, "no_such_message")
    r = mod.post("/api/mod/reports/999/close", json={"resolution": "x"})
    assert code(r) == (404, "no_such_report")
    assert audit(mod) == before
    rude = mod.get("/api/mod/users/Rude").json()["user"]
    assert (rude["closed"], rude["engine"], rude["name"]) == (False, False, "Rude")


def test_a_moderator_does_not_act_on_an_admin_but_an_admin_acts_on_a_moderator(
    client: TestClient, people: dict[str, Browser]
) -> None:
    grant_role(client, "Ann", "admin")
    grant_role(client, "Rude", "moderator")
    mod, admin = people["mod"], people["ann"]
    assert code(mod.post("/api/mod/users/Ann/close", json=REASON)) == (403, "protected_account")
    assert code(mod.post("/api/mod/users/Rude/close", json=REASON)) == (403, "protected_account")
    assert admin.post("/api/mod/users/Rude/engine", json={**REASON, "on": True}).status_code == 200


def test_a_player_reports_an_account_once_a_few_times_and_briefly(
    client: TestClient, people: dict[str, Browser], db_path: str
) -> None:
    ann = people["ann"]
    for bad, expected in [
        (("Rude", "rudeness", "x"), 422),
        (("Rude", "abuse", "x" * 501), 422),
        (("Rude", "abuse", "bell\x07"), 422),
        (("Nobody", "abuse", "x"), 404),
        (("Ann", "abuse", "x"), 422),
    ]:
        assert report(ann, *bad).status_code == expected, bad
    assert code(client.post("/api/users/Rude/report", json={"category": "abuse"}))[0] == 401
    assert stored(db_path, "reports") == []
    r = report(ann, "rude", "offensive_name", "  a slur for a name  ")
    assert r.status_code == 201, r.text
    assert r.json()["report"]["target"] == "Rude"
    assert code(report(ann, "Rude", "cheating")) == (409, "already_reported")
    [row] = stored(db_path, "reports")
    assert (row["reporter"], row["target"], row["category"], row["text"]) == (
        "Ann",
        "Rude",
        "offensive_name",
        "a slur for a name",
    )
    for n in range(4):  # five reports in ten minutes, then wait
        Browser(client).sign(f"Other{n}", new=True)
        assert report(ann, f"Other{n}").status_code == 201
    Browser(client).sign("Other4", new=True)
    assert code(report(ann, "Other4")) == (429, "report_rate_limited")
    assert len(stored(db_path, "reports")) == 5


def test_the_queue_shows_open_reports_first_with_the_message_in_context_and_closes_them(
    client: TestClient, people: dict[str, Browser]
) -> None:
    ann, mod = people["ann"], people["mod"]
    gid, mid = chat_game(people)
    assert ann.post(f"/api/chat/{mid}/report", json={"reason": "insult"}).status_code == 201
    assert report(ann, "Rude", "abuse", "see the chat").status_code == 201
    queue = mod.get("/api/mod/reports").json()["reports"]
    assert [(r["kind"], r["target"]) for r in queue] == [("account", "Rude"), ("message", "Rude")]
    message = queue[1]["message"]
    assert (message["id"], message["text"], message["game"], message["room"]) == (
        mid,
        "you are dreadful",
        gid,
        "players",
    )
    first = queue[0]["id"]
    r = mod.post(f"/api/mod/reports/{first}/close", json={"resolution": "warned the player"})
    assert r.status_code == 200, r.text
    assert r.json()["report"]["status"] == "closed"
    assert r.json()["report"]["closed_by"] == "Moddy"
    again = mod.post(f"/api/mod/reports/{first}/close", json={"resolution": "again"})
    assert code(again) == (409, "report_closed")
    assert [r["id"] for r in mod.get("/api/mod/reports").json()["reports"]] == [queue[1]["id"]]
    everything = mod.get("/api/mod/reports?status=all").json()["reports"]
    assert [r["status"] for r in everything] == ["open", "closed"]
    # Closed, the reporter may report the account again.
    assert report(ann, "Rude", "abuse", "again").status_code == 201
    [line, *_] = audit(mod)
    assert (line["actor"], line["action"], line["target"]) == ("Moddy", "close_report", "Rude")
    assert line["detail"]["resolution"] == "warned the player"


def test_a_removed_message_is_hidden_from_the_players_and_recorded(
    client: TestClient, people: dict[str, Browser]
) -> None:
    ann, mod = people["ann"], people["mod"]
    gid, mid = chat_game(people)
    r = mod.post(f"/api/mod/messages/{mid}/remove", json=REASON)
    assert r.status_code == 200, r.text
    assert ann.get(f"/api/games/{gid}/chat?room=players").json()["messages"] == []
    again = mod.post(f"/api/mod/messages/{mid}/remove", json=REASON)
    assert code(again) == (409, "already_removed")
    [line, *_] = audit(mod)
    assert (line["action"], line["target"], line["detail"]["text"]) == (
        "remove_message",
        "Rude",
        "you are dreadful",
    )
    assert line["detail"]["reason"] == REASON["reason"]


def test_a_closed_account_is_shut_out_at_once_and_its_games_and_seeks_end(
    client: TestClient, people: dict[str, Browser]
) -> None:
    ann, mod, rude = people["ann"], people["mod"], people["rude"]
    playing = create(rude)["id"]
    assert ann.post(f"/api/games/{playing}/join", json={}).status_code == 200
    for mover in (rude, ann):  # both moved: resigning is no longer an abort
        game = mover.get(f"/api/games/{playing}").json()
        move = {"move": legal(game)[0], "state": game["state"]}
        assert mover.post(f"/api/games/{playing}/moves", json=move).status_code == 200
    seek = rude.post("/api/lobby/seeks", json={"game": "uttt"})
    assert seek.status_code == 201, seek.text
    challenge = rude.post("/api/challenge/Ann", json={"game": "uttt"})
    assert challenge.status_code == 201, challenge.text
    jar = rude.cookies
    with rude.websocket(f"/api/games/{playing}/ws", SITE) as ws:
        assert ws.receive_json()["you"] == [0]  # Rude's socket, by the session
        r = mod.post("/api/mod/users/Rude/close", json=REASON)
        with pytest.raises(WebSocketDisconnect) as gone:
            while True:  # the events of the resignation may come first
                ws.receive_json()
    assert gone.value.code == 4403
    rude.cookies = jar
    assert r.status_code == 200, r.text
    closed = r.json()["user"]
    assert closed["closed"] is True and closed["games_resigned"] == [playing]
    assert (closed["seeks_left"], closed["challenges_canceled"]) == (1, 1)
    assert closed["sockets_closed"] == 1
    # Its session is gone: the very next request is anonymous, a write refused.
    assert rude.get("/api/account").json()["user"] is None
    assert code(rude.post("/api/users/Ann/report", json={"category": "spam"})) == (
        401,
        "not_signed_in",
    )
    relog = rude.post("/api/account/login", json={"name": "Rude", "password": PASSWORD})
    assert code(relog) == (403, "account_closed")
    game = ann.get(f"/api/games/{playing}").json()
    assert (game["status"], game["termination"]) == ("finished", "resignation")
    assert game["result"]["winners"] == [1]  # Ann's seat wins
    assert client.get("/api/lobby/seeks").json()["seeks"] == []
    challenge_id = challenge.json()["id"]
    assert ann.get(f"/api/challenges/{challenge_id}").json()["status"] == "canceled"
    [line, *_] = audit(mod)
    assert (line["actor"], line["action"], line["target"]) == ("Moddy", "close", "Rude")
    assert line["detail"] == {"reason": REASON["reason"], "sessions_ended": 1}
    # Reopened, it signs in again.
    assert mod.post("/api/mod/users/Rude/reopen", json=REASON).status_code == 200
    assert (
        rude.post("/api/account/login", json={"name": "Rude", "password": PASSWORD}).status_code
        == 200
    )
    assert [e["action"] for e in audit(mod)[:2]] == ["reopen", "close"]


def test_a_closed_bots_token_is_refused_at_once(
    client: TestClient, people: dict[str, Browser]
) -> None:
    bot = Browser(client)
    r = bot.post("/api/account/signup", json={"name": "Botty", "password": PASSWORD, "bot": True})
    bot.headers[CSRF_HEADER] = r.json()["csrf_token"]
    token = bot.post("/api/account/tokens", json={"label": "engine"}).json()["token"]
    assert client.get("/api/bot/account", headers=bearer(token)).status_code == 200
    assert people["mod"].post("/api/mod/users/Botty/close", json=REASON).status_code == 200
    assert code(client.get("/api/bot/account", headers=bearer(token))) == (401, "bad_token")


def test_a_renamed_account_keeps_its_games_and_may_choose_a_name_once(
    client: TestClient, people: dict[str, Browser]
) -> None:
    mod, rude = people["mod"], people["rude"]
    gid, _mid = chat_game(people)
    r = mod.post("/api/mod/users/Rude/rename", json=REASON)
    assert r.status_code == 200, r.text
    neutral = r.json()["user"]["name"]
    assert neutral == f"player-{r.json()['user']['id']}"
    assert client.get("/api/users/Rude").status_code == 404
    assert client.get(f"/api/users/{neutral}").json()["recent"][0]["id"] == gid
    seats = [s["name"] for s in client.get(f"/api/games/{gid}").json()["seats"]]
    assert neutral in seats and "Rude" not in seats
    assert [
        m["name"]
        for m in people["ann"].get(f"/api/games/{gid}/chat?room=players").json()["messages"]
    ] == [neutral]
    me = rude.get("/api/account").json()["user"]
    assert (me["name"], me["rename_once"]) == (neutral, True)
    assert code(rude.post("/api/account/name", json={"name": "Ann"})) == (409, "name_taken")
    chosen = rude.post("/api/account/name", json={"name": "Polite"})
    assert chosen.status_code == 200, chosen.text
    assert chosen.json()["user"]["rename_once"] is False
    assert code(rude.post("/api/account/name", json={"name": "Again"})) == (403, "no_rename")
    assert code(people["ann"].post("/api/account/name", json={"name": "Anna"})) == (
        403,
        "no_rename",
    )
    [line, *_] = audit(mod)
    assert line["action"] == "rename" and line["detail"]["from"] == "Rude"
    assert line["detail"]["to"] == neutral


def test_an_engine_mark_shows_on_the_profile_and_comes_off(
    client: TestClient, people: dict[str, Browser]
) -> None:
    mod = people["mod"]
    r = mod.post("/api/mod/users/Rude/engine", json={**REASON, "on": True})
    assert r.status_code == 200 and r.json()["user"]["engine"] is True
    marked = audit(mod)[0]
    assert marked["detail"] == {"reason": REASON["reason"], "opponents_refunded": 0, "points": 0}
    assert client.get("/api/users/Rude").json()["engine"] is True
    r = mod.post("/api/mod/users/Rude/engine", json={**REASON, "on": False})
    assert r.status_code == 200 and r.json()["user"]["engine"] is False
    assert client.get("/api/users/Rude").json()["engine"] is False
    assert [e["action"] for e in audit(mod)[:2]] == ["unengine", "engine"]


@given(st.text(max_size=600))
def test_a_reports_text_is_trimmed_printable_and_short_or_refused(text: str) -> None:
    try:
        kept = clean(text, 500, "a report")
    except ApiError as error:
        assert error.status == 422
        assert len(text.strip()) > 500 or any(
            (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) < 0xE000
            for c in text.strip()
        )
    else:
        assert kept == text.strip() and len(kept) <= 500
