"""Processes the server benchmarks start and watch: a free port, a server's health,
stopping it, its CPU time, and the bare WebSocket echo that is their floor."""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    """Waits for the server's health check; exits with its log if it never comes."""
    end = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            if time.monotonic() > end or server.poll() is not None:
                raise SystemExit(log.read_text()) from None
            time.sleep(0.1)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stops a server the way Ctrl-C does, killing it if it hangs."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()


def print_problems(errors: list[str], tail: str) -> None:
    """The first errors the clients saw, and the server log's end if it has a traceback."""
    for error in errors[:5]:
        print(f"  error: {error}")
    if "Traceback" in tail:
        print("  server log:\n" + tail)


def cpu_seconds(pid: int, *, children: bool = True) -> float:
    """User + system CPU seconds of a process (``/proc``) and, with ``children``, of its
    children that were waited for."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(f) for f in fields[11 : 15 if children else 13]) / ticks


def children_cpu(pid: int) -> float:
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parts = stat.rsplit(")", 1)[1].split()
        if int(parts[1]) == pid:
            total += (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")
    return total


def echo_app() -> Any:
    """A bare Starlette app that answers every WebSocket text message the way the game
    server answers a move: the text back to its sender (the acknowledgement), then to
    every socket of its ``?room=`` (the event each seat is sent, the sender's too)."""
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms: dict[str, set[WebSocket]] = {}

    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        room = rooms.setdefault(ws.query_params.get("room", ""), set())
        room.add(ws)
        try:
            while True:
                text = await ws.receive_text()
                await ws.send_text(text)
                for seat in list(room):
                    with contextlib.suppress(Exception):  # one that is leaving
                        await seat.send_text(text)
        except WebSocketDisconnect:
            return
        finally:
            room.discard(ws)

    return Starlette(routes=[WebSocketRoute("/ws", echo)])


def serve_echo(port: int) -> None:
    """Runs the echo with the settings ``sansu serve`` gives uvicorn."""
    import uvicorn

    gc.set_threshold(50_000, 20, 20)
    uvicorn.run(
        echo_app(),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        lifespan="off",
    )


class CpuQuota:
    """A control group that holds the processes started in it to ``share`` of one core:
    a node of a cluster made a machine of a fixed size, so that a benchmark on one
    machine can show what more nodes carry. Linux control groups (v2, else v1's ``cpu``
    controller); needs the right to create one (root, here)."""

    PERIOD_US = 10_000
    """The scheduler's accounting period: a group past its quota waits for the next one,
    so a short period keeps those waits short (at 100 ms, a node held to a quarter of a
    core stalled up to 75 ms at a time, and its p99 showed it)."""

    def __init__(self, name: str, share: float) -> None:
        if not 0 < share <= 64:
            raise ValueError(f"a CPU share must be above 0, not {share}")
        quota = max(1_000, round(share * self.PERIOD_US))
        v2 = Path("/sys/fs/cgroup")
        v1 = Path("/sys/fs/cgroup/cpu")
        controllers = v2 / "cgroup.controllers"
        try:
            if controllers.exists() and "cpu" in controllers.read_text().split():
                with contextlib.suppress(OSError):  # already on, or managed by a parent
                    (v2 / "cgroup.subtree_control").write_text("+cpu")
                self.path = v2 / name
                self.path.mkdir(exist_ok=True)
                (self.path / "cpu.max").write_text(f"{quota} {self.PERIOD_US}")
            elif (v1 / "cpu.cfs_quota_us").exists():
                self.path = v1 / name
                self.path.mkdir(exist_ok=True)
                (self.path / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
                (self.path / "cpu.cfs_quota_us").write_text(str(quota))
            else:
                raise SystemExit("no CPU controller of Linux control groups is mounted here")
        except PermissionError:
            raise SystemExit("a CPU quota needs the right to create a control group") from None

    def wrap(self, command: list[str]) -> list[str]:
        """``command`` run inside the group, its children too (it joins, then execs, so
        the process keeps its pid)."""
        procs = str(self.path / "cgroup.procs")
        return ["sh", "-c", 'echo $$ > "$0" && exec "$@"', procs, *command]

    def remove(self) -> None:
        """Removes the group once its processes have ended (those left after 10 s killed)."""
        procs = self.path / "cgroup.procs"
        end, killed = time.monotonic() + 10, False
        while procs.exists() and procs.read_text().split() and time.monotonic() < end:
            time.sleep(0.1)
            if time.monotonic() >= end and not killed:
                for pid in procs.read_text().split():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(int(pid), signal.SIGKILL)
                end, killed = time.monotonic() + 5, True
        try:
            self.path.rmdir()
        except OSError as e:
            print(f"  the control group {self.path} stays: {e}")
