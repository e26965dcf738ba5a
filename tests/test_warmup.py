"""The compiled code's build: built again only when a kernel changed (the stamp), in the
background with its progress told, and the computer's generic search while it builds."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import sansu
from sansu import warmup
from sansu.ai import get_player

NAMES = st.sampled_from(["ai/a.py", "ai/kernels/b.py", "sudoku/c.py", "envs/vector/d.py"])
TREES = st.dictionaries(NAMES, st.binary(max_size=40), min_size=1)


def write(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


@given(TREES, NAMES, st.binary(max_size=40))
def test_the_fingerprint_changes_exactly_when_a_kernel_source_does(
    tmp_path_factory: pytest.TempPathFactory, files: dict[str, bytes], name: str, data: bytes
) -> None:
    one = write(tmp_path_factory.mktemp("one"), files)
    two = write(tmp_path_factory.mktemp("two"), files)
    assert warmup.fingerprint(one) == warmup.fingerprint(two)  # the place does not count
    changed = files.get(name) != data
    write(two, {name: data})
    assert (warmup.fingerprint(one) != warmup.fingerprint(two)) == changed


def test_the_fingerprint_ignores_what_is_not_a_kernel_source(tmp_path: Path) -> None:
    root = write(tmp_path, {"ai/a.py": b"x = 1\n"})
    before = warmup.fingerprint(root)
    write(root, {"ai/notes.txt": b"n", "games/rules.py": b"y = 2\n", "ai/__pycache__/a.nbi": b""})
    (root / "ai/a.py").touch()  # a newer file time alone is no change
    assert warmup.fingerprint(root) == before


def kernel_tree(tmp_path: Path) -> tuple[Path, Path, Path]:
    cache = "ai/__pycache__/k.f-1.py311.nbi"
    pyc = "ai/__pycache__/k.pyc"
    root = write(tmp_path / "pkg", {"ai/k.py": b"x = 1\n", cache: b"i", pyc: b""})
    return root, root / cache, tmp_path / "compiled"


def no_build(stamp: Path | None = None, processes: int | None = None) -> int:
    raise AssertionError("nothing may be built")


def test_with_a_current_stamp_nothing_is_built_deleted_or_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, cache, stamp = kernel_tree(tmp_path)
    stamp.write_text(warmup.fingerprint(root) + "\n")
    before = stamp.stat().st_mtime_ns
    monkeypatch.setattr(warmup, "build_all", no_build)
    assert warmup.ensure(stamp, root=root) is False
    assert cache.exists() and stamp.stat().st_mtime_ns == before


def test_a_changed_kernel_clears_the_old_cache_and_builds_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, cache, stamp = kernel_tree(tmp_path)
    stamp.write_text(warmup.fingerprint(root) + "\n")
    write(root, {"ai/k.py": b"x = 2\n"})
    builds: list[Path | None] = []

    def build_all(stamp: Path | None = None, processes: int | None = None) -> int:
        builds.append(stamp)
        assert stamp is not None and not cache.exists()  # the old code goes first
        stamp.write_text(warmup.fingerprint(root) + "\n")
        return 0

    monkeypatch.setattr(warmup, "build_all", build_all)
    assert warmup.ensure(stamp, root=root) is True
    assert builds == [stamp] and (root / "ai/__pycache__/k.pyc").exists()
    # The next run (scripts/test after scripts/start) builds nothing.
    monkeypatch.setattr(warmup, "build_all", no_build)
    assert warmup.ensure(stamp, root=root) is False


def test_left_to_the_server_the_stale_code_goes_and_no_stamp_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, cache, stamp = kernel_tree(tmp_path)
    stamp.write_text("an older build\n")
    monkeypatch.setattr(warmup, "build_all", no_build)
    assert warmup.ensure(stamp, now=False, root=root) is True
    assert not cache.exists() and not stamp.exists()


def test_a_build_of_todays_code_cut_short_goes_on_from_its_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, cache, stamp = kernel_tree(tmp_path)
    stamp.write_text(f"{warmup.fingerprint(root)} {warmup.PARTIAL}\n")
    monkeypatch.setattr(warmup, "build_all", no_build)
    assert warmup.ensure(stamp, now=False, root=root) is True
    assert cache.exists() and stamp.exists()  # nothing of today's code is thrown away
    write(root, {"ai/k.py": b"x = 3\n"})  # but a partial build of older code is stale
    assert warmup.ensure(stamp, now=False, root=root) is True
    assert not cache.exists() and not stamp.exists()


def test_the_command_prints_the_fingerprint_of_the_installed_kernels() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "sansu.warmup", "fingerprint"],
        capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    assert out.stdout.strip() == warmup.fingerprint(Path(sansu.__file__).parent)


def test_a_build_tells_its_progress_marks_each_game_and_stamps_once_all_built(
    tmp_path: Path,
) -> None:
    stamp = tmp_path / "compiled"
    build = warmup.Warmup(tmp_path / "marks", processes=1, stamp=stamp, units=("sumodoku",))
    try:
        build.start()
        assert build.status()["total"] == 1
        assert stamp.read_text().split()[1:] == [warmup.PARTIAL] or build.wait(0)
        assert build.wait(600)
    finally:
        build.close()
    status = build.status()
    assert status["ready"] and status["done"] == 1 and status["games"] == ["sumodoku"]
    assert (tmp_path / "marks" / "sumodoku").exists()
    assert stamp.read_text().strip() == warmup.fingerprint()


def test_a_unit_that_fails_is_told_and_the_stamp_says_partial(tmp_path: Path) -> None:
    stamp = tmp_path / "compiled"
    build = warmup.Warmup(tmp_path / "marks", processes=1, stamp=stamp, units=("no-such-game",))
    try:
        build.start()
        assert build.wait(600)
    finally:
        build.close()
    assert build.status()["done"] == 0 and build.failed == ["no-such-game"]
    assert stamp.read_text().split() == [warmup.fingerprint(), warmup.PARTIAL]  # not done
    assert not (tmp_path / "marks" / "no-such-game").exists()


def test_a_finished_build_s_stamp_says_the_code_is_built_and_nothing_else_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    stamp = tmp_path / "compiled"
    assert not warmup.built(stamp)  # no stamp: never built
    stamp.write_text(f"{warmup.fingerprint()} {warmup.PARTIAL}\n")
    assert not warmup.built(stamp)  # a build cut short
    stamp.write_text("0" * 64 + "\n")
    assert not warmup.built(stamp)  # another code's
    stamp.write_text(warmup.fingerprint() + "\n")
    assert warmup.built(stamp)
    monkeypatch.setenv("SANSU_KERNEL_STAMP", str(stamp))
    assert warmup.built()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert not warmup.built()  # the stamp is not of a cache moved elsewhere


def test_a_worker_loads_a_game_once_its_mark_appears(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(warmup, "_ready", set())
    monkeypatch.setattr(warmup, "_watching", False)
    assert warmup.ready("sumodoku")  # nothing builds: compile on first use, as ever
    thread = warmup.Loader(tmp_path, units=("sumodoku",), every=0.01).start()
    assert not warmup.ready("sumodoku")
    (tmp_path / "sumodoku").touch()
    thread.join(600)
    assert not thread.is_alive() and warmup.ready("sumodoku")


GENERIC = """
import sys, time
import sansu
from sansu import warmup
from sansu.server.play.computer import ComputerRequest, choose_move
warmup._watching = True  # a build under way: nothing is loaded in this worker yet
for game in {games!r}:
    start = time.perf_counter()
    move = choose_move(ComputerRequest(game, {{}}, (), "hard", seed=3, time_ms=300))
    state = sansu.load_game(game).initial_state()
    assert move in [str(m) for m in state.legal_moves()], (game, move)
    print(game, round(time.perf_counter() - start, 3))
print(sorted(m for m in sys.modules if m.startswith("sansu.ai.kernels.")))
"""


def test_while_the_code_builds_a_computer_plays_legal_moves_without_compiled_code() -> None:
    games = warmup.GENERIC  # Sumodoku's and Sudoku Challenge's rules use the Sudoku solver
    script = GENERIC.format(games=games)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=300
    ).stdout.split("\n")
    assert out[len(games)] == "[]"  # no game kernel was loaded, nor compiled
    for line, game in zip(out, games, strict=False):
        name, seconds = line.split()
        assert name == game and float(seconds) < 0.3 + 5  # its budget, with room for a busy machine


def test_a_generic_player_keeps_the_rules_and_its_time() -> None:
    player = get_player("uttt", "max", seed=1)
    player.generic = True
    state = sansu.load_game("uttt").initial_state()
    for _ in range(6):
        start = time.perf_counter()
        analysis = player.choose(state, time_ms=100)
        assert time.perf_counter() - start < 0.1 + 2.0
        assert analysis.move in state.legal_moves() and analysis.simulations > 0
        state = state.play(analysis.move)
