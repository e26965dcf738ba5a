"""A first start: the server answers before the computer players' compiled code is built,
the page says how far the build is, and the computer replies within its time meanwhile.

The server runs with numba's cache in an empty directory (``NUMBA_CACHE_DIR``), as on a
fresh install. The bounds here are generous, for a busy machine; the figures themselves
are measured by ``benchmarks/first_start_bench.py`` (docs/operations.md, "First start").
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.accessibility import violations
from tests.web.conftest import serving
from tests.web.helpers import api_get, api_post, open_page

TIME_MS = 100
"""The computer's thinking time per move on the test server (``serving``'s cap)."""
BOUND = 30.0
"""Seconds: far more than a reply's budget + 1 s, far less than a build (minutes)."""


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, float]]:
    """A server started with nothing compiled, and the seconds its first page took."""
    root = tmp_path_factory.mktemp("first-start")
    sansu = shutil.which("sansu", path=str(Path(sys.executable).parent)) or "sansu"
    with contextlib.ExitStack() as stack:
        with pytest.MonkeyPatch.context() as patch:  # for this server alone
            patch.setenv("NUMBA_CACHE_DIR", str(root / "numba-cache"))
            patch.delenv("SANSU_KERNEL_STAMP", raising=False)
            start = time.monotonic()
            url = stack.enter_context(serving(sansu, root / "games.db"))
            first_page = time.monotonic() - start
        yield url, first_page


def building(url: str) -> dict[str, Any]:
    status: dict[str, Any] = api_get(url, "/api/health")["warmup"]
    return status


def test_the_first_page_comes_before_the_compiled_code(fresh: tuple[str, float]) -> None:
    url, first_page = fresh
    status = building(url)
    print(f"first page after {first_page:.1f} s; build: {status}")
    assert not status["ready"] and status["done"] < status["total"] == 5
    assert first_page < 120  # a build takes minutes on this machine


def test_the_computer_replies_in_time_while_its_code_builds(fresh: tuple[str, float]) -> None:
    url, _ = fresh
    created = api_post(
        url,
        "/api/games",
        {"game": "uttt", "seats": [{"kind": "computer", "level": "max"}, {"kind": "human"}]},
    )
    gid, token = created["id"], created["token"]
    start = time.monotonic()
    while api_get(url, f"/api/games/{gid}", token)["view"]["to_move"] != 1:
        assert time.monotonic() - start < BOUND, "the computer did not reply"
        time.sleep(0.05)
    reply = time.monotonic() - start
    print(f"first computer reply after {reply:.2f} s (budget {TIME_MS} ms)")
    assert reply < BOUND
    assert not building(url)["ready"]  # it did not wait for the build


@pytest.mark.parametrize("width", [1280, 390])
def test_the_page_says_the_computer_players_are_being_prepared(
    browser: Any, fresh: tuple[str, float], screenshots: Path, width: int
) -> None:
    url, _ = fresh
    if building(url)["ready"]:
        pytest.skip("the build ended before the page was opened")
    context = browser.new_context(viewport={"width": width, "height": 800})
    try:
        page = context.new_page()
        open_page(page, url, "#/")
        page.wait_for_selector("html[data-warmup=building]")
        banner = page.locator("#warmup-banner")
        banner.wait_for(state="visible", timeout=60_000)
        text = banner.inner_text()
        assert text.startswith("Preparing the computer players:") and "of 5" in text
        assert banner.get_attribute("role") == "status"  # read out as it changes
        box = banner.bounding_box()
        assert box is not None and box["width"] <= width
        assert violations(page) == []
        page.screenshot(path=str(screenshots / f"first-start-{width}.png"))
    finally:
        context.close()


def test_no_banner_once_the_build_is_done(page: Any, server_url: str) -> None:
    deadline = time.monotonic() + 600
    while not building(server_url)["ready"]:  # the shared server's code is cached: seconds
        assert time.monotonic() < deadline
        time.sleep(0.2)
    open_page(page, server_url, "#/")
    page.wait_for_selector("html[data-warmup=ready]")  # the page asked, and was told
    assert page.locator("#warmup-banner").count() == 0
