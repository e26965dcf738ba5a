"""Opening books: keys, files, probing, the player's use of a book, and the builder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import sansu
from sansu.ai import book as book_module
from sansu.ai.book import Book, Entry, position_key, shipped_book
from sansu.ai.levels import LEVELS, level_for, with_settings
from sansu.ai.player import ComputerPlayer
from sansu.ai.training import Mapper
from sansu.ai.training.book import BookConfig, Walker, build_book

UTTT = sansu.load_game("uttt")


def test_a_key_names_a_position_not_a_state_object() -> None:
    line = ["r5c5", "r4c4", "r2c2"]
    assert position_key(UTTT.play_moves(line)) == position_key(UTTT.play_moves(line))
    keys = {
        position_key(UTTT.play_moves(line[:n])) for n in range(len(line) + 1)
    } | {position_key(UTTT.play_moves(["r5c5", "r4c6"])), position_key(UTTT.play_moves(["r1c1"]))}
    assert len(keys) == 6
    other = sansu.load_game("sansumoku").initial_state()
    assert position_key(other) != position_key(UTTT.initial_state())


def _book(entries: dict[str, Entry], max_ply: int = 4) -> Book:
    return Book("uttt", entries, max_ply, {"made": "by hand"})


def test_probe_finds_entries_and_never_an_illegal_or_too_deep_one() -> None:
    start = UTTT.initial_state()
    after = start.play("r5c5")
    book = _book({
        position_key(start): Entry("r5c5", 0.1, 1000),
        position_key(after): Entry("r1c1", 0.0, 1000),  # not legal: O is sent to the centre
    })  # fmt: skip
    assert book.probe(start) == Entry("r5c5", 0.1, 1000)
    assert book.probe(after) is None
    assert book.probe(after.play("r4c4")) is None
    assert _book({position_key(start): Entry("r5c5", 0.1, 1)}, max_ply=0).probe(after) is None
    deep = UTTT.play_moves(["r5c5", "r4c4", "r2c2"])
    assert _book({position_key(deep): Entry("r4c4", 0.0, 1)}, max_ply=2).probe(deep) is None


def test_a_book_file_round_trips_and_bad_files_are_refused(tmp_path) -> None:
    book = _book({position_key(UTTT.initial_state()): Entry("r5c5", 0.1234, 99)})
    path = tmp_path / "book.json"
    book.save(path)
    again = Book.load(path)
    assert again.entries == book.entries and again.max_ply == 4 and again.game_id == "uttt"
    assert again.about == {"made": "by hand"}
    good = book.to_json()
    bad_docs = [
        [],
        {**good, "format": 99},
        {**good, "max_ply": -1},
        {**good, "game": 3},
        {**good, "entries": []},
        {**good, "entries": {"k": ["r5c5", 2.0, 1]}},
        {**good, "entries": {"k": ["r5c5", 0.5]}},
        {**good, "entries": {"k": [5, 0.5, 1]}},
    ]
    for doc in bad_docs:
        with pytest.raises(ValueError):
            Book.from_json(doc)
    path.write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        Book.load(path)


def _player(monkeypatch, book: Book | None, settings: str) -> ComputerPlayer:
    monkeypatch.setattr(book_module, "shipped_book", lambda game_id: book)
    level = with_settings(level_for("uttt", "max"), settings)
    return ComputerPlayer(UTTT, level, seed=3)


def test_a_level_with_a_book_plays_its_move_unsearched(monkeypatch) -> None:
    start = UTTT.initial_state()
    book = _book({position_key(start): Entry("r1c1", -0.2, 5)})
    chosen = _player(monkeypatch, book, "book=1").choose(start, simulations=200)
    assert str(chosen.move) == "r1c1" and chosen.book and chosen.simulations == 0
    assert chosen.value == pytest.approx(-0.2) and chosen.to_dict()["book"] is True
    # out of the book, or without the setting, it searches
    searched = _player(monkeypatch, book, "book=1").choose(start.play("r5c5"), simulations=200)
    assert not searched.book and searched.simulations == 200
    plain = _player(monkeypatch, book, "book=0").choose(start, simulations=200)
    assert not plain.book and plain.simulations == 200
    # no book shipped: the level searches
    alone = _player(monkeypatch, None, "book=1").choose(start, simulations=200)
    assert not alone.book and alone.simulations == 200


def test_the_walker_uses_only_symmetries_the_rules_keep() -> None:
    walker = Walker(UTTT)
    assert len(walker.acts) == 8
    canon, act = walker.canonical(("r9c9",))
    assert canon == ("r1c1",) and act is not None
    assert walker.back("r2c1", ("r9c9",), act) in {"r8c9", "r9c8"}
    assert walker.canonical(("r1c1",)) == (("r1c1",), None)
    # the centre's images are all the centre: the line is its own canonical form
    assert walker.canonical(("r5c5",))[0] == ("r5c5",)
    # 35's moves are digits on cells, not plain cells: no symmetry is used
    thirtyfive = Walker(sansu.load_game("thirtyfive"))
    line = (str(thirtyfive.state(()).legal_moves()[-1]),)
    assert thirtyfive.canonical(line) == (line, None)


def _walk(game: sansu.Game, book: Book) -> list:
    """Every position a side meets within the book when it follows the book."""
    seen = []
    for side in range(game.num_players):
        lines = [game.initial_state()]
        while lines:
            state = lines.pop()
            if state.result is not None or state.ply > book.max_ply:
                continue
            if state.to_move == side:
                seen.append(state)
                entry = book.probe(state)
                assert entry is not None, f"{state.ply}: not in the book"
                lines.append(state.play(entry.move))
            else:
                lines.extend(state.play(m) for m in state.legal_moves())
    return seen


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
def test_a_built_book_covers_every_position_it_promises(game_id: str) -> None:
    game = sansu.load_game(game_id)
    config = BookConfig(game_id, plies=2, simulations=60, seed=5)
    with Mapper(1) as mapper:
        book = build_book(config, mapper)
        again = build_book(config, mapper)
    assert json.dumps(book.to_json()) == json.dumps(again.to_json())
    seen = _walk(game, book)
    assert len(book.entries) == len({position_key(s) for s in seen})
    assert book.about["searched"] < len(book.entries)  # symmetric positions searched once
    # symmetric positions get symmetric moves: O's answer to X in one corner is the mirror
    # of its answer to X in the opposite corner
    walker = Walker(game)
    first = [a for a in walker.acts if a(0, 0) == (8, 8)]
    corner, opposite = game.initial_state().play("r1c1"), game.initial_state().play("r9c9")
    reply, mirrored = book.probe(corner), book.probe(opposite)
    assert reply is not None and mirrored is not None
    r, c = (int(x) - 1 for x in reply.move[1:].split("c"))
    assert any(f"r{a(r, c)[0] + 1}c{a(r, c)[1] + 1}" == mirrored.move for a in first)


BOOKS = Path(__file__).resolve().parents[2] / "benchmarks" / "data"


@pytest.mark.parametrize("game_id", ["uttt", "sansumoku"])
def test_the_measured_books_cover_every_position_they_promise(game_id: str) -> None:
    """The books of docs/ai.md (built at a million simulations a position, measured, not
    shipped: no level uses a book, so none is in the package)."""
    book = Book.load(BOOKS / game_id / "book.json")
    assert book.game_id == game_id and book.about["simulations"] == 1_000_000
    seen = _walk(sansu.load_game(game_id), book)
    assert len(seen) == len(book.entries) and book.max_ply == 4
    assert shipped_book(game_id) is None
    assert not any(level_for(game_id, name).book for name in LEVELS)
