"""End to end: a real ``sansu serve``, three ``sansu bot`` bridges running a built-in
level enter an arena and a Swiss through the bot API, play every pairing to the end,
and the standings the server shows match scores computed here from the stored games."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.server.test_bots_e2e import bot_account, stop_all, wait_for
from tests.server.test_crash import Server

BOTS = ("ada", "bea", "cyd")
TC = {"initial_seconds": 4, "increment_seconds": 0}


def host(url: str) -> tuple[httpx.Client, dict[str, str]]:
    """A person's signed-in browser (who creates and starts the tournaments)."""
    web = httpx.Client(base_url=url, timeout=20)
    r = web.post("/api/account/signup", json={"name": "host", "password": "password123"})
    assert r.status_code == 201, r.text
    return web, {"X-CSRF-Token": r.json()["csrf_token"]}


def bridge(url: str, token_file: Path, log: Path, *tournaments: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "sansu", "bot", "--server", url,
               "--token-file", str(token_file), "--level", "beginner"]  # fmt: skip
    for tid in tournaments:
        command += ["--tournament", tid]
    with log.open("ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=out)


def outcome(game: dict[str, Any], seat: int) -> str:
    result = game["result"]
    if seat in result["winners"]:
        return "draw" if result.get("draw") or len(result["winners"]) > 1 else "win"
    return "draw" if result.get("draw") else "loss"


def played(url: str, t: dict[str, Any]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """From the stored games: each player's outcomes in the order played, and opponents.
    A bye is the outcome ``bye`` with no opponent."""
    outcomes: dict[str, list[str]] = {n: [] for n in BOTS}
    opponents: dict[str, list[str]] = {n: [] for n in BOTS}
    for r in sorted(t["rounds"], key=lambda r: r["round"]):
        for p in r["pairings"]:
            names = [x["name"] for x in p["players"]]
            if p["kind"] == "bye":
                outcomes[names[0]].append("bye")
                continue
            assert p["kind"] == "game" and p["finished"], p
            game = httpx.get(f"{url}/api/games/{p['game_id']}").json()
            assert game["status"] == "finished"
            assert [s["name"] for s in game["seats"]] == names
            assert all(s["bot"] for s in game["seats"])
            for seat, name in enumerate(names):
                outcomes[name].append(outcome(game, seat))
                opponents[name] += [n for n in names if n != name]
    return outcomes, opponents


def arena_points(outcomes: list[str]) -> int:
    """Win 2, draw 1, loss 0; doubled after two wins in a row (docs/server.md)."""
    total, streak = 0, 0
    for o in outcomes:
        base = {"win": 2, "draw": 1, "loss": 0}[o]
        total += base * 2 if streak >= 2 else base
        streak = streak + 1 if o == "win" else 0
    return total


def check_order(standings: list[dict[str, Any]]) -> None:
    keys = [(s["score"], s["tiebreak"], s["rating"]) for s in standings]
    assert keys == sorted(keys, reverse=True), standings
    assert [s["rank"] for s in standings] == [1, 2, 3]


def test_three_bots_play_an_arena_and_a_swiss_to_the_end(tmp_path: Path) -> None:
    # Three bots share one address here, where each would have its own: three times the
    # default request limit (alone on a quiet machine they passed the default within the
    # minute, were refused moves and lost on time).
    server = Server(
        tmp_path / "t.db", tmp_path / "server.log", "--rate-limit-requests", "3600/minute"
    )
    server.start()
    bots: list[subprocess.Popen[bytes]] = []
    url = server.url
    try:
        web, csrf = host(url)
        for name in BOTS:
            bot_account(url, name, tmp_path / f"{name}.token")
        ids = {}
        for fmt, extra in (("arena", {"minutes": 1}), ("swiss", {"rounds": 3})):
            body = {"format": fmt, "game": "uttt", "time_control": TC, "rated": True, **extra}
            r = web.post("/api/tournaments", json=body, headers=csrf)
            assert r.status_code == 201, r.text
            ids[fmt] = r.json()["id"]
        for name in BOTS:
            log = tmp_path / f"{name}.log"
            bots.append(bridge(url, tmp_path / f"{name}.token", log, ids["arena"], ids["swiss"]))
        for tid in ids.values():
            wait_for(
                "three entries",
                lambda tid=tid: httpx.get(f"{url}/api/tournaments/{tid}").json()["players"] == 3,
                60,
            )
            r = web.post(f"/api/tournaments/{tid}/start", headers=csrf)
            assert r.status_code == 200, r.text
        for process in bots:  # each bridge exits once both tournaments are over
            assert process.wait(timeout=200) == 0, (tmp_path / "ada.log").read_text()[-2000:]

        arena = httpx.get(f"{url}/api/tournaments/{ids['arena']}").json()
        assert arena["status"] == "finished"
        outcomes, _ = played(url, arena)
        assert sum(len(o) for o in outcomes.values()) >= 4  # several games in a minute
        shown = {s["name"]: s for s in arena["standings"]}
        for name in BOTS:
            assert shown[name]["score"] == arena_points(outcomes[name]), (name, outcomes)
            assert shown[name]["wins"] == outcomes[name].count("win")
            assert shown[name]["tiebreak"] == outcomes[name].count("win")
            assert shown[name]["games"] == len(outcomes[name])
            assert not shown[name]["paused"]  # each bridge made its first moves in time
        check_order(arena["standings"])

        swiss = httpx.get(f"{url}/api/tournaments/{ids['swiss']}").json()
        assert swiss["status"] == "finished" and swiss["round"] == 3
        outcomes, opponents = played(url, swiss)
        points = {"win": 1.0, "draw": 0.5, "loss": 0.0, "bye": 1.0}
        scores = {n: sum(points[o] for o in outcomes[n]) for n in BOTS}
        assert all(len(outcomes[n]) == 3 for n in BOTS)
        assert sum(o.count("bye") for o in outcomes.values()) == 3  # one bye a round
        assert all(o.count("bye") <= 1 for o in outcomes.values())
        shown = {s["name"]: s for s in swiss["standings"]}
        for name in BOTS:
            buchholz = sum(scores[o] for o in opponents[name])
            assert shown[name]["score"] == scores[name], (name, outcomes)
            assert shown[name]["tiebreak"] == buchholz, (name, opponents)
        check_order(swiss["standings"])
        assert [p["name"] for p in swiss["podium"]] == [s["name"] for s in swiss["standings"]]

        logs = "".join((tmp_path / f"{n}.log").read_text() for n in BOTS)
        assert f"in tournament {ids['swiss']}" in logs and "tournaments over" in logs
        for name in BOTS:  # no token in any log
            token = (tmp_path / f"{name}.token").read_text().strip()
            assert token not in logs and token not in (tmp_path / "server.log").read_text()
    finally:
        stop_all(bots, server)
