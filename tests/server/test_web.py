"""The web app's files at ``/``, or a placeholder page until there are any."""

from __future__ import annotations

from pathlib import Path

from tests.server.conftest import make_client


def test_placeholder_lists_the_games(tmp_path: Path) -> None:
    empty = tmp_path / "static"
    empty.mkdir()
    with make_client(str(tmp_path / "db.sqlite"), static_dir=empty) as client:
        page = client.get("/")
        assert page.status_code == 200 and "Ultimate Tic-Tac-Toe" in page.text
        assert client.get("/api/openapi.json").json()["info"]["title"] == "sansu"


def test_the_web_app_is_served_with_its_own_pages(tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>app</title>")
    (static / "js" / "app.js").write_text("export {};")
    with make_client(str(tmp_path / "db.sqlite"), static_dir=static) as client:
        assert client.get("/").text.endswith("<title>app</title>")
        assert client.get("/js/app.js").text == "export {};"
        assert client.get("/game/abc123").text.endswith("<title>app</title>")  # the app's route
        assert client.get("/js/missing.js").status_code == 404
        missing = client.get("/api/missing")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"


def test_the_rules_are_served_as_markdown(tmp_path: Path) -> None:
    with make_client(str(tmp_path / "db.sqlite")) as client:
        rules = client.get("/api/catalog/35/rules")
        assert rules.status_code == 200 and rules.headers["content-type"].startswith(
            "text/markdown"
        )
        assert rules.text.startswith("#")
        assert client.get("/api/catalog/chess/rules").json()["error"]["code"] == "unknown_game"
