"""How busy the server is: how late its event loop wakes, how long socket requests take."""

from __future__ import annotations

import asyncio
from collections import deque


def _ms(ordered: list[float], fraction: float) -> float:
    return 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


class Metrics:
    """Recent loop lags and request timings, for ``/api/health``."""

    def __init__(self) -> None:
        self.lags: deque[float] = deque(maxlen=2400)
        self.timings: deque[float] = deque(maxlen=20000)
        """Seconds from a socket request's arrival to its answer (recent ones)."""

    async def watch_loop(self, every: float = 0.05) -> None:
        """Notes how late the event loop wakes up: every game waits that long."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(every)
            self.lags.append(loop.time() - before - every)

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
