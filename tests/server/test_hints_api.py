"""Hints over HTTP, and the default of the ``aids`` option when a game is created.

A hint is for the holder of the seat to move in a game created with aids on;
every other request is refused with the usual error shape and changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import FEW_BLANKS, SOLUTION, Api, bearer

VS_COMPUTER = [{"kind": "human"}, {"kind": "computer", "level": "beginner"}]


def ask(api: Api, gid: str, token: str | None, cell: str | None = None) -> Any:
    params = {} if cell is None else {"cell": cell}
    return api.client.get(f"/api/games/{gid}/hint", params=params, headers=bearer(token))


def refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code
    assert error["message"]


@pytest.mark.parametrize("game", ["sumodoku", "challenge"])
def test_aids_default_on_against_the_computer_off_between_people(api: Api, game: str) -> None:
    options = {"puzzle": FEW_BLANKS} if game == "challenge" else {}
    computer = api.create(game, options=options, seats=VS_COMPUTER)
    people = api.create(game, options=options)
    assert computer["game"]["view"]["options"]["aids"] is True
    assert people["game"]["view"]["options"]["aids"] is False


@pytest.mark.parametrize("aids", [True, False])
def test_the_creator_decides_aids(api: Api, aids: bool) -> None:
    computer = api.create("sumodoku", options={"aids": aids}, seats=VS_COMPUTER)
    people = api.create("sumodoku", options={"aids": aids})
    assert computer["game"]["view"]["options"]["aids"] is aids
    assert people["game"]["view"]["options"]["aids"] is aids


def test_games_without_aids_get_no_such_option(api: Api) -> None:
    created = api.create("uttt", seats=VS_COMPUTER)
    assert "aids" not in created["game"]["view"]["options"]
    refused(ask(api, created["id"], created["token"]), 404, "no_hints")


def test_sumodoku_hint_lists_the_colours_that_fit(api: Api) -> None:
    gid, tokens = api.two_players("sumodoku", options={"aids": True})
    r = api.move(gid, tokens[0], "r1c1=1", api.get(gid)["state"])
    assert r.status_code == 200, r.text
    game = api.get(gid, tokens[1])
    legal = game["view"]["legal_moves"]
    answer = ask(api, gid, tokens[1], "R1C5")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["kind"] == "colours"
    fits = body["cells"]["r1c5"]
    assert fits == sorted(int(m.split("=")[1]) for m in legal if m.startswith("r1c5="))
    assert 1 not in fits and 5 in fits  # seat 1 owns 5-8; a 1 is already in row 1
    every = ask(api, gid, tokens[1]).json()["cells"]
    assert len(every) == 80 and "r1c1" not in every
    assert api.get(gid)["state"] == game["state"]


def test_challenge_hint_gives_a_correct_step(api: Api) -> None:
    created = api.create("challenge", options={"puzzle": FEW_BLANKS}, seats=VS_COMPUTER)
    answer = ask(api, created["id"], created["token"])
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["kind"] == "step"
    assert body["technique"] and body["description"]
    assert body["cells"]
    assert body["placements"]
    for placement in body["placements"]:
        assert placement["cell"] in body["cells"]
        assert SOLUTION[placement["index"]] == str(placement["digit"])


def test_refusals_change_nothing(api: Api) -> None:
    gid, tokens = api.two_players("sumodoku", options={"aids": True})
    off, off_tokens = api.two_players("sumodoku", options={"aids": False})
    before = api.get(gid)
    refused(ask(api, gid, None), 401, "token_required")
    refused(ask(api, gid, "not-a-token"), 403, "wrong_token")
    refused(ask(api, gid, off_tokens[0]), 403, "wrong_token")
    refused(ask(api, gid, tokens[1]), 409, "not_your_turn")
    refused(ask(api, gid, tokens[0], "r10c1"), 422, "bad_cell")
    refused(ask(api, gid, tokens[0], "r1c1=3"), 422, "bad_cell")
    refused(ask(api, off, off_tokens[0]), 403, "aids_off")
    refused(ask(api, "nosuchgame", tokens[0]), 404, "no_such_game")
    after = api.get(gid)
    assert (after["state"], after["seq"], after["moves"]) == (
        before["state"],
        before["seq"],
        before["moves"],
    )


def test_a_filled_cell_has_no_hint(api: Api) -> None:
    gid, tokens = api.two_players("sumodoku", options={"aids": True})
    assert api.move(gid, tokens[0], "r5c5=2", api.get(gid)["state"]).status_code == 200
    refused(ask(api, gid, tokens[1], "r5c5"), 422, "bad_cell")


def test_no_hint_once_the_game_is_over(api: Api) -> None:
    gid, tokens = api.two_players("sumodoku", options={"aids": True})
    r = api.post(gid, "resign", tokens[1])
    assert r.status_code == 200, r.text
    refused(ask(api, gid, tokens[0]), 409, "game_over")
    refused(ask(api, gid, tokens[1]), 409, "game_over")
