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
    # The index page's text and the guides it names come with the package.
    python = installed / "python"
    described = run(
        python,
        "-c",
        "import importlib.metadata as m; print(m.metadata('sansu')"
        "['Description'] or m.metadata('sansu').get_payload())",
        cwd=tmp_path,
    )
    assert described.strip() == (ROOT / "docs" / "pypi.md").read_text(encoding="utf-8").strip()
    guide = run(installed / "sansu", "docs", "research", cwd=tmp_path)
    assert guide == (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    # The installed copy's compiled code would be built afresh (numba's cache follows the
    # files' paths): no page below needs it, so the server starts without building it
    # (the first start's build has tests of its own). Sudoku Challenge's pages come last:
    # their diagrams' puzzles compile the Sudoku toolkit at first use.
    db = tmp_path / "games.db"
    with serving(str(installed / "sansu"), db, cwd=tmp_path, extra=("--no-warm-up",)) as url:
        for game in GAMES:
            with urllib.request.urlopen(f"{url}/api/catalog/{game}/rules", timeout=10) as answer:
                text = answer.read().decode()
            assert answer.status == 200 and text.startswith("# ")
            assert text == (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
        with urllib.request.urlopen(f"{url}/api/catalog", timeout=10) as answer:
            assert {g["id"] for g in json.loads(answer.read())["games"]} >= set(GAMES)
        static = ROOT / "src" / "sansu" / "web" / "static"
        for path in sorted(p for p in static.rglob("*") if p.is_file()):
            # Every file of the web app is in the package (each one, not only what a visit
            # happens to load).
            relative = path.relative_to(static).as_posix()
            if relative == "index.html":
                continue  # served at / with the page's nonce
            with urllib.request.urlopen(f"{url}/{relative}", timeout=10) as answer:
                assert answer.read() == path.read_bytes(), relative
        context = browser.new_context()  # type: ignore[attr-defined]
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} {r.url}"))
        try:
            for address in sorted(STATIC_PAGES, key=lambda a: a.endswith("challenge")):
                open_page(page, url, address)
                assert page.locator(".notice.error").count() == 0, address
                if "rules" in address:
                    assert page.locator(".prose h1, .prose h2").count() >= 2, address
        finally:
            context.close()
        assert not errors, errors
