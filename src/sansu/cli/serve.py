"""``sansu serve``: run the game server (API, WebSockets and the web app) until stopped."""

from __future__ import annotations

import argparse
import gc
import logging
import re
import signal
import socket
import sys
from types import FrameType
from urllib.parse import urlsplit

try:
    from sansu.server.base.ratelimit import ACCOUNTS, CREATES, IMPORTS, REQUESTS, SOCKETS
except ImportError as error:  # a light install: the engines without the server
    MISSING: str | None = error.name or "the server's libraries"
else:
    MISSING = None


def register_missing(sub: argparse._SubParsersAction) -> None:
    """``sansu serve`` of an install without the server: it says what to install."""
    # Every argument is taken as it comes (no option prefix): the answer is the same.
    parser = sub.add_parser(
        "serve", help="run the game server (needs sansu[server])", prefix_chars="\x01"
    )
    parser.add_argument("rest", nargs="*")

    def explain(args: argparse.Namespace) -> int:
        print(
            f"sansu serve needs the server's libraries (missing: {MISSING}):"
            " pip install 'sansu[server]'",
            file=sys.stderr,
        )
        return 2

    parser.set_defaults(func=explain)


def register(sub: argparse._SubParsersAction) -> None:
    if MISSING is not None:
        register_missing(sub)
        return
    parser = sub.add_parser(
        "serve",
        help="run the game server",
        description="Run the game server (API, WebSockets and the web app) until stopped.",
        epilog="The default database is a SQLite file in $XDG_DATA_HOME/sansu"
        " (~/.local/share/sansu/sansu.db).",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default %(default)s)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port (default %(default)s)")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="database: a SQLite file path, sqlite:///FILE or postgresql://USER@HOST/DB",
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="run as one node of a cluster: redis://HOST:PORT shared by every node"
        " (the database must then be PostgreSQL)",
    )
    parser.add_argument(
        "--computer-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes for computer moves (default: one per core; 0: threads)",
    )
    parser.add_argument(
        "--computer-time-ms",
        type=int,
        default=None,
        metavar="MS",
        help="cap on the computer's thinking time per move",
    )
    parser.add_argument(
        "--no-warm-up",
        dest="warm_up",
        action="store_false",
        help="start without building or loading the computer players' compiled code: each"
        " piece is compiled when first used (a server that serves pages and no computer"
        " games at once, or a development check)",
    )
    parser.add_argument(
        "--rate-limit-requests",
        metavar="LIMITS",
        default=REQUESTS,
        help="API requests and socket messages per client address, e.g. '1200/minute;50/second'"
        " ('none': no limit; default %(default)s)",
    )
    parser.add_argument(
        "--rate-limit-creates",
        metavar="LIMITS",
        default=CREATES,
        help="games created, imported or joined per client address ('none': no limit;"
        " default %(default)s)",
    )
    parser.add_argument(
        "--rate-limit-accounts",
        metavar="LIMITS",
        default=ACCOUNTS,
        help="sign-ups and log-ins per client address ('none': no limit; default %(default)s)",
    )
    parser.add_argument(
        "--rate-limit-imports",
        metavar="LIMITS",
        default=IMPORTS,
        help="records imported per client address ('none': no limit; default %(default)s)",
    )
    parser.add_argument(
        "--rate-limit-sockets",
        metavar="N",
        default=str(SOCKETS),
        help="game sockets one client address may hold open at once ('none': no cap;"
        " default %(default)s)",
    )
    parser.add_argument(
        "--keep-idle",
        type=float,
        default=None,
        metavar="SECONDS",
        help="an unused game in play leaves memory after this long (default: 15 minutes)",
    )
    parser.add_argument(
        "--abandon-after",
        type=float,
        default=None,
        metavar="SECONDS",
        help="a game in play with no move and no player's page open this long is listed"
        " as abandoned, apart from the games to watch (default: 10 minutes)",
    )
    parser.add_argument(
        "--online-window",
        type=float,
        default=None,
        metavar="SECONDS",
        help="a signed-in player counts as online this long after their latest request or"
        " open page (default: a minute)",
    )
    parser.add_argument(
        "--claim-after",
        type=float,
        default=None,
        metavar="SECONDS",
        help="a player who left a game with their move must be gone this long before the"
        " opponent may claim it (default: a minute)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        metavar="IPS",
        default=None,
        help="the proxies to trust, e.g. '127.0.0.1,::1' or '*': from them X-Forwarded-For"
        " names the client and X-Forwarded-Proto the scheme (default: none; each client is"
        " known by the address it connects from)",
    )
    parser.add_argument(
        "--smtp",
        metavar="URL",
        default=None,
        help="send the account mails (address verification, password reset) through this"
        " server: smtp://USER:PASS@HOST:587?starttls=1&from=ADDRESS or smtps://… (default:"
        " no mail; the site offers no email features)",
    )
    parser.add_argument(
        "--public-url",
        metavar="URL",
        default=None,
        help="the site's address as its users reach it, e.g. https://sansu.example.org: the"
        " mailed links point there (default: http://HOST:PORT of this listener)",
    )
    parser.add_argument(
        "--hsts-max-age",
        type=int,
        default=None,
        metavar="SECONDS",
        help="Strict-Transport-Security max-age of answers over https (never sent over"
        " http; 0 makes browsers forget it; default: one year)",
    )
    parser.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics at /metrics on this port of --metrics-host, a listener"
        " apart from the public one (default: no metrics listener)",
    )
    parser.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="address of the metrics listener (default %(default)s)",
    )
    parser.add_argument(
        "--metrics-allow",
        metavar="NETWORKS",
        default=None,
        help="addresses that may read /metrics on the public port, e.g. '10.0.0.5,192.168.0.0/24'"
        " (default: nobody; /metrics there is 404)",
    )
    parser.add_argument(
        "--log-level", default="info", choices=("critical", "error", "warning", "info", "debug")
    )
    parser.add_argument(
        "--log-format",
        default="text",
        choices=("text", "json"),
        help="text, or json: one JSON object a line, each with its request's id"
        " (default %(default)s)",
    )
    parser.set_defaults(func=run)


def _exit_on_sigterm(signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def run(args: argparse.Namespace) -> int:
    import uvicorn
    from uvicorn.config import LOGGING_CONFIG

    from sansu.server import create_app, default_db_path
    from sansu.server.base import log_config
    from sansu.server.base.ratelimit import RateLimits

    if not 0 < args.port < 65536:
        print(f"sansu serve: bad port {args.port}", file=sys.stderr)
        return 2
    if args.abandon_after is not None and not args.abandon_after >= 0:
        print(f"sansu serve: bad --abandon-after {args.abandon_after}", file=sys.stderr)
        return 2
    if args.online_window is not None and not 0 <= args.online_window <= 86400:
        print(f"sansu serve: bad --online-window {args.online_window}", file=sys.stderr)
        return 2
    if args.claim_after is not None and not 0 <= args.claim_after <= 86400:
        print(f"sansu serve: bad --claim-after {args.claim_after}", file=sys.stderr)
        return 2
    db = args.db or str(default_db_path())
    if args.redis and not db.startswith(("postgresql://", "postgres://", "postgresql+")):
        print(
            "sansu serve: --redis needs --db postgresql://… (shared by every node)", file=sys.stderr
        )
        return 2
    if args.hsts_max_age is not None and args.hsts_max_age < 0:
        print(f"sansu serve: bad --hsts-max-age {args.hsts_max_age}", file=sys.stderr)
        return 2
    problem = _check_metrics(args)
    if problem:
        print(f"sansu serve: {problem}", file=sys.stderr)
        return 2
    public_url = _public_url(args)
    if public_url is None:
        print(f"sansu serve: bad --public-url {args.public_url!r}", file=sys.stderr)
        return 2
    sockets = args.rate_limit_sockets
    if sockets != "none" and not (sockets.isdigit() and int(sockets) > 0):
        print(f"sansu serve: bad --rate-limit-sockets {sockets!r}", file=sys.stderr)
        return 2
    try:
        limits = RateLimits(
            requests=None if args.rate_limit_requests == "none" else args.rate_limit_requests,
            creates=None if args.rate_limit_creates == "none" else args.rate_limit_creates,
            accounts=None if args.rate_limit_accounts == "none" else args.rate_limit_accounts,
            imports=None if args.rate_limit_imports == "none" else args.rate_limit_imports,
            sockets=None if sockets == "none" else int(sockets),
        )
        app = create_app(
            db,
            computer_workers=args.computer_workers,
            computer_time_ms=args.computer_time_ms,
            rate_limits=limits,
            redis_url=args.redis,
            metrics_port=args.metrics_port,
            metrics_allow=args.metrics_allow,
            forwarded_allow_ips=args.forwarded_allow_ips,
            smtp_url=args.smtp,
            public_url=public_url,
            warm_up=args.warm_up,
            **({} if args.keep_idle is None else {"keep_idle": args.keep_idle}),
            **({} if args.abandon_after is None else {"abandon_after": args.abandon_after}),
            **({} if args.online_window is None else {"online_window": args.online_window}),
            **({} if args.hsts_max_age is None else {"hsts_max_age": args.hsts_max_age}),
            **({} if args.claim_after is None else {"claim_after": args.claim_after}),
        )
    except Exception as error:  # a bad URL or an unreachable database
        print(f"sansu serve: {error}", file=sys.stderr)
        return 2
    shown = re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", db)  # never a database password
    serving = f"serving on http://{args.host}:{args.port}/ (database {shown}" + (
        ", cluster node)" if args.redis else ")"
    )
    if args.log_format == "text":
        print(f"sansu: {serving}", file=sys.stderr, flush=True)
    # The store's writer thread hands the GIL back and forth with the event loop a few
    # times per commit; a short switch interval keeps each handover from waiting 5 ms.
    sys.setswitchinterval(0.0002)
    # Fewer, larger garbage collections: a full pass over every live game's objects
    # otherwise stalls all games for tens of milliseconds several times a second.
    gc.set_threshold(50_000, 20, 20)
    # What was loaded to get here (modules, compiled code's tables, the app) lives as long as
    # the process: frozen out of the collector, a full collection walks the games' objects only.
    gc.collect()
    gc.freeze()
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        access_log=False,
        proxy_headers=False,  # the app reads them (create_app's forwarded_allow_ips)
        log_config=log_config(args.log_format, args.log_level) or LOGGING_CONFIG,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # compressing every move costs more CPU than it saves
        timeout_graceful_shutdown=5,
        lifespan="on",
    )

    if args.log_format != "text":  # every line of the log is JSON, this one too
        logging.getLogger("sansu.server").info("%s", serving)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: object) -> None:
            # Long-lived streams end at once (uvicorn waits for open responses
            # before the app's own shutdown would end them).
            app.state.streams.closing = True
            super().handle_exit(sig, frame)  # type: ignore[arg-type]

    server = Server(config)
    # uvicorn shuts down gracefully on SIGTERM, then raises it again under the handler it
    # found. With the default one the process died there, before Python's exit handlers:
    # multiprocessing's never unlinked the worker pool's semaphores, and the resource
    # tracker reported them leaked whenever the pool was not yet garbage. This handler
    # ends the process like Ctrl-C does, by a normal exit (status 143, 128 + SIGTERM).
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    if args.metrics_port is None:
        server.run()
    else:
        sockets = [config.bind_socket(), _listen(args.metrics_host, args.metrics_port)]
        server.run(sockets=sockets)
    return 0 if server.started else 1


def _public_url(args: argparse.Namespace) -> str | None:
    """The address the mailed links point to; ``None`` if ``--public-url`` is no http(s)
    URL with a host."""
    if args.public_url is None:
        host = f"[{args.host}]" if ":" in args.host else args.host
        return f"http://{host}:{args.port}"
    parts = urlsplit(args.public_url)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
        return None
    return args.public_url.rstrip("/")


def _check_metrics(args: argparse.Namespace) -> str | None:
    """What is wrong with the metrics options, if anything."""
    from sansu.server.base.metrics import allow_list

    port = args.metrics_port
    if port is not None and not (0 < port < 65536 and port != args.port):
        return f"bad --metrics-port {port} (a free port other than --port)"
    try:
        allow_list(args.metrics_allow)
    except ValueError as error:
        return f"bad --metrics-allow: {error}"
    return None


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket for the metrics listener."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        message = f"sansu serve: cannot listen for metrics on {host}:{port}: {error}"
        raise SystemExit(message) from None
    sock.set_inheritable(True)
    return sock
