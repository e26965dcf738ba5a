"""``sansu serve --claim-after`` and ``--no-warm-up`` reach the server's parts; a bad value
is one line and exit 2 before anything starts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sansu.cli.main import main
from sansu.server import create_app
from sansu.server.play import CLAIM_AFTER


@pytest.mark.parametrize("value", ["-1", "86401", "nan"])
def test_a_bad_claim_delay_is_refused_before_the_server_starts(
    tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.db"
    assert main(["serve", "--db", str(db), "--claim-after", value]) == 2
    assert capsys.readouterr().err.strip() == f"sansu serve: bad --claim-after {float(value)}"
    assert not db.exists()


def test_the_claim_delay_reaches_the_moves(tmp_path: Path) -> None:
    assert CLAIM_AFTER == 60.0
    app = create_app(str(tmp_path / "g.db"), claim_after=7.5, warm_up=False)
    assert app.state.service.moves.claim_after == 7.5
    app = create_app(str(tmp_path / "h.db"), warm_up=False)
    assert app.state.service.moves.claim_after == CLAIM_AFTER


@pytest.mark.parametrize(("flags", "warm"), [((), True), (("--no-warm-up",), False)])
def test_the_command_line_passes_its_options_to_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: tuple[str, ...], warm: bool
) -> None:
    seen: dict[str, Any] = {}

    def fake_create_app(db: str, **options: Any) -> object:
        seen.update(options)
        raise RuntimeError("stop here")  # reported as a start failure: exit 2

    monkeypatch.setattr("sansu.server.create_app", fake_create_app)
    db = str(tmp_path / "g.db")
    assert main(["serve", "--db", db, "--claim-after", "12", *flags]) == 2
    assert seen["warm_up"] is warm and seen["claim_after"] == 12.0
