"""35: invariants over random games, and the engine checked move by move against a plain model.

The model below states the rules as directly as possible (lists, sums
recomputed from scratch on every move); the engine's packed integers must
agree with it on every square after every move of every generated game.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

import sansu
from sansu.games.thirtyfive import ThirtyFiveState
from sansu.render import render

SIZES = st.tuples(st.integers(3, 12), st.integers(3, 12))


@dataclass
class Model:
    """The rules, written out plainly."""

    rows: int
    cols: int
    values: list[int] = field(default_factory=list)
    colours: list[int | None] = field(default_factory=list)
    highlights: list[int | None] = field(default_factory=list)
    mover: int = 0

    around: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = self.rows * self.cols
        self.values, self.colours, self.highlights = [0] * n, [None] * n, [None] * n
        self.around = [
            [j for j in range(n) if max(abs(j // self.cols - i // self.cols),
                                        abs(j % self.cols - i % self.cols)) == 1]
            for i in range(n)
        ]  # fmt: skip

    def neighbours(self, i: int) -> list[int]:
        return self.around[i]

    def sums(self) -> list[int]:
        return [sum(self.values[n] for n in self.neighbours(i)) for i in range(len(self.values))]

    def play(self, cell: int, digit: int) -> tuple[list[int], bool]:
        """Place ``digit`` on ``cell``; the squares that triggered, and whether they cancelled."""
        before = self.sums()
        colour = self.highlights[cell] if self.highlights[cell] is not None else self.mover
        self.values[cell], self.colours[cell], self.highlights[cell] = digit, colour, None
        after = self.sums()
        triggered = [
            i
            for i in range(len(self.values))
            if self.values[i] and after[i] == 35 and (before[i] != 35 or i == cell)
        ]
        trigger_colours = {self.colours[i] for i in triggered}
        cancelled = len(trigger_colours) > 1
        if len(trigger_colours) == 1:
            (winner,) = trigger_colours
            for t in triggered:
                for n in self.neighbours(t):
                    if self.values[n]:
                        self.colours[n] = winner
                    else:
                        self.highlights[n] = winner
        self.mover = 1 - self.mover
        return triggered, cancelled


def random_game(rows: int, cols: int, seed: int) -> list[ThirtyFiveState]:
    rng = random.Random(seed)
    state = sansu.load_game("35", rows=rows, cols=cols).initial_state()
    states = [state]
    while state.result is None:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states  # type: ignore[return-value]


@settings(max_examples=25, deadline=None)
@given(SIZES, st.integers(0, 2**32))
def test_the_engine_agrees_with_the_model(size: tuple[int, int], seed: int) -> None:
    rows, cols = size
    model = Model(rows, cols)
    states = random_game(rows, cols, seed)
    ever: set[int] = set()
    for state in states[1:]:
        move = state.last_move
        triggered, cancelled = model.play(move.cell, move.digit)  # type: ignore[union-attr]
        assert state.triggered_cells() == triggered
        assert state.cancelled == cancelled
        assert not ever & set(triggered), "a square triggered twice"
        ever |= set(triggered)
        assert [state.value_at(i) or 0 for i in range(rows * cols)] == model.values
        assert [state.colour_at(i) for i in range(rows * cols)] == model.colours
        assert [state.highlight_at(i) for i in range(rows * cols)] == model.highlights
        assert state.sums() == model.sums()
        assert {i for i in range(rows * cols) if state.has_triggered(i)} == ever
    final = states[-1]
    red = model.colours.count(0)
    blue = model.colours.count(1)
    assert final.result is not None and final.result.scores == (red, blue)
    assert final.result.reason == f"board full, {red}–{blue}"
    assert final.result.draw == (red == blue)
    if red != blue:
        assert final.result.winners == ((0,) if red > blue else (1,))


@settings(max_examples=30, deadline=None)
@given(SIZES, st.integers(0, 2**32))
def test_invariants_of_every_position(size: tuple[int, int], seed: int) -> None:
    rows, cols = size
    n = rows * cols
    states = random_game(rows, cols, seed)
    geo = states[0].game.geometry  # type: ignore[attr-defined]
    for ply, state in enumerate(states):
        values = [state.value_at(i) or 0 for i in range(n)]
        sums = state.sums()
        assert sums == [sum(values[j] for j in geo.neighbours[i]) for i in range(n)]
        red, blue = state.scores()
        assert red + blue == ply == sum(1 for v in values if v)
        assert state.ply == ply
        empties = [i for i in range(n) if not values[i]]
        if state.result is None:
            assert len(state.legal_moves()) == 9 * len(empties)
        for i in range(n):
            assert (state.highlight_at(i) is None) or not values[i]
        over = set(state.over_thwarted())
        under = set(state.under_thwarted())
        for i in range(n):
            room = 9 * sum(1 for j in geo.neighbours[i] if not values[j])
            assert (i in over) == (sums[i] > 35 and not state.has_triggered(i))
            assert (i in under) == (sums[i] + room < 35)
            if len(geo.neighbours[i]) == 3:
                assert i in under and not state.has_triggered(i)
        assert not over & under
        if ply < len(states) - 1:
            assert state.to_move == ply % 2
    assert states[-1].to_move is None and states[-1].legal_moves() == []


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_playing_leaves_the_old_state_unchanged(seed: int) -> None:
    states = random_game(5, 6, seed)
    snapshots = [s.to_dict() for s in states]
    rng = random.Random(seed)
    for state, snapshot in zip(states[:-1], snapshots, strict=False):
        state.play(rng.choice(state.legal_moves()))
        assert state.to_dict() == snapshot


@settings(max_examples=10, deadline=None)
@given(SIZES, st.integers(0, 2**32), st.data())
def test_records_round_trip(size: tuple[int, int], seed: int, data: st.DataObject) -> None:
    rows, cols = size
    states = random_game(rows, cols, seed)
    stop = data.draw(st.integers(0, len(states) - 1))
    state = states[stop]
    game = state.game
    record = sansu.GameRecord.start(game, date="2000-01-01T00:00:00+00:00")
    for s in states[1 : stop + 1]:
        record.append(s.last_move)  # type: ignore[arg-type]
    again = sansu.GameRecord.from_json(record.to_json())
    assert again.moves == record.moves and again.options == {"rows": rows, "cols": cols}
    assert again.replay().to_dict() == state.to_dict()


@settings(max_examples=10, deadline=None)
@given(SIZES, st.integers(0, 2**32), st.data())
def test_the_coloured_picture_is_the_plain_one_plus_colour(
    size: tuple[int, int], seed: int, data: st.DataObject
) -> None:
    states = random_game(*size, seed)
    state = states[data.draw(st.integers(0, len(states) - 1))]
    plain = render(state, color=False)
    coloured = render(state, color=True)
    assert "\x1b[" not in plain
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain
    red, blue = state.scores()
    legend = 1  # the legend shows "R7 B7" once
    assert len(re.findall(r"R\d", plain)) == red + legend
    assert len(re.findall(r"B\d", plain)) == blue + legend
