"""The tournaments' pure pairing rules: Swiss (Dutch), round-robin (Berger), arena."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sansu.server.tournaments.formats import arena, round_robin, swiss
from sansu.server.tournaments.formats.swiss import Board


def play(boards: list[Board], draw: st.DrawFn) -> list[Board]:
    out = []
    for b in boards:
        if b.black is None:
            out.append(b)
            continue
        points = draw(st.sampled_from([(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)]))
        out.append(Board(b.white, b.black, points))
    return out


# -- Swiss -------------------------------------------------------------------------------


def test_round_one_is_the_published_dutch_split() -> None:
    """FIDE C.04.3, round 1 of 8 players: top half against bottom half, colours alternating."""
    entrants = swiss.seeds({i: 2000 - 10 * i for i in range(1, 9)})
    boards = swiss.pair_round(entrants, [], 5)
    assert [(b.white, b.black) for b in boards] == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_round_two_transposes_s2_for_colours() -> None:
    """Round 2 after the top half won: within each score group the natural S1/S2 pairs
    (1-3, 2-4) would give two players the same colour twice, so the Dutch system
    transposes S2 (1-4, 2-3), and every player gets the colour due."""
    entrants = swiss.seeds({i: 2000 - 10 * i for i in range(1, 9)})
    first = [Board(1, 5, (1, 0)), Board(6, 2, (0, 1)), Board(3, 7, (1, 0)), Board(8, 4, (0, 1))]
    boards = swiss.pair_round(entrants, [first], 5)
    assert {(b.white, b.black) for b in boards} == {(4, 1), (2, 3), (5, 8), (7, 6)}


def test_odd_field_gives_the_lowest_a_bye() -> None:
    entrants = swiss.seeds({i: 2000 - 10 * i for i in range(1, 8)})
    boards = swiss.pair_round(entrants, [], 3)
    assert boards[-1] == Board(7, None)


def test_no_pairing_without_a_rematch_is_refused() -> None:
    entrants = swiss.seeds({1: 1500.0, 2: 1400.0})
    first = [Board(1, 2, (1.0, 0.0))]
    with pytest.raises(ValueError, match="without a rematch"):
        swiss.pair_round(entrants, [first], 3)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.data())
def test_swiss_no_rematch_colours_and_one_bye(count: int, data: st.DataObject) -> None:
    ratings = {i: data.draw(st.integers(1000, 2500)) for i in range(1, count + 1)}
    entrants = swiss.seeds(ratings)
    total = max(1, (count + 1) // 2)
    history: list[list[Board]] = []
    for _ in range(total):
        boards = swiss.pair_round(entrants, history, total)
        placed = [b.white for b in boards] + [b.black for b in boards if b.black is not None]
        assert sorted(placed) == sorted(ratings)  # everyone exactly once
        assert sum(b.bye for b in boards) == count % 2
        history.append(play(boards, data.draw))
    pairs = Counter(
        frozenset((b.white, b.black)) for r in history for b in r if b.black is not None
    )
    assert max(pairs.values(), default=1) == 1, "a rematch"
    byes = Counter(b.white for r in history for b in r if b.black is None)
    assert max(byes.values(), default=1) == 1, "two byes for one player"
    # FIDE's absolute colour rule: whites and blacks differ by 2 at most, except in the
    # final round on a board with a topscorer (over half the points possible when it is
    # paired): C.04.3 C.3 forbids only two non-topscorers of the same absolute colour
    # preference to meet, so a topscorer's opponent may be the one given the colour.
    before_final = swiss.scores(history[:-1])
    final_opponent = {
        pid: other
        for b in history[-1]
        if b.black is not None
        for pid, other in ((b.white, b.black), (b.black, b.white))
    }

    def topscorer(pid: int | None) -> bool:
        return pid is not None and before_final.get(pid, 0) > (total - 1) / 2

    for pid in ratings:
        for played in range(1, total + 1):
            rounds = history[:played]
            whites = sum(1 for r in rounds for b in r if b.white == pid and b.black is not None)
            blacks = sum(1 for r in rounds for b in r if b.black == pid)
            exempt = played == total > 1 and (topscorer(pid) or topscorer(final_opponent.get(pid)))
            assert abs(whites - blacks) <= 2 or exempt


def test_buchholz_sums_the_opponents_scores() -> None:
    history = [
        [Board(1, 2, (1, 0)), Board(3, 4, (0.5, 0.5))],
        [Board(1, 3, (1, 0)), Board(4, 2, (1, 0))],
    ]
    assert swiss.scores(history) == {1: 2.0, 2: 0.0, 3: 0.5, 4: 1.5}
    assert swiss.buchholz(history) == {1: 0.5, 2: 3.5, 3: 3.5, 4: 0.5}


# -- round-robin -------------------------------------------------------------------------


def test_four_players_follow_the_published_berger_table() -> None:
    """FIDE Handbook C.05, Berger table for 3–4 players."""
    entrants = swiss.seeds({i: 2000 - i for i in range(1, 5)})
    rounds = [[(b.white, b.black) for b in r] for r in round_robin.schedule(entrants)]
    assert [sorted(r) for r in rounds] == [[(1, 4), (2, 3)], [(1, 2), (4, 3)], [(2, 4), (3, 1)]]


@given(st.integers(2, 16))
def test_round_robin_everyone_meets_once_colours_balanced(count: int) -> None:
    entrants = swiss.seeds({i: 1500.0 for i in range(1, count + 1)})
    rounds = round_robin.schedule(entrants)
    assert len(rounds) == round_robin.rounds_for(count)
    met = Counter(frozenset((b.white, b.black)) for r in rounds for b in r if b.black is not None)
    assert set(met) == {frozenset(p) for p in itertools.combinations(range(1, count + 1), 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        placed = [b.white for b in r] + [b.black for b in r if b.black is not None]
        assert sorted(placed) == list(range(1, count + 1))
    for pid in range(1, count + 1):
        whites = sum(1 for r in rounds for b in r if b.white == pid and b.black is not None)
        blacks = sum(1 for r in rounds for b in r if b.black == pid)
        assert abs(whites - blacks) <= 1


def test_round_robin_refuses_more_than_sixteen() -> None:
    with pytest.raises(ValueError, match="2 to 16"):
        round_robin.schedule(swiss.seeds({i: 1500.0 for i in range(17)}))


def test_sonneborn_berger() -> None:
    history = [[Board(1, 2, (1, 0)), Board(3, None)], [Board(3, 1, (0.5, 0.5)), Board(2, None)]]
    # round-robin rests score nothing: 1 has 1.5, 2 has 0, 3 has 0.5
    assert round_robin.sonneborn_berger(history) == {1: 0.25, 2: 0.0, 3: 0.75}


# -- arena -------------------------------------------------------------------------------

waiting = st.builds(
    arena.Waiting,
    id=st.integers(1, 10**6),
    score=st.integers(0, 40),
    rating=st.floats(800, 2800),
    free=st.booleans(),
    last_opponents=st.frozensets(st.integers(1, 30), max_size=3),
    firsts=st.integers(0, 5),
    games=st.integers(0, 10),
)


@given(st.lists(waiting, max_size=30, unique_by=lambda w: w.id), st.integers(2, 5))
def test_arena_pairs_only_free_players_once(players: list[arena.Waiting], size: int) -> None:
    tables = arena.pair(players, size, alone=True)
    free = {p.id for p in players if p.free}
    seated = [pid for t in tables for pid in t]
    assert len(seated) == len(set(seated))
    assert set(seated) <= free  # never a paused, withdrawn or playing player
    assert all(len(t) == size for t in tables)
    assert len(free) - len(seated) < size  # nobody waits while a table could be filled


@given(st.lists(waiting, max_size=30, unique_by=lambda w: w.id), st.integers(2, 5))
def test_arena_rematches_wait(players: list[arena.Waiting], size: int) -> None:
    """Without waiting, nobody sits with an opponent of their last game."""
    by_id = {p.id: p for p in players}
    for table in arena.pair(players, size, now=10.0, patience=60.0):
        assert all(by_id[p].free for p in table)
        for a in table:
            assert not (by_id[a].last_opponents & (set(table) - {a}))


def test_a_rematch_waits_for_others_then_happens() -> None:
    a = arena.Waiting(1, 2, 1500, True, last_opponents=frozenset({2}), since=100.0)
    b = arena.Waiting(2, 0, 1500, True, last_opponents=frozenset({1}), since=100.0)
    assert arena.pair([a, b], now=110.0) == []
    assert arena.pair([a, b], now=100.0 + arena.REMATCH_AFTER) == [(1, 2)]
    assert arena.pair([a, b], now=110.0, alone=True) == [(1, 2)]
    c = arena.Waiting(3, 0, 1400, True, since=0.0)
    assert arena.pair([a, b, c], now=110.0) == [(1, 3)]


def test_arena_pairs_by_score_then_rating_and_avoids_the_last_opponent() -> None:
    players = [
        arena.Waiting(1, 10, 1500, True),
        arena.Waiting(2, 8, 1900, True, last_opponents=frozenset({1})),
        arena.Waiting(3, 8, 1400, True),
        arena.Waiting(4, 0, 2000, True),
        arena.Waiting(5, 20, 2000, False),
    ]
    tables = arena.pair(players, 2)
    assert {frozenset(t) for t in tables} == {frozenset({1, 3}), frozenset({2, 4})}


def test_arena_streak_points() -> None:
    w, d, lo = arena.WIN, arena.DRAW, arena.LOSS
    assert arena.game_points([w, w, w, d, w, lo]) == [2, 2, 4, 2, 2, 0]
    assert arena.game_points([w, w, w, d], streak=False) == [2, 2, 2, 1]
    assert arena.outcomes_of({"winners": [1], "draw": False}, 2) == [lo, w]
    assert arena.outcomes_of({"winners": [], "draw": True}, 3) == [d, d, d]
    assert arena.outcomes_of({"winners": [0, 2], "draw": False}, 3) == [w, lo, w]
