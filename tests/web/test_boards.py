"""Every board drawn from real positions: what each cell says, the marks the
rule texts describe, and a screenshot of each board in both themes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web import positions as P


def open_gallery(
    page: Any, static_url: str, items: list[dict[str, Any]], theme: str = "light"
) -> None:
    page.goto(f"{static_url}/#/gallery")
    page.evaluate(f"localStorage.setItem('sansu.theme', '{theme}')")
    page.reload()
    page.wait_for_selector("html[data-ready]")
    page.evaluate("items => window.sansu.showGallery(items)", items)
    page.wait_for_selector(f"[data-gallery-item='{len(items) - 1}'] .cell")


def cells(page: Any, item: int) -> list[dict[str, Any]]:
    return page.eval_on_selector_all(
        f"[data-gallery-item='{item}'] [data-cell]",
        """els => els.map(e => ({cell: e.dataset.cell, label: e.getAttribute('aria-label'),
            text: e.textContent.trim(), classes: [...e.classList], tag: e.tagName,
            tabindex: e.tabIndex}))""",
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_board_is_drawn_and_photographed(
    page: Any, static_url: str, screenshots: Any, theme: str
) -> None:
    gallery = P.gallery()
    open_gallery(page, static_url, [{"title": n, "view": v} for n, v in gallery], theme)
    for k, (name, view) in enumerate(gallery):
        found = cells(page, k)
        assert len(found) == len(view["cells"]), name
        names = {c["cell"] for c in found}
        assert len(names) == len(found)
        for c in found:
            # INTERFACE.md: every cell focusable, with a label saying what it holds.
            assert c["tag"] == "BUTTON" and c["label"].startswith(c["cell"]), (name, c)
        page.locator(f"[data-gallery-item='{k}']").screenshot(
            path=str(screenshots / f"board-{name}-{theme}.png"), animations="disabled"
        )


def open_cells(page: Any, item: int) -> dict[str, str]:
    return {c["cell"]: c["text"] for c in cells(page, item) if "is-open" in c["classes"]}


def test_sansumoku_opening_shows_the_open_cells_of_the_rule_text(
    page: Any, static_url: str
) -> None:
    moves = P.SANSUMOKU_OPENING.split()
    items = [{"view": P.view("sansumoku", " ".join(moves[:n]))} for n in range(4)]
    open_gallery(page, static_url, items)
    # Before the first move every cell is open, and none repeats the 1 the status names.
    start = open_cells(page, 0)
    assert len(start) == 81 and set(start.values()) == {""}
    # After Blue r4c4: Orange must play a 1 anywhere in the top-left section.
    after1 = open_cells(page, 1)
    assert after1 == {f"r{r}c{c}": "1" for r in (1, 2, 3) for c in (1, 2, 3)}
    # After Orange r1c2: only four cells of the top-centre section are open.
    after2 = open_cells(page, 2)
    assert after2 == {"r2c5": "1", "r2c6": "1", "r3c5": "1", "r3c6": "1"}
    # After Blue r2c5: Orange must play 2 in the centre section, in any of its empty cells.
    after3 = open_cells(page, 3)
    assert after3 == {f"r{r}c{c}": "2" for r in (4, 5, 6) for c in (4, 5, 6) if (r, c) != (4, 4)}
    hint = page.eval_on_selector(
        "[data-gallery-item='3'] [data-cell='r5c5']", "e => e.dataset.hint"
    )
    assert hint == "1"  # drawn in Orange's light colour
    last = page.eval_on_selector(
        "[data-gallery-item='3'] [data-cell='r2c5']",
        "e => [...e.classList].concat(e.dataset.player)",
    )
    assert "is-last" in last and "0" in last  # the last move, in Blue


def test_sansumoku_marks_constraint_wins_and_the_winning_stripe(page: Any, static_url: str) -> None:
    won = P.view("sansumoku", P.SANSUMOKU_WON)
    open_gallery(page, static_url, [{"view": won}])
    rings = page.locator("[data-gallery-item='0'] .constraint-ring").count()
    assert rings == sum(1 for s in won["sections"] if s["by_constraint"]) >= 1
    assert page.locator("[data-gallery-item='0'] .win-stripe").count() == 1
    assert won["winning_line"] is not None


def test_uttt_marks_won_sections_and_the_line(page: Any, static_url: str) -> None:
    mid, won = P.view("uttt", P.UTTT_MID), P.view("uttt", P.UTTT_WON)
    open_gallery(page, static_url, [{"view": mid}, {"view": won}])
    owned = sum(1 for s in mid["sections"] if s["owner"] is not None)
    assert page.locator("[data-gallery-item='0'] .big-mark").count() == owned
    assert page.locator("[data-gallery-item='0'] .allowed").count() == len(mid["allowed_sections"])
    assert page.locator("[data-gallery-item='1'] .win-line").count() == 1
    assert page.locator("[data-gallery-item='0'] .win-line").count() == 0


def test_thirtyfive_shows_sums_conversions_and_thwarts(page: Any, static_url: str) -> None:
    view = P.thirtyfive_conversion()
    open_gallery(page, static_url, [{"view": view}])
    found = {c["cell"]: c for c in cells(page, 0)}
    converted = {n for n, c in found.items() if "was-converted" in c["classes"]}
    assert converted == set(view["converted"])
    highlighted = {
        f"r{i // 8 + 1}c{i % 8 + 1}": h for i, h in enumerate(view["highlights"]) if h is not None
    }
    assert highlighted
    for name, colour in highlighted.items():
        assert f"hl-{colour}" in found[name]["classes"] and "highlighted" in found[name]["label"]
    for name in view["over"]:
        assert "past 35" in found[name]["label"]
    index = 9  # r2c2 on the 8×8 board
    assert f"neighbour sum {view['sums'][index]}" in found["r2c2"]["label"]
    # Hover shows the neighbour sum in the square.
    sum_el = page.locator("[data-gallery-item='0'] [data-cell='r2c2'] .sum")
    assert sum_el.evaluate("e => getComputedStyle(e).opacity") == "0"
    page.locator("[data-gallery-item='0'] [data-cell='r2c2']").hover()
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector("
        "\"[data-gallery-item='0'] [data-cell='r2c2'] .sum\")).opacity === '1'"
    )


def test_thirtyfive_drops_its_thwarts_once_the_board_is_full(
    page: Any, static_url: str
) -> None:
    view = P.random_view("thirtyfive", 200, seed=3)
    assert view["result"] is not None and (view["over"] or view["under"])
    open_gallery(page, static_url, [{"view": view}])
    found = cells(page, 0)
    assert len(found) == 64
    assert page.locator("[data-gallery-item='0'] .thwart").count() == 0
    assert not any("past 35" in c["label"] or "cannot reach" in c["label"] for c in found)


def test_sumodoku_variant_marks(page: Any, static_url: str) -> None:
    view = P.random_view("sumodoku", 10, seed=3, parity=True, consecutive=True, diagonals=True)
    open_gallery(page, static_url, [{"view": view}])
    item = "[data-gallery-item='0']"
    assert page.locator(f"{item} .bar").count() == len(view["variants"]["consecutive"])
    assert page.locator(f"{item} .diag").count() == 2
    parity = view["variants"]["parity"]
    assert page.locator(f"{item} .odd").count() == parity.count("o")
    assert page.locator(f"{item} .even").count() == parity.count("e")
    # Pieces carry their digit, so colour is never the only clue.
    for c in cells(page, 0):
        value = view["cells"][int(c["cell"][1]) * 9 - 9 + int(c["cell"][3]) - 1]
        if value:
            assert c["text"] == str(value["value"]) and f"colour {value['value']}" in c["label"]


def test_challenge_shows_errors_and_the_cell_to_correct(page: Any, static_url: str) -> None:
    view = P.view("challenge", P.CHALLENGE_ERRORS, players=3)
    open_gallery(page, static_url, [{"view": view}])
    found = {c["cell"]: c for c in cells(page, 0)}
    assert "required" in found[view["required_cell"]]["classes"]
    given = next(n for n, c in found.items() if "given" in c["classes"])
    assert "given" in found[given]["label"]
    sheet_rows = page.locator("[data-gallery-item='0'] .sheet tbody tr").count()
    assert sheet_rows == view["round"]
    errors = page.locator("[data-gallery-item='0'] .errors li").all_inner_texts()
    assert len(errors) == len(view["errors"])
