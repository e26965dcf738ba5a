"""End to end: a real ``sansu serve`` and two ``sansu bot`` bridges running built-in
levels meet through a challenge and play to the end, across a server restart."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.server.test_crash import Server


def bot_account(url: str, name: str, token_file: Path) -> None:
    with httpx.Client(base_url=url, timeout=20) as c:
        r = c.post(
            "/api/account/signup", json={"name": name, "password": "password123", "bot": True}
        )
        assert r.status_code == 201, r.text
        csrf = {"X-CSRF-Token": r.json()["csrf_token"]}
        r = c.post("/api/account/tokens", json={"label": "e2e"}, headers=csrf)
        assert r.status_code == 201, r.text
        token_file.write_text(r.json()["token"] + "\n")


def bridge(url: str, token_file: Path, log: Path, *extra: str) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "sansu", "bot", "--server", url, "--token-file", str(token_file),
        "--level", "max", "--move-ms", "150", "--quit-after", "1", *extra,
    ]  # fmt: skip
    with log.open("ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=out)


def stop_all(processes: list[subprocess.Popen[bytes]], server: Server) -> None:
    """Kills the bridges still running, then stops the server."""
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.wait()
    server.stop()


def wait_for(what: str, check, seconds: float = 120, logs: Path | None = None):  # type: ignore[no-untyped-def]
    """What ``check()`` returns once it is true; on timing out, the ends of the logs
    in ``logs`` say why."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    told = "".join(
        f"\n--- {log.name}:\n{log.read_text(errors='replace')[-3000:]}"
        for log in (sorted(logs.glob("*.log")) if logs is not None else [])
    )
    raise AssertionError(f"timed out waiting for {what}{told}")


def test_two_bots_play_through_a_challenge_and_survive_a_server_restart(tmp_path: Path) -> None:
    server = Server(tmp_path / "g.db", tmp_path / "server.log")
    server.start()
    bots: list[subprocess.Popen[bytes]] = []
    try:
        for name in ("alphabot", "betabot"):
            bot_account(server.url, name, tmp_path / f"{name}.token")
        records = tmp_path / "records"
        bots.append(
            bridge(server.url, tmp_path / "betabot.token", tmp_path / "b.log", "--games", "uttt")
        )
        wait_for(
            "betabot online",
            lambda: any(b["online"] for b in httpx.get(f"{server.url}/api/bots").json()["bots"]),
        )
        # The bridge declines what its filters refuse, saying why.
        alpha = {"Authorization": f"Bearer {(tmp_path / 'alphabot.token').read_text().strip()}"}
        refused = httpx.post(
            f"{server.url}/api/challenge/betabot", json={"game": "sansumoku"}, headers=alpha
        ).json()

        def answered() -> dict | None:
            found = httpx.get(f"{server.url}/api/challenges/{refused['id']}", headers=alpha).json()
            return found if found["status"] != "open" else None

        declined = wait_for("the sansumoku challenge declined", answered, 30, logs=tmp_path)
        assert declined["status"] == "declined" and declined["reason"] == "this bot plays uttt"
        bots.append(
            bridge(
                server.url,
                tmp_path / "alphabot.token",
                tmp_path / "a.log",
                "--challenge",
                "betabot",
                "--challenge-rated",
                "--log-dir",
                str(records),
            )
        )

        def game_going() -> dict | None:
            listed = httpx.get(f"{server.url}/api/games", params={"status": "active"}).json()
            games = [g for g in listed["games"] if g["ply"] >= 4]
            return games[0] if games else None

        game = wait_for("the game to get going", game_going, logs=tmp_path)
        server.stop()  # mid-game: the bridges lose their streams and retry
        time.sleep(1)
        server.start()
        for process in bots:
            assert process.wait(timeout=240) == 0, (tmp_path / "a.log").read_text()[-2000:]
        final = httpx.get(f"{server.url}/api/games/{game['id']}").json()
        assert final["status"] == "finished" and final["result"] is not None
        assert final["casual"] is False
        assert [s["name"] for s in final["seats"]] in (
            ["alphabot", "betabot"],
            ["betabot", "alphabot"],
        )
        assert all(s["bot"] for s in final["seats"])
        assert final["ply"] > game["ply"]  # moves were played after the restart
        record = json.loads((records / f"{game['id']}.json").read_text())
        assert record["result"] == final["result"] and len(record["moves"]) == final["ply"]
        logs = (tmp_path / "a.log").read_text() + (tmp_path / "b.log").read_text()
        assert "retrying" in logs and "accepted the challenge of alphabot" in logs
        assert logs.count(f"game {game['id']} over") == 2
        for name in ("alphabot", "betabot"):  # no token in any log
            token = (tmp_path / f"{name}.token").read_text().strip()
            assert token not in logs and token not in (tmp_path / "server.log").read_text()
    finally:
        stop_all(bots, server)


def test_the_bridge_stops_on_a_refused_token(tmp_path: Path) -> None:
    server = Server(tmp_path / "g.db", tmp_path / "server.log")
    server.start()
    try:
        token = tmp_path / "token"
        token.write_text("sansu_bot_not-a-token")
        process = bridge(server.url, token, tmp_path / "bot.log")
        assert process.wait(timeout=60) == 1
        assert "refused the token" in (tmp_path / "bot.log").read_text()
    finally:
        server.stop()
