"""The shipped deployment files hold together: every ``sansu`` command line in the
systemd units is one sansu accepts, the units pass ``systemd-analyze verify``, and
the cluster's nginx upstream makes a valid configuration with the site and sends
every request of a game to one node.
(``test_proxy_tls.py`` runs the single server's site for real.)"""

from __future__ import annotations

import http.server
import re
import shlex
import shutil
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from sansu.cli.main import build_parser
from tests.server.conftest import ROOT
from tests.server.test_crash import free_port
from tests.server.test_proxy_tls import DEPLOY, nginx_binary, self_signed, site_config

UNITS = ROOT / "deploy" / "systemd"
SANSU = "/opt/sansu/venv/bin/sansu"
SAMPLE = {
    "${SANSU_DB}": "postgresql://sansu@/sansu",
    "${SANSU_REDIS}": "redis://127.0.0.1:6379/0",
    "$SANSU_OPTIONS": "--metrics-port 9464 --hsts-max-age 63072000",
    "$SANSU_NODE_OPTIONS": "--hsts-max-age 63072000",
    "%i": "2",
}
"""Values for the units' variables (those of deploy/sansu.env's examples)."""


def exec_lines(unit: Path) -> list[str]:
    """The unit's ``ExecStart=`` lines, continuation lines joined."""
    text = unit.read_text().replace("\\\n", " ")
    return [line.split("=", 1)[1] for line in text.splitlines() if line.startswith("ExecStart=")]


def sansu_arguments(command: str) -> list[str]:
    """The arguments of the ``sansu`` command that ``command`` runs, the unit's variables
    given sample values; a ``/bin/sh -c`` script is run, with ``printf`` for sansu."""
    command = command.replace("%%", "%")  # systemd's escape of a percent sign
    for name, value in SAMPLE.items():
        command = command.replace(name, value)
    words = shlex.split(command)
    if words[:2] != ["/bin/sh", "-c"]:
        assert words[0] == SANSU, words
        return words[1:]
    assert SANSU in words[2], words
    script = words[2].replace(SANSU, "printf '%s\\n'", 1)
    env = {"PATH": "/usr/bin:/bin", **{k.strip("${}"): v for k, v in SAMPLE.items() if "$" in k}}
    env["SANSU_BACKUP_SUFFIX"] = "dump"
    done = subprocess.run(["/bin/sh", "-c", script], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("unit", ["sansu.service", "sansu-node@.service", "sansu-backup.service"])
def test_each_units_command_is_one_sansu_accepts(unit: str) -> None:
    lines = exec_lines(UNITS / unit)
    assert len(lines) == 1
    args = build_parser().parse_args(sansu_arguments(lines[0]))
    if args.command == "serve":
        assert args.forwarded_allow_ips == "127.0.0.1"  # nginx on the same host, alone
        assert args.host == "127.0.0.1"  # reached through nginx only
    if unit == "sansu-node@.service":
        assert (args.port, args.metrics_port, args.redis) == (8002, 8102, SAMPLE["${SANSU_REDIS}"])
        upstream = (DEPLOY / "upstream-cluster.conf").read_text()
        assert re.findall(r"server 127\.0\.0\.1:(\d+)", upstream) == ["8001", "8002", "8003"]
    if unit == "sansu-backup.service":
        assert args.action == "backup" and args.db == SAMPLE["${SANSU_DB}"]
        assert re.fullmatch(r"/var/backups/sansu/sansu-\d{4}-\d\d-\d\d\.dump", args.file)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    """Verified as shipped, but for the program's path (no /opt/sansu on a test machine)."""
    sansu = Path(sys.executable).with_name("sansu")
    for unit in UNITS.iterdir():
        text = unit.read_text().replace("/opt/sansu/venv/bin/sansu", str(sansu))
        (tmp_path / unit.name.replace("@.", "@1.")).write_text(text)
    units = sorted(str(p) for p in tmp_path.iterdir())
    done = subprocess.run(
        ["systemd-analyze", "verify", *units], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr


def test_the_site_with_the_clusters_upstream_is_valid_nginx(tmp_path: Path) -> None:
    nginx = nginx_binary()
    self_signed(tmp_path)
    (tmp_path / "acme").mkdir()
    conf = site_config(tmp_path, 18080, 18443, 8000).replace(
        (DEPLOY / "upstream.conf").read_text(), (DEPLOY / "upstream-cluster.conf").read_text()
    )
    assert "127.0.0.1:8003" in conf
    (tmp_path / "nginx.conf").write_text(conf)
    command = [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]
    checked = subprocess.run(
        [*command, "-e", str(tmp_path / "error.log")], capture_output=True, text=True, timeout=60
    )
    assert checked.returncode == 0, checked.stderr


class _Node(http.server.BaseHTTPRequestHandler):
    """A stand-in node: answers every request with its own name."""

    def _answer(self) -> None:
        body = self.server.name.encode()  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_DELETE = _answer

    def log_message(self, *args: object) -> None:
        pass


def test_the_clusters_upstream_sends_every_request_of_a_game_to_one_node(
    tmp_path: Path,
) -> None:
    """nginx with the shipped site and cluster upstream, in front of three stand-in
    nodes: a game's calls, socket and bot stream reach one node; other requests, and
    the games between them, spread over the nodes."""
    nginx = nginx_binary()
    cert, _key = self_signed(tmp_path)
    (tmp_path / "acme").mkdir()
    nodes = []
    for name in ("a", "b", "c"):
        node = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Node)
        node.name = name  # type: ignore[attr-defined]
        threading.Thread(target=node.serve_forever, daemon=True).start()
        nodes.append(node)
    upstream = (DEPLOY / "upstream-cluster.conf").read_text()
    for i, node in enumerate(nodes):
        upstream = upstream.replace(f"127.0.0.1:800{i + 1}", f"127.0.0.1:{node.server_port}")
    http_port, https_port = free_port(), free_port()
    conf = site_config(tmp_path, http_port, https_port, 8000).replace(
        (DEPLOY / "upstream.conf").read_text(), upstream
    )
    (tmp_path / "nginx.conf").write_text(conf)
    command = [nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]
    command += ["-e", str(tmp_path / "error.log"), "-g", "daemon off;"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"https://127.0.0.1:{https_port}"
    try:
        with httpx.Client(base_url=base, verify=ssl.create_default_context(cafile=cert)) as c:
            end = time.monotonic() + 60
            while True:
                try:
                    c.get("/api/health")
                    break
                except httpx.HTTPError:
                    assert process.poll() is None and time.monotonic() < end, "nginx did not start"
                    time.sleep(0.1)
            games = [f"g{n:03d}x{n * 7919 % 1000:03d}" for n in range(24)]
            reached = {}
            for gid in games:
                answers = {
                    c.get(f"/api/games/{gid}").text,
                    c.post(f"/api/games/{gid}/moves", json={"move": "r5c5"}).text,
                    c.post(f"/api/games/{gid}/offers/draw").text,
                    c.delete(f"/api/games/{gid}/rematch").text,
                    c.get(f"/api/games/{gid}/ws").text,
                    c.get(f"/api/bot/game/stream/{gid}").text,
                    c.post(f"/api/bot/game/{gid}/move/r1c1").text,
                    c.get(f"/api/games/{gid}").text,
                }
                assert len(answers) == 1 and answers <= {"a", "b", "c"}, (gid, answers)
                reached[gid] = answers.pop()
            assert len(set(reached.values())) == 3, reached
            others = {c.get("/api/health").text for _ in range(30)}
            others |= {c.post("/api/games", json={"game": "uttt"}).text for _ in range(30)}
            assert others == {"a", "b", "c"}
    finally:
        process.terminate()
        process.wait(timeout=30)
        for node in nodes:
            node.shutdown()
