"""A light install: the engines, the Sudoku toolkit, the computer players and the research
environments work without the server's libraries, and ``sansu serve`` says what to add.

A subprocess refuses every import of the server's and the bot client's libraries (as
an install without ``sansu[server]`` has none), then plays, imports and asks for the
server; the core dependencies in ``pyproject.toml`` name none of them either.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER_ONLY = [
    *("fastapi", "starlette", "uvicorn", "websockets", "sqlalchemy", "alembic", "psycopg"),
    *("argon2", "limits", "openskill", "glicko2", "httpx", "caissify_pairings", "redis"),
    *("confusable_homoglyphs", "pydantic", "prometheus_client"),
]
BLOCK = f"""
import importlib.abc, sys
class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in {SERVER_ONLY!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Refuse())
"""


def light(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", BLOCK + code],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        check=False,
    )


def test_the_core_dependencies_name_no_server_library() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {d.split("[")[0].split(">")[0].split("=")[0].strip().replace("-", "_").lower()
             for d in project["dependencies"]}  # fmt: skip
    assert names == {"numpy", "numba", "tqdm", "rich"}
    server = {d.split("[")[0].split(">")[0].replace("-", "_").lower()
              for d in project["optional-dependencies"]["server"]}  # fmt: skip
    assert {"fastapi", "uvicorn", "sqlalchemy"} <= server


def test_plays_imports_the_environments_and_the_ai_without_the_server() -> None:
    done = light(
        "from sansu.cli.main import main\n"
        "assert main(['show', 'uttt', '--moves', 'r5c5']) == 0\n"
        "import sansu, sansu.envs, sansu.ai, sansu.sudoku\n"
        "venv = sansu.envs.VectorEnv('uttt', 2)\n"
        "print(int(venv.reset().legal_action_mask.sum()))\n"
        "from sansu.ai.player import ComputerPlayer\n"
        "print(sansu.load_game('sumodoku').initial_state().legal_moves()[0])\n"
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "162" in done.stdout


def test_serve_without_the_server_says_what_to_install() -> None:
    done = light(
        "from sansu.cli.main import main\nraise SystemExit(main(['serve', '--port', '9']))"
    )
    assert done.returncode == 2
    assert "pip install 'sansu[server]'" in done.stderr and "Traceback" not in done.stderr
    done = light("from sansu.cli.main import main\nraise SystemExit(main(['--help']))")
    assert done.returncode == 0 and "serve" in done.stdout
