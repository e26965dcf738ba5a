"""How busy the server is, for ``/api/health`` and for Prometheus (``/metrics``).

Each server has its own registry (``prometheus-client``), so that several apps in
one process (tests) never share a count. What changes at every move costs one
counter increment and one histogram observation (a few microseconds); what is
a size (open sockets, games in memory, the computer's queue) is read only when
Prometheus scrapes, by the callables given to :meth:`Metrics.watch`.

``/metrics`` is not public: :class:`MetricsEndpoint` serves it only on a
separate listener (``sansu serve --metrics-port``) and to the addresses of an
allow-list (``--metrics-allow``); anyone else gets 404. docs/operations.md lists
every metric and what it means.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator, MutableMapping, Sequence
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from sansu.server.base.errors import ApiError, send_error

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
Reading = Callable[[], float | dict[str, float]]

FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Buckets (seconds) for what should take milliseconds: a move's answer, a commit, the
loop's lag."""
SLOW = (0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
"""Buckets (seconds) for waits behind other searches in the computer's queue."""


def _ms(ordered: list[float], fraction: float) -> float:
    return 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


class _Readings(Collector):
    """Gauges read when scraped: each is a callable giving a number, or numbers by label."""

    def __init__(self) -> None:
        self.gauges: list[tuple[str, str, str | None, Reading]] = []

    def collect(self) -> Iterator[GaugeMetricFamily]:
        for name, doc, label, read in self.gauges:
            value = read()
            if isinstance(value, dict):
                family = GaugeMetricFamily(name, doc, labels=[label or "kind"])
                for key, number in sorted(value.items()):
                    family.add_metric([key], number)
            else:
                family = GaugeMetricFamily(name, doc, value=value)
            yield family


class Metrics:
    """One server's figures: recent loop lags and socket timings (``/api/health``), and
    the Prometheus registry (``/metrics``)."""

    def __init__(self) -> None:
        self.lags: deque[float] = deque(maxlen=2400)
        self.timings: deque[float] = deque(maxlen=20000)
        """Seconds from a socket request's arrival to its answer (recent ones)."""
        self.registry = CollectorRegistry()
        ProcessCollector(registry=self.registry)
        self._readings = _Readings()
        self.registry.register(self._readings)
        r = self.registry
        self.moves = Counter(
            "sansu_moves", "Moves acknowledged on game sockets (committed)", registry=r
        )
        self.move_latency = Histogram(
            "sansu_move_latency_seconds",
            "A socket move's arrival to its acknowledgement, sent after the commit",
            buckets=FAST,
            registry=r,
        )
        self.computer_wait = Histogram(
            "sansu_computer_queue_wait_seconds",
            "Time a computer search waited in the queue for a worker",
            ["kind"],
            buckets=SLOW,
            registry=r,
        )
        self.commit = Histogram(
            "sansu_db_commit_seconds",
            "One batch of writes, from its first statement to its durable commit",
            buckets=FAST,
            registry=r,
        )
        self.loop_lag = Histogram(
            "sansu_event_loop_lag_seconds",
            "How late the event loop wakes (every game waits that long)",
            buckets=FAST,
            registry=r,
        )
        self.login_failures = Counter(
            "sansu_login_failures",
            "Failed log-ins: wrong password or held back",
            ["reason"],
            registry=r,
        )
        self.refusals = Counter(
            "sansu_rate_limit_refusals",
            "Requests, messages and sockets refused over a limit",
            ["code"],
            registry=r,
        )

        # Every known series is there from the start, at 0 (a rate needs its first sample).
        for kind in ("move", "analysis"):
            self.computer_wait.labels(kind)
        for reason in ("bad_credentials", "too_many_attempts"):
            self.login_failures.labels(reason)
        for code in ("rate_limited", "too_many_imports", "too_many_sockets"):
            self.refusals.labels(code)

    def watch(self, name: str, doc: str, read: Reading, label: str | None = None) -> None:
        """Adds a gauge ``name`` read by ``read()`` at each scrape (a number, or numbers
        by the value of ``label``)."""
        self._readings.gauges.append((name, doc, label, read))

    def acknowledged(self, kind: object, seconds: float) -> None:
        """A socket message that changed a game was answered ``seconds`` after it came."""
        self.timings.append(seconds)
        if kind == "move":
            self.moves.inc()
            self.move_latency.observe(seconds)

    def waited(self, kind: str, seconds: float) -> None:
        """A computer search (``move`` or ``analysis``) waited ``seconds`` for a worker."""
        self.computer_wait.labels(kind).observe(seconds)

    def committed(self, seconds: float) -> None:
        self.commit.observe(seconds)

    def refused(self, code: str) -> None:
        self.refusals.labels(code).inc()

    def login_failed(self, reason: str) -> None:
        self.login_failures.labels(reason).inc()

    def exposition(self) -> bytes:
        """Every metric in Prometheus's text format."""
        return generate_latest(self.registry)

    async def watch_loop(self, every: float = 0.05) -> None:
        """Notes how late the event loop wakes up: every game waits that long."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(every)
            lag = max(0.0, loop.time() - before - every)
            self.lags.append(lag)
            self.loop_lag.observe(lag)

    def loop_lag_ms(self) -> dict[str, float] | None:
        if not self.lags:
            return None
        ordered = sorted(self.lags)
        return {"p99": round(_ms(ordered, 0.99), 1), "max": round(1000 * ordered[-1], 1)}

    def handling_ms(self) -> dict[str, float] | None:
        """Median and 99th percentile of :attr:`timings`, in milliseconds."""
        if not self.timings:
            return None
        ordered = sorted(self.timings)
        return {
            "count": len(ordered),
            "p50": round(_ms(ordered, 0.5), 2),
            "p99": round(_ms(ordered, 0.99), 2),
        }


def allow_list(spec: str | Sequence[str] | None) -> tuple[Any, ...]:
    """The networks of ``"127.0.0.1,10.0.0.0/8"`` (or a list of them); raises
    ``ValueError`` naming a bad one."""
    items = spec.split(",") if isinstance(spec, str) else list(spec or ())
    networks = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"bad address or network {item!r} (e.g. 10.0.0.0/8)") from None
    return tuple(networks)


def allowed(client: Any, networks: Iterable[Any]) -> bool:
    """Whether the ASGI ``client`` (host, port) has an address in ``networks``."""
    try:
        address = ipaddress.ip_address(client[0]) if client else None
    except ValueError:
        return False
    return address is not None and any(address in network for network in networks)


class MetricsEndpoint:
    """ASGI middleware: ``GET /metrics`` for the listener on ``port`` (which serves
    nothing else) and for clients of ``allow``; 404 for everyone else."""

    def __init__(
        self, app: ASGIApp, metrics: Metrics, *, port: int | None = None, allow: Any = ()
    ) -> None:
        self.app = app
        self.metrics = metrics
        self.port = port
        self.allow = allow_list(allow)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        server = scope.get("server")
        private = self.port is not None and bool(server) and server[1] == self.port
        asked = kind == "http" and scope.get("path") == "/metrics"
        if private or asked:
            if asked and (private or allowed(scope.get("client"), self.allow)):
                await self._answer(scope, send)
            elif kind == "websocket":
                await send({"type": "websocket.close", "code": 4404})
            else:
                await send_error(send, ApiError(404, "not_found", "Not Found"))
            return
        await self.app(scope, receive, send)

    async def _answer(self, scope: Scope, send: Any) -> None:
        if scope.get("method") not in ("GET", "HEAD"):
            await send_error(send, ApiError(405, "method_not_allowed", "Method Not Allowed"))
            return
        body = self.metrics.exposition()
        headers = [
            (b"content-type", CONTENT_TYPE_LATEST.encode()),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-store"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        empty = scope["method"] == "HEAD"
        await send({"type": "http.response.body", "body": b"" if empty else body})
