"""GET /api/catalog/{game}/reference: a game's reference for programmers, beside its
How to play page (GET /api/catalog/{game}/rules)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sansu.server.play import rules
from tests.server.conftest import make_client

GAMES = ("uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive")


def test_each_game_has_its_reference_beside_its_rules(tmp_path: Path) -> None:
    with make_client(str(tmp_path / "db.sqlite")) as client:
        for game in GAMES:
            reference = client.get(f"/api/catalog/{game}/reference")
            assert reference.status_code == 200, game
            assert reference.headers["content-type"].startswith("text/markdown")
            assert reference.text.startswith("# ") and "reference for programmers" in reference.text
            assert reference.text == (rules.RULES / "reference" / f"{game}.md").read_text()
            page = client.get(f"/api/catalog/{game}/rules").text
            assert page.startswith("# How to play") and f"(reference/{game}.md)" in page
        # An alias names the same game.
        assert client.get("/api/catalog/35/reference").text.startswith("# 35: reference")


def test_an_unknown_game_is_refused_as_everywhere_else(tmp_path: Path) -> None:
    with make_client(str(tmp_path / "db.sqlite")) as client:
        answer = client.get("/api/catalog/chess/reference")
        assert answer.status_code == 422
        assert answer.json()["error"]["code"] == "unknown_game"


def test_a_reference_not_installed_is_404(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "uttt.md").write_text("# How to play\n")
    monkeypatch.setattr(rules, "RULES", tmp_path / "docs")
    with make_client(str(tmp_path / "db.sqlite")) as client:
        assert client.get("/api/catalog/uttt/rules").status_code == 200
        answer = client.get("/api/catalog/uttt/reference")
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "no_reference"
