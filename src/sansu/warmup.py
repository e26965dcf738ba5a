"""Compiling the computer players' code once, in the background, on every core.

The compiled kernels (numba, cached on disk) take minutes to build on a fresh
install. Nobody waits for them: the server answers at once while
:class:`Warmup` builds them one game at a time (a *unit*) in processes of its
own, the longest first so that both cores finish together, and tells how far
it is (``/api/health``'s ``warmup``). Each unit, once built, leaves a mark in
a directory; a computer worker's :class:`Loader` loads the unit from numba's
cache when it sees the mark, and until then that game's computer plays by the
generic search (:func:`ready`), whose rules are the engine's own.

A fingerprint of the kernels' sources and of the compiler's version
(:func:`fingerprint`) is written to a stamp once everything is built, so that
``scripts/setup-env`` builds again only when a kernel changed.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any

log = logging.getLogger("sansu.warmup")

UNITS = ("challenge", "sumodoku", "uttt", "sansumoku", "thirtyfive")
"""Every game's computer code, in the order built (measured: see docs/operations.md):
Sudoku Challenge's first, the longest (its puzzle generator and rater, which creating a
game needs), then Sumodoku's, short, whose rules need the Sudoku solver, then the
others, which play by the generic search until theirs is built."""

KERNEL_SOURCES = ("ai", "sudoku", "envs/vector")
"""The parts of the package holding numba kernels or code they call (paths under ``sansu``)."""

_ready: set[str] = set()
"""The units loaded in this process (see :func:`ready`)."""
_watching = False
"""Whether a :class:`Loader` runs in this process: else nothing is being built, and a
player compiles what it needs on first use, as it always could."""


def _package() -> Path:
    import sansu

    return Path(sansu.__file__).parent


def fingerprint(root: Path | None = None) -> str:
    """A hash of every kernel source (under ``root``, the package's directory) and of the
    Python, numba, llvmlite and numpy versions: a fresh build's code is the same exactly
    when this is."""
    from importlib.metadata import version

    root = root or _package()
    digest = hashlib.sha256()
    files = sorted(p for part in KERNEL_SOURCES for p in (root / part).rglob("*.py"))
    for path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    versions = [sys.version, *(version(p) for p in ("numba", "llvmlite", "numpy"))]
    digest.update("\0".join(versions).encode())
    return digest.hexdigest()


def stale_caches(root: Path | None = None) -> list[Path]:
    """numba's cache files beside the kernel sources (to delete before a new build: numba
    checks only the file of the function it caches, not those of the functions it calls)."""
    root = root or _package()
    return sorted(
        p
        for part in KERNEL_SOURCES
        for p in (root / part).rglob("__pycache__/*")
        if p.suffix in (".nbi", ".nbc")
    )


def build(game: str) -> float:
    """Loads, or compiles when not cached, the computer code of ``game`` at every level;
    the seconds it took. Safe to run in several processes at once (numba writes its cache
    files whole)."""
    from sansu.ai import LEVELS, get_player

    start = time.perf_counter()
    for level in LEVELS:
        get_player(game, level, seed=0).warm_up()
    return time.perf_counter() - start


def ready(game: str) -> bool:
    """Whether ``game``'s computer may use its compiled code in this process without waiting
    for a build (else it plays by the generic search): loaded here, or nothing is building."""
    return not _watching or game in _ready


def mark_ready(game: str) -> None:
    """Counts ``game`` as loaded here (a process that built or loaded it itself)."""
    _ready.add(game)


class Warmup:
    """Builds every unit in ``processes`` processes of its own, in the background.

    ``marks``: the directory where a built unit leaves a file of its name.
    ``stamp``: where to write :func:`fingerprint` once every unit is built
    (``None``: nowhere). :meth:`status` tells the progress at any time.
    """

    def __init__(
        self,
        marks: Path,
        *,
        processes: int = 2,
        stamp: Path | None = None,
        units: tuple[str, ...] = UNITS,
    ) -> None:
        self.marks = marks
        self.processes = max(1, processes)
        self.stamp = stamp
        self.units = units
        self.done: dict[str, float] = {}
        """Seconds each built unit took, in the order they finished."""
        self.failed: list[str] = []
        self.started = 0.0
        self.finished: float | None = None
        self._pool: ProcessPoolExecutor | None = None
        self._all = threading.Event()
        self._lock = threading.Lock()
        self._closing = False
        self.futures: list[Future[float]] = []
        """Each unit's build, in :attr:`units`' order."""

    def start(self) -> None:
        """Starts the build and returns at once."""
        self.marks.mkdir(parents=True, exist_ok=True)
        self.started = time.monotonic()
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(
            max_workers=self.processes,
            mp_context=context,
            initializer=follow_parent,
            initargs=(os.getpid(),),
        )
        version = fingerprint() if self.stamp is not None else None
        if self.stamp is not None and _stamped(self.stamp) != version:
            self.stamp.write_text(f"{version} {PARTIAL}\n")  # the cache is of this code
        for unit in self.units:
            future = self._pool.submit(build, unit)
            self.futures.append(future)
            future.add_done_callback(lambda f, u=unit: self._finished(u, f, version))

    def _finished(self, unit: str, future: Future[float], version: str | None) -> None:
        with self._lock:
            try:
                self.done[unit] = future.result()
                (self.marks / unit).touch()
                log.info(
                    "computer players: %d of %d built (%s, %.0f s)",
                    len(self.done), len(self.units), unit, self.done[unit],
                )  # fmt: skip
            except Exception:
                if self._closing:  # the server stops: the unit was abandoned, not broken
                    return
                log.exception("cannot build the computer code of %s", unit)
                self.failed.append(unit)
            if len(self.done) + len(self.failed) < len(self.units):
                return
            self.finished = time.monotonic()
        threading.Thread(target=self.close, daemon=True).start()  # its processes are idle now
        log.info("the computer players are ready (%.0f s)", self.finished - self.started)
        if version is not None and not self.failed and self.stamp is not None:
            self.stamp.write_text(version + "\n")
        self._all.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Waits until every unit is built (or failed); whether they are."""
        return self._all.wait(timeout)

    def status(self) -> dict[str, Any]:
        """``{"ready", "done", "total", "games", "seconds"}``: what is built so far."""
        with self._lock:
            end = self.finished if self.finished is not None else time.monotonic()
            return {
                "ready": self.finished is not None,
                "done": len(self.done),
                "total": len(self.units),
                "games": list(self.done),
                "seconds": round(end - self.started, 1) if self.started else 0.0,
            }

    def close(self) -> None:
        """Stops the build (a unit under way is abandoned; its cache files stay whole)."""
        with self._lock:
            self._closing = self.finished is None
        pool, self._pool = self._pool, None
        if pool is not None:
            stop_pool(pool)


def follow_parent(parent: int) -> None:
    """Runs first in a child process (a build's, a computer worker): it ends with its
    parent, even one killed outright. Ctrl-C in a terminal reaches the whole process group;
    the parent stops its children itself, so a child ignores it (no traceback each)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def stop_pool(pool: Executor) -> None:
    """Ends a process pool now, its work under way included, and leaves no process behind."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=5)
    pool.shutdown(wait=True)


GENERIC = ("uttt", "sansumoku", "thirtyfive")
"""The games whose rules need no compiled code, so that their generic search can play
while it is built (Sumodoku's and Sudoku Challenge's rules use the Sudoku solver)."""


def prepare_generic() -> None:
    """Imports and runs once the generic search of :data:`GENERIC`, so that a worker's
    first move pays for no import (seconds, on a busy machine)."""
    import sansu
    from sansu.ai import get_player

    for game in GENERIC:
        player = get_player(game, "beginner", seed=0)
        player.generic = True
        player.choose(sansu.load_game(game).initial_state(), simulations=2)


class Loader:
    """Loads each unit in this process as soon as :class:`Warmup` has built it.

    Runs in a thread of a computer worker: a unit's mark appears in ``marks``,
    the thread loads it from numba's cache and :func:`ready` then says so."""

    def __init__(self, marks: Path, units: tuple[str, ...] = UNITS, every: float = 0.25) -> None:
        self.marks = marks
        self.units = units
        self.every = every

    def start(self) -> threading.Thread:
        global _watching
        _watching = True
        thread = threading.Thread(target=self.run, name="sansu-loader", daemon=True)
        thread.start()
        return thread

    def run(self) -> None:
        prepare_generic()
        left = [u for u in self.units if u not in _ready]
        while left:
            for unit in [u for u in left if (self.marks / u).exists()]:
                try:
                    build(unit)
                except Exception:  # it plays by the generic search then
                    log.exception("cannot load the computer code of %s", unit)
                else:
                    mark_ready(unit)
                left.remove(unit)
            time.sleep(self.every)


PARTIAL = "partial"
"""Follows the fingerprint in a stamp while a build of that code is under way (or was cut
short): what is in the cache is of the current code, and a build goes on from it."""


def _stamped(stamp: Path) -> str | None:
    try:
        return stamp.read_text().strip()
    except OSError:
        return None


def built(stamp: Path | None = None) -> bool:
    """Whether every unit of today's code is in numba's cache, as the stamp of a finished
    build says (``stamp``, else ``SANSU_KERNEL_STAMP``, else the environment's
    ``.compiled``, where ``scripts/setup-env`` keeps it; never for a cache moved elsewhere
    by ``NUMBA_CACHE_DIR``): then a server loads the code in its workers at once instead
    of building it in the background."""
    if stamp is None:
        if os.environ.get("NUMBA_CACHE_DIR"):  # a cache elsewhere: the stamp is not of it
            return False
        named = os.environ.get("SANSU_KERNEL_STAMP")
        stamp = Path(named) if named else Path(sys.prefix) / ".compiled"
    return _stamped(stamp) == fingerprint()


def ensure(stamp: Path, *, now: bool = True, root: Path | None = None) -> bool:
    """Makes the compiled code current: unless ``stamp`` holds today's :func:`fingerprint`,
    deletes the old cache and the stamp (not when the stamp says a build of today's code is
    under way or was cut short: that build goes on), then (``now``) builds everything on
    every core and writes the stamp (else a server's :class:`Warmup` will). Whether the code
    was stale: with a current stamp nothing is built, deleted or written."""
    current = fingerprint(root)
    found = _stamped(stamp)
    if found == current:
        return False
    if found != f"{current} {PARTIAL}":
        for path in stale_caches(root):
            path.unlink(missing_ok=True)
        stamp.unlink(missing_ok=True)
    if now:
        print("setup-env: building the computer players' compiled code (once)...", file=sys.stderr)
        if build_all(stamp) != 0:
            raise RuntimeError("some computer players' code did not build (see above)")
    return True


def build_all(stamp: Path | None = None, processes: int | None = None) -> int:
    """Builds every unit, ``processes`` at once (default: one per core), telling the
    progress on stderr; 0 if all built (then :func:`fingerprint` goes to ``stamp``)."""
    import tempfile

    processes = processes or len(os.sched_getaffinity(0))
    with tempfile.TemporaryDirectory() as marks:
        warmup = Warmup(Path(marks), processes=processes, stamp=stamp)
        warmup.start()
        shown = -1
        while True:
            finished = warmup.wait(1.0)
            s = warmup.status()
            if s["done"] != shown:
                shown = s["done"]
                print(f"  {shown} of {s['total']} games ({s['seconds']:.0f} s)", file=sys.stderr)
            if finished:
                break
        warmup.close()
        return 1 if warmup.failed else 0


def main(argv: list[str] | None = None) -> int:
    """``python -m sansu.warmup fingerprint | build | ensure [--stamp FILE] [--later]``:
    print the fingerprint; build everything with progress on stderr; or build only when
    the stamp is not current (:func:`ensure`)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m sansu.warmup", description=main.__doc__)
    parser.add_argument("action", choices=("fingerprint", "build", "ensure"))
    parser.add_argument("--stamp", type=Path, help="the fingerprint of the code built")
    parser.add_argument(
        "--later", action="store_true", help="ensure: leave the build to the server"
    )
    args = parser.parse_args(argv)
    if args.action == "fingerprint":
        print(fingerprint())
        return 0
    if args.action == "build":
        return build_all(args.stamp)
    if args.stamp is None:
        parser.error("ensure needs --stamp")
    ensure(args.stamp, now=not args.later)
    return 0


if __name__ == "__main__":
    sys.exit(main())
