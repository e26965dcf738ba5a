"""The shipped nginx site (``deploy/nginx/``) in front of a real ``sansu serve
--forwarded-allow-ips 127.0.0.1``, over https with a self-signed certificate.

nginx runs unprivileged from its own prefix on free ports, with the shipped files
rendered for the test (ports, certificate, log paths). Clients connect from loopback
addresses of their own (127.0.0.2, 127.0.0.3, …) and must be known by them: apart in
the rate limits and in the server's log, whatever ``X-Forwarded-For`` they send
themselves. Over https every cookie is ``Secure`` and every answer has HSTS; plain
http is sent to https; a game's sockets work through the proxy (wss), by a seat's
token and by a session cookie from the site's own page (``Origin`` = ``Host``). A
client that reaches the server without the proxy gets none of what the proxy's
headers give.
nginx is installed by ``scripts/nginx-for-tests`` (as the test command does); the
test is skipped only when it cannot be."""

from __future__ import annotations

import contextlib
import json
import os
import ssl
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.conftest import ROOT, legal
from tests.server.test_crash import Server, free_port
from tests.server.test_process import answer

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="loopback addresses, nginx")

DEPLOY = ROOT / "deploy" / "nginx"
SITE = "sansu.example.org"
CREATES = 3
"""Games a client may create an hour in this test (``--rate-limit-creates``)."""
A, B, C = "127.0.0.2", "127.0.0.3", "127.0.0.4"
"""The clients' own addresses; nginx reaches the server from 127.0.0.1."""
SPOOFED = "198.51.100.7"
STARTUP_SECONDS = 60.0


def nginx_binary() -> str:
    """nginx's path, installed if missing; the test is skipped if it cannot be."""
    try:
        found = subprocess.run(
            [str(ROOT / "scripts" / "nginx-for-tests")],
            capture_output=True,
            text=True,
            timeout=900,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"nginx cannot be installed: {error}")
    if found.returncode != 0:
        pytest.skip(f"nginx cannot be installed: {found.stderr.strip()[-500:]}")
    return found.stdout.strip().splitlines()[-1]


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, and its key (openssl)."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost"),
            *("-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return cert, key


def render(text: str, replacements: dict[str, str]) -> str:
    """``text`` with each literal replaced; every one must be there (a shipped file that
    changed its shape fails here, not by testing something else)."""
    for old, new in replacements.items():
        assert old in text, f"{old!r} is no longer in the shipped nginx files"
        text = text.replace(old, new)
    return text


@dataclass
class Proxy:
    https: str
    http: str
    cert: Path


def site_config(work: Path, http: int, https: int, upstream: int) -> str:
    """The test's nginx.conf: its own paths, and the shipped files rendered for the test."""
    site = render(
        (DEPLOY / "sansu.conf").read_text(),
        {
            f"/etc/letsencrypt/live/{SITE}/fullchain.pem": str(work / "cert.pem"),
            f"/etc/letsencrypt/live/{SITE}/privkey.pem": str(work / "key.pem"),
            "/var/www/html": str(work / "acme"),
            "/var/log/nginx/": f"{work}/",
            # the site's own errors go to its own log, not to error.log: at debug, so a
            # stalled upgrade shows where nginx held it (and which upstream connection)
            "sansu.error.log;": "sansu.error.log debug;",
            "listen [::]:80;": "",
            "listen [::]:443 ssl http2;": "",
            "listen 80;": f"listen 127.0.0.1:{http};",
            "listen 443 ssl http2;": f"listen 127.0.0.1:{https} ssl http2;",
            SITE: "localhost",
        },
    )
    upstream_conf = render(
        (DEPLOY / "upstream.conf").read_text(), {"127.0.0.1:8000": f"127.0.0.1:{upstream}"}
    )
    temp = "\n".join(
        f"    {kind}_temp_path {work}/tmp-{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # As root (a container), the workers stay root: they could not enter the test's
    # private temporary directory as nobody.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes 1;\npid {work}/nginx.pid;\nerror_log {work}/error.log info;\n"
        "events { worker_connections 256; }\n"
        f"http {{\n{temp}\n    access_log {work}/access.log;\n{upstream_conf}\n{site}\n}}\n"
    )


def start_nginx(nginx: str, work: Path, upstream: int) -> tuple[subprocess.Popen[bytes], Proxy]:
    """nginx answering over https, on free ports (others, if another process took one
    between their choice and nginx's start)."""
    for _attempt in range(5):
        http, https = free_port(), free_port()
        if http == https:
            continue
        conf = work / "nginx.conf"
        conf.write_text(site_config(work, http, https, upstream))
        command = [nginx, "-p", str(work), "-c", str(conf), "-e", str(work / "error.log")]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, checked.stderr
        process = subprocess.Popen(
            [*command, "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        proxy = Proxy(f"https://127.0.0.1:{https}", f"http://127.0.0.1:{http}", work / "cert.pem")
        end = time.monotonic() + STARTUP_SECONDS
        while process.poll() is None:
            try:
                if httpx.get(f"{proxy.https}/api/health", verify=trusting(proxy)).is_success:
                    return process, proxy
            except httpx.HTTPError:
                assert time.monotonic() < end, "nginx did not answer"
                time.sleep(0.1)
        errors = (work / "error.log").read_text()
        assert "Address already in use" in errors, errors[-3000:]
    raise AssertionError("nginx found no free ports")


@contextlib.contextmanager
def behind_nginx(tmp_path: Path, *options: str) -> Iterator[tuple[Proxy, Server]]:
    """``sansu serve --forwarded-allow-ips 127.0.0.1`` with more ``options``, and nginx
    with the shipped site in front of it."""
    nginx = nginx_binary()
    server = Server(
        tmp_path / "g.db", tmp_path / "server.log", "--forwarded-allow-ips", "127.0.0.1", *options
    )
    work = tmp_path / "nginx"
    work.mkdir()
    (work / "acme").mkdir()
    self_signed(work)
    server.start()
    try:
        process, proxy = start_nginx(nginx, work, server.port)
        try:
            yield proxy, server
        finally:
            process.terminate()
            process.wait(timeout=30)
    finally:
        server.stop()


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Proxy, Server]]:
    """The server behind nginx; its log is JSON, its creations few."""
    limits = ("--rate-limit-creates", f"{CREATES}/hour")
    with behind_nginx(tmp_path, "--log-format", "json", "--log-level", "info", *limits) as both:
        yield both


def trusting(proxy: Proxy) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(proxy.cert))


def client_from(address: str, base: str, proxy: Proxy) -> httpx.Client:
    """A client whose connections come from ``address``."""
    transport = httpx.HTTPTransport(local_address=address, verify=trusting(proxy))
    return httpx.Client(base_url=base, transport=transport, timeout=60)


@contextlib.contextmanager
def socket_through(proxy: Proxy, server: Server, url: str, **options: Any) -> Iterator[Any]:
    """``connect(url, **options)``, tried again once if its handshake times out, as the web
    app's own client does (``Live`` in ``js/api.js``); the timeout is reported as a warning
    with the tails of nginx's and the server's logs, and a second one fails the test."""
    for attempt in (1, 2):
        try:
            ws = connect(url, **options)
            break
        except TimeoutError as error:
            work = proxy.cert.parent
            logs = {
                "nginx": (work / "error.log", 3000),
                "nginx's site, debug": (work / "sansu.error.log", 12000),
                "nginx's access log": (work / "sansu.access.log", 2000),
                "server": (server.log, 3000),
            }
            shown = "\n".join(
                f"--- {name}:\n{path.read_text()[-tail:] if path.exists() else '(none)'}"
                for name, (path, tail) in logs.items()
            )
            shown += f"\n--- connections to the server (bytes unread: Recv-Q):\n{sockets(server)}"
            said = f"no WebSocket handshake through nginx: {error}\n{shown}"
            if attempt == 2:
                raise AssertionError(said) from error
            warnings.warn(f"{said}\n(tried again)", stacklevel=3)
    with ws:
        yield ws


def sockets(server: Server) -> str:
    """The TCP connections to the server's port as ``ss`` shows them: a request that
    reached the server but was not read shows as its connection's Recv-Q."""
    port = server.port
    try:
        shown = subprocess.run(
            ["ss", "-tn", "state", "all", f"( sport = :{port} or dport = :{port} )"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"(ss: {error})"
    return shown.stdout or shown.stderr


def create(c: httpx.Client, **headers: str) -> httpx.Response:
    return c.post("/api/games", json={"game": "uttt", "private": True}, headers=headers)


def test_behind_nginx_over_https_clients_are_themselves_cookies_secure_and_sockets_work(
    proxied: tuple[Proxy, Server],
) -> None:
    proxy, server = proxied
    seen: list[httpx.Response] = []
    expected: dict[str, str] = {}  # request id -> the client the log must name

    def keep(address: str) -> Callable[[httpx.Response], None]:
        def hook(response: httpx.Response) -> None:
            seen.append(response)
            expected[response.headers["x-request-id"]] = address

        return hook

    a = client_from(A, proxy.https, proxy)
    b = client_from(B, proxy.https, proxy)
    c = client_from(C, proxy.https, proxy)
    for client, address in ((a, A), (b, B), (c, C)):
        client.event_hooks["response"] = [keep(address)]
    with a, b, c:
        # Accounts: the session cookie, and its removal, are Secure.
        r = a.post("/api/account/signup", json={"name": "Ada", "password": "a long passphrase"})
        assert r.status_code == 201, r.text
        out = a.post("/api/account/logout", headers={"X-CSRF-Token": r.json()["csrf_token"]})
        assert out.status_code == 200, out.text
        a.cookies.clear()

        # A game between B (a seat's token) and C (signed in: its session cookie, from
        # this site's page), played over wss through the proxy.
        signed = c.post("/api/account/signup", json={"name": "Cleo", "password": "passphrase"})
        assert signed.status_code == 201, signed.text
        csrf = {"X-CSRF-Token": signed.json()["csrf_token"]}
        game = create(b)
        assert game.status_code == 201, game.text
        gid, secret = game.json()["id"], game.json()["join_secret"]
        joined = c.post(f"/api/games/{gid}/join", json={"secret": secret}, headers=csrf)
        assert joined.status_code == 200, joined.text
        site = f"127.0.0.1:{proxy.https.rsplit(':', 1)[1]}"
        wss = f"wss://{site}/api/games/{gid}/ws"
        tls = {"ssl": trusting(proxy), "open_timeout": 20}
        token = ["sansu", f"token.{game.json()['token']}"]
        with socket_through(
            proxy, server, wss, subprotocols=token, source_address=(B, 0), **tls
        ) as ws:
            assert ws.response is not None
            socket_id = ws.response.headers["x-request-id"]
            ws.send(json.dumps({"type": "move", "move": "r5c5", "state": 0}))
            assert answer(ws)["type"] == "ack"
        reply = legal(c.get(f"/api/games/{gid}").json())[0]
        cookie = {"Cookie": f"sansu_session={c.cookies['sansu_session']}"}
        with socket_through(
            proxy,
            server,
            wss,
            subprotocols=["sansu"],
            origin=f"https://{site}",  # type: ignore[arg-type]
            additional_headers=cookie,
            source_address=(C, 0),
            **tls,
        ) as ws:
            ws.send(json.dumps({"type": "move", "move": reply, "state": 1}))
            acked = answer(ws)
            assert acked["type"] == "ack", acked
        moves = [m["move"] for m in c.get(f"/api/games/{gid}").json()["moves"]]
        assert moves == ["r5c5", reply]

        # Each address has its own share of the creations; A's own X-Forwarded-For is
        # overwritten by nginx, so it cannot borrow another address's share.
        assert [create(a).status_code for _ in range(CREATES)] == [201] * CREATES
        assert create(a).status_code == 429
        assert create(a, **{"X-Forwarded-For": SPOOFED}).status_code == 429
        assert create(b).status_code == 201

        # Everything answered over https: HSTS on each, Secure on each cookie.
        assert len(seen) == 13
        for response in seen:
            assert response.headers.get("strict-transport-security") == "max-age=31536000"
        cookies = [v for response in seen for v in response.headers.get_list("set-cookie")]
        assert len(cookies) >= 3  # the sessions', and one's removal
        assert all("secure" in [p.strip().lower() for p in v.split(";")] for v in cookies)

        # Plain http is sent to https, path and query kept, with no HSTS.
        plain = client_from(A, proxy.http, proxy)
        with plain:
            moved = plain.get("/play/uttt?tab=rules")
        assert moved.status_code == 301
        assert moved.headers["location"] == "https://127.0.0.1/play/uttt?tab=rules"
        assert "strict-transport-security" not in moved.headers

    # Straight to the server from A's address, not through the proxy: its own
    # X-Forwarded-For and X-Forwarded-Proto are not believed.
    with client_from(A, server.url, proxy) as direct:
        spoofed = {"X-Forwarded-For": SPOOFED, "X-Forwarded-Proto": "https"}
        refused = create(direct, **spoofed)
        assert refused.status_code == 429  # still counted as A
        expected[refused.headers["x-request-id"]] = A
        health = direct.get("/api/health", headers=spoofed)
        assert "strict-transport-security" not in health.headers
        expected[health.headers["x-request-id"]] = A

    server.stop()  # the log is complete
    records = [json.loads(line) for line in server.log.read_text().splitlines() if line.strip()]
    logged = {r["request_id"]: r["client"] for r in records if r["logger"] == "sansu.access"}
    assert {rid: logged.get(rid) for rid in expected} == expected
    assert SPOOFED not in server.log.read_text()
    accepted = [
        r for r in records if r.get("request_id") == socket_id and "WebSocket" in r["message"]
    ]
    assert accepted and all(B in r["message"] for r in accepted), accepted
