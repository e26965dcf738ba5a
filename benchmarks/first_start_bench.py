"""First start: seconds from starting sansu to its first page, to a computer's first reply
(each of a few levels, against that level's budget), and to the end of the background
build of the compiled code; medians over ``--runs``.

By default it starts ``sansu serve`` of this install with numba's cache in an empty
directory, as on a fresh install. With ``--clone REPO`` it does what a newcomer does:
``git clone REPO`` into a fresh directory and ``./scripts/start`` there (a new venv, pip
and all; pip's download cache is used unless ``--cold-pip``, which gives pip an empty one).

    python benchmarks/first_start_bench.py [--runs 3] [--clone /path/to/repo [--cold-pip]]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

REPLIES = (("uttt", "beginner"), ("uttt", "max"), ("thirtyfive", "medium"))
"""The computer replies timed: a game and a level (the level's own budget, no cap)."""
BUDGET_MS = {("uttt", "beginner"): 200, ("uttt", "max"): 2000, ("thirtyfive", "medium"): 1000}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def call(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def wait_page(url: str, process: subprocess.Popen[bytes], limit: float) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(url + "/", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"no first page within {limit} s")


def build_status(url: str) -> dict[str, Any]:
    """The background build's progress (a server without one was ready when it answered)."""
    status: dict[str, Any] = call(url + "/api/health").get("warmup") or {"ready": True}
    return status


def reply_seconds(url: str, game: str, level: str) -> float:
    """Seconds from creating a game whose first mover is the computer to its move."""
    seats = [{"kind": "computer", "level": level}, {"kind": "human"}]
    created = call(url + "/api/games", {"game": game, "seats": seats})
    start = time.monotonic()
    while call(f"{url}/api/games/{created['id']}", token=created["token"])["view"]["ply"] < 1:
        if time.monotonic() - start > 120:
            raise RuntimeError("no computer reply within 120 s")
        time.sleep(0.02)
    return time.monotonic() - start


def one_run(command: list[str], cwd: Path, env: dict[str, str], port: int) -> dict[str, Any]:
    url = f"http://127.0.0.1:{port}"
    log = open(cwd / f"serve-{port}.log", "wb")  # noqa: SIM115 - closed below
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_page(url, process, 1800)
        row: dict[str, Any] = {"first page": time.monotonic() - start}
        row["building at first page"] = not build_status(url)["ready"]
        print(f"  first page after {row['first page']:.2f} s", flush=True)
        for game, level in REPLIES:
            row[f"{game} {level} reply"] = reply_seconds(url, game, level)
            print(f"  {game} {level} reply {row[f'{game} {level} reply']:.2f} s", flush=True)
        row["first reply"] = row[f"{REPLIES[0][0]} {REPLIES[0][1]} reply"] + row["first page"]
        while not build_status(url)["ready"]:
            time.sleep(0.5)
        row["build done"] = time.monotonic() - start
        return row
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def in_place(work: Path, port: int) -> dict[str, Any]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(work / "numba-cache")}
    env.pop("SANSU_KERNEL_STAMP", None)
    if env.get("PYTHONPATH"):  # the server runs elsewhere: PYTHONPATH=src must still hold
        paths = env["PYTHONPATH"].split(os.pathsep)
        env["PYTHONPATH"] = os.pathsep.join(str(Path(p).resolve()) for p in paths)
    sansu = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"
    db = work / "games.db"
    command = [sansu, "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db)]
    return one_run(command, work, env, port)


def cloned(repo: str, work: Path, port: int, cold_pip: bool) -> dict[str, Any]:
    clone = work / "clone"
    subprocess.run(["git", "clone", "--quiet", repo, str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["HOME"] = str(work / "home")  # its own database in ~/.local/share/sansu
    if cold_pip:
        env["PIP_CACHE_DIR"] = str(work / "pip-cache")
    command = ["./scripts/start", "--host", "127.0.0.1", "--port", str(port)]
    return one_run(command, clone, env, port)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--clone", help="a repository to clone and ./scripts/start")
    parser.add_argument("--cold-pip", action="store_true", help="with --clone: no pip cache")
    args = parser.parse_args(argv if argv is not None else [])
    rows = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="sansu-first-start-") as work:
            if args.clone:
                row = cloned(args.clone, Path(work), free_port(), args.cold_pip)
            else:
                row = in_place(Path(work), free_port())
        rows.append(row)
        print(f"run {run + 1}: " + ", ".join(f"{k} {v:.2f}" for k, v in row.items()), flush=True)
    how = f"fresh clone ({'cold' if args.cold_pip else 'cached'} pip)" if args.clone else "serve"
    print(f"first start, {how}, median of {len(rows)} (seconds):")
    for key in rows[0]:
        values = [float(r[key]) for r in rows]
        budget = next((BUDGET_MS[g] for g in BUDGET_MS if key == f"{g[0]} {g[1]} reply"), None)
        extra = f"  (budget {budget / 1000:.1f} s)" if budget else ""
        print(f"  {key:28s} {statistics.median(values):8.2f}{extra}")


if __name__ == "__main__":
    main(sys.argv[1:])
