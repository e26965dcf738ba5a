"""The How to play pages (docs/rules/GAME.md): every diagram is a position the
engine plays, and every worked example of the game's rule text has its diagram.

A diagram is a fenced block ```diagram of `key: value` lines (the syntax is in
docs/web.md); the web app draws it with the game's board module. Here each one
is read the way js/diagrams.js reads it and replayed move by move."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import sansu

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
GAMES = ("uttt", "sansumoku", "sumodoku", "challenge", "thirtyfive")
KEYS = {"game", "options", "moves", "highlight", "caption", "example"}

WORKED_EXAMPLES: dict[str, set[str]] = {
    # Ultimate Tic-Tac-Toe (002_*): the first picture, the corresponding cells and
    # section, the illustration of routing (and the reply), one move that wins a
    # section, a player sent to a won section, the move that wins the game, a draw.
    "uttt": {
        "board",
        "correspondence",
        "illustration",
        "illustration-reply",
        "win-section",
        "win-section-after",
        "sent-to-won",
        "win-game",
        "draw",
    },
    # Sansumoku (000_*): the initial position, after Blue's first move, after
    # Orange's, "Orange must play 2", Blue about to win a section and after,
    # about to win by constraint and after, the wildcard after a move to a won
    # section, about to win the game and the game won.
    "sansumoku": {
        "initial",
        "after-blue",
        "after-orange",
        "orange-plays-2",
        "about-to-win-section",
        "section-won",
        "about-to-win-by-constraint",
        "won-by-constraint",
        "wildcard",
        "about-to-win-game",
        "game-won",
    },
    # Sumodoku (001_*): the start (deal and spare), a placement, a duplicate
    # reported by an onlooker leaving a hole, the challenge, the last player able
    # to move, the Sudoku! claim and a claim on a grid already impossible, and
    # the variations: any colour, Sudoku X, odd/even, consecutive.
    "sumodoku": {
        "start",
        "placement",
        "hole",
        "challenge",
        "no-legal-move",
        "claim",
        "claim-impossible",
        "any-colour",
        "diagonals",
        "parity",
        "consecutive",
    },
    # Sudoku Challenge (003_*): a number worth its value, the +10 for completing a
    # line or block, an error and its correction, the final round by increasing
    # score, the +10 for not playing in the final round.
    "challenge": {"start", "entry", "completion", "error", "final-round", "grid-full"},
    # 35 (004_*): the red 1 surrounded by 9, 9 and 8 (before and after), a
    # highlighted square, an empty square at 35, opposite colours at 35 on one
    # move, over-thwarting, under-thwarting, setting up a square at 26.
    "thirtyfive": {
        "neighbours",
        "surrounded",
        "converted",
        "highlighted",
        "empty-at-35",
        "both-colours",
        "over-thwarting",
        "under-thwarting",
        "set-up",
    },
}


@dataclass
class Diagram:
    page: str
    game: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    highlight: list[str] = field(default_factory=list)
    caption: str = ""
    example: str = ""


def parse(page: str, text: str) -> Diagram:
    """A diagram's lines, read as js/diagrams.js reads them (a bad line fails)."""
    diagram = Diagram(page)
    for line in filter(None, (raw.strip() for raw in text.splitlines())):
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        assert sep and key in KEYS, f"{page}: bad diagram line {line!r}"
        if key == "options":
            diagram.options = json.loads(value)
            assert isinstance(diagram.options, dict), f"{page}: options must be an object"
        elif key == "moves":
            diagram.moves = [m.strip() for m in value.split(",") if m.strip()]
        elif key == "highlight":
            diagram.highlight = value.split()
        else:
            setattr(diagram, key, value)
    return diagram


def diagrams(game: str) -> list[Diagram]:
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    return [
        parse(game, block)
        for block in re.findall(r"^```diagram\n(.*?)^```", text, flags=re.M | re.S)
    ]


ALL = [d for g in GAMES for d in diagrams(g)]


def test_every_page_has_diagrams() -> None:
    assert {d.page for d in ALL} == set(GAMES)


@pytest.mark.parametrize(
    "diagram", ALL, ids=[f"{d.page}-{d.example or k}" for k, d in enumerate(ALL)]
)
def test_each_diagram_is_a_position_the_engine_plays(diagram: Diagram) -> None:
    assert diagram.game == diagram.page, "a page's diagrams are of its own game"
    assert diagram.caption, "every diagram has a caption"
    game = sansu.load_game(diagram.game, **diagram.options)  # bad options raise
    state = game.initial_state()
    for number, move in enumerate(diagram.moves, 1):
        assert not state.is_over, f"move {number} ({move}) comes after the end"
        state = state.play(move)  # an illegal move raises with the engine's reason
    view = state.view(None)
    rows, cols = view.get("rows", 9), view.get("cols", 9)
    for name in diagram.highlight:
        m = re.fullmatch(r"r(\d+)c(\d+)", name)
        assert m and 1 <= int(m[1]) <= rows and 1 <= int(m[2]) <= cols, name


@pytest.mark.parametrize("game", GAMES)
def test_every_worked_example_of_the_rule_text_has_its_diagram(game: str) -> None:
    shown = [d.example for d in diagrams(game) if d.example]
    assert len(shown) == len(set(shown)), "an example is named twice"
    assert set(shown) == WORKED_EXAMPLES[game]


def test_a_broken_diagram_is_caught() -> None:
    """The checks above can fail: an illegal move, an unknown key, a cell off the board."""
    with pytest.raises(sansu.IllegalMove):
        sansu.load_game("uttt").initial_state().play("r5c5").play("r5c5")
    with pytest.raises(AssertionError):
        parse("uttt", "game: uttt\ncolour: red\n")
    with pytest.raises(AssertionError):
        test_each_diagram_is_a_position_the_engine_plays(
            Diagram("thirtyfive", "thirtyfive", {"rows": 4, "cols": 4}, [], ["r5c1"], "x")
        )


@pytest.mark.parametrize("game", GAMES)
def test_the_player_page_links_its_reference_and_leaves_out_the_programmers_terms(
    game: str,
) -> None:
    text = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    assert f"(reference/{game}.md)" in text
    outside = re.sub(r"^```diagram\n.*?^```", "", text, flags=re.M | re.S)
    for term in (
        "player 0",
        "player 1",
        "--json",
        "sansu show",
        "tests/",
        "random.Random",
        "to_dict",
        "legal_moves",
    ):
        assert term not in outside, f"{game}: {term!r} belongs in the reference"
    reference = DOCS / "reference" / f"{game}.md"
    assert reference.is_file() and f"(../{game}.md)" in reference.read_text(encoding="utf-8")
