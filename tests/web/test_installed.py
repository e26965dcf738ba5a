"""The package as a user installs it: a wheel in a fresh virtual environment serves
every page and every game's rules (package data, not files of the source tree).

The wheel is built from this tree and installed without its dependencies into a
new virtual environment, which borrows them from the test environment through a
path entry (so the test needs no network). The server runs from a temporary
directory, so nothing of the source tree can stand in for the package.
"""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import ROOT, serving
from .helpers import GAMES, STATIC_PAGES, open_page


def run(*command: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, cwd=cwd, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with sansu installed from a wheel; its bin directory."""
    work = tmp_path_factory.mktemp("wheel")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", work / "dist", ROOT)
    wheel = next((work / "dist").glob("sansu-*.whl"))
    venv = work / "venv"
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "--no-deps", "-q", wheel)
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip())
    (site / "zz_test_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    where = run(python, "-c", "import sansu; print(sansu.__file__)", cwd=work).strip()
    assert Path(where).is_relative_to(venv), where  # the installed copy, not the source tree
    return venv / "bin"


def test_the_installed_package_serves_every_page_and_every_rules_text(
    installed: Path, tmp_path: Path, browser: object
) -> None:
    # A fresh installation builds the computer players' compiled code in the background on
    # its first start; the pages below include Sudoku Challenge's, whose puzzles wait for
    # the compiled solver, so the test waits for the build as a patient visitor would.
    db = tmp_path / "games.db"
    with serving(str(installed / "sansu"), db, cwd=tmp_path, wait=600) as url:
        deadline = time.monotonic() + 600
        while True:
            with urllib.request.urlopen(f"{url}/api/health", timeout=10) as answer:
                if json.loads(answer.read()).get("warmup", {}).get("ready", True):
                    break
            assert time.monotonic() < deadline, "the compiled code was not built in 600 s"
            time.sleep(1)  # polling the build's progress, not waiting for a guess
        for game in GAMES:
            with urllib.request.urlopen(f"{url}/api/catalog/{game}/rules", timeout=10) as answer:
                text = answer.read().decode()
            assert answer.status == 200 and text.startswith("# ")
            assert text == (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
        with urllib.request.urlopen(f"{url}/api/catalog", timeout=10) as answer:
            assert {g["id"] for g in json.loads(answer.read())["games"]} >= set(GAMES)
        context = browser.new_context()  # type: ignore[attr-defined]
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} {r.url}"))
        try:
            for address in STATIC_PAGES:
                open_page(page, url, address)
                assert page.locator(".notice.error").count() == 0, address
                if "rules" in address:
                    assert page.locator(".prose h1, .prose h2").count() >= 2, address
        finally:
            context.close()
        assert not errors, errors
