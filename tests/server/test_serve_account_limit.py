"""``sansu serve --rate-limit-accounts``: the sign-up and log-in limit per client address
is set (or turned off) from the command line."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.server.test_crash import Server


def test_the_account_limit_comes_from_the_command_line(tmp_path: Path) -> None:
    server = Server(tmp_path / "a.db", tmp_path / "server.log", "--rate-limit-accounts", "2/minute")
    server.start()
    try:
        answers = [
            httpx.post(
                f"{server.url}/api/account/signup",
                json={"name": f"player{i}", "password": "password123"},
                timeout=20,
            )
            for i in range(3)
        ]
        assert [a.status_code for a in answers] == [201, 201, 429]
        assert answers[2].json()["error"]["code"] == "rate_limited"
        listed = httpx.post(
            f"{server.url}/api/account/login",
            json={"name": "player0", "password": "password123"},
            timeout=20,
        )
        assert listed.status_code == 429  # log-ins count against the same limit
    finally:
        server.stop()
