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
