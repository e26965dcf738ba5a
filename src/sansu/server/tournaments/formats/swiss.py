"""Swiss pairings: the FIDE Dutch system, through ``caissify-pairings``.

A Swiss tournament plays a fixed number of rounds; each round pairs players
of equal score (score groups, the S1/S2 split, transpositions and floaters,
colour preferences: FIDE C.04.3), never twice the same two players, and gives
one player a bye when the number is odd. The pairing itself is the
``caissify-pairings`` package's Dutch engine, checked by its authors against
the FIDE-endorsed bbpPairings; this module turns a tournament's history into
what that engine reads (scores, colour and float histories, byes) and its
answer into boards. Pure: no I/O, no clock, no randomness.

Colours: "white" is seat 0, the player who moves first.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from caissify_pairings import generate_pairings

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
BYE_POINTS = 1.0
"""A bye scores as a win (FIDE's pairing-allocated bye)."""


@dataclass(frozen=True)
class Entrant:
    """A player to pair: ``seed`` is the starting rank (1 = highest rating)."""

    id: int
    rating: float
    seed: int


@dataclass(frozen=True)
class Board:
    """One board of a round: ``black`` is ``None`` for a bye. ``points`` is
    (white's, black's) once the game is over, ``None`` before."""

    white: int
    black: int | None
    points: tuple[float, float] | None = None

    @property
    def bye(self) -> bool:
        return self.black is None


def scores(history: Sequence[Sequence[Board]], bye_points: float = BYE_POINTS) -> dict[int, float]:
    """Everyone's points after the finished boards of ``history``."""
    total: dict[int, float] = {}
    for round_ in history:
        for board in round_:
            total.setdefault(board.white, 0.0)
            if board.black is None:
                total[board.white] += bye_points
                continue
            total.setdefault(board.black, 0.0)
            if board.points is not None:
                total[board.white] += board.points[0]
                total[board.black] += board.points[1]
    return total


def _histories(
    entrants: Sequence[Entrant], history: Sequence[Sequence[Board]]
) -> tuple[dict[int, dict], set[tuple[int, int]]]:
    state = {
        e.id: {"score": 0.0, "color_hist": [], "float_history": [], "bye_count": 0}
        for e in entrants
    }
    met: set[tuple[int, int]] = set()
    before: dict[int, float] = {}
    for done, round_ in enumerate(history, start=1):
        seen = set()
        for board in round_:
            w, b = board.white, board.black
            if b is None:
                if w in state:
                    state[w]["color_hist"].append("none")
                    state[w]["float_history"].append("down")
                    state[w]["bye_count"] += 1
                seen.add(w)
                continue
            met.add((min(w, b), max(w, b)))
            sw, sb = before.get(w, 0.0), before.get(b, 0.0)
            for me, colour, mine, theirs in ((w, "white", sw, sb), (b, "black", sb, sw)):
                seen.add(me)
                if me not in state:
                    continue
                state[me]["color_hist"].append(colour)
                state[me]["float_history"].append(
                    "down" if mine > theirs else "up" if mine < theirs else "none"
                )
        for pid, s in state.items():
            if pid not in seen:  # absent this round (joined later): no colour, no float
                s["color_hist"].append("none")
                s["float_history"].append("none")
        before = scores(history[:done])
    for pid, s in state.items():
        s["score"] = before.get(pid, 0.0)
    return state, met


def pair_round(
    entrants: Sequence[Entrant],
    history: Sequence[Sequence[Board]],
    total_rounds: int,
) -> list[Board]:
    """The next round's boards for ``entrants`` (the players still in), after ``history``
    (every earlier round, results in). Byes last. ``ValueError`` when no pairing avoids
    a rematch (too few players for the rounds): the tournament then ends early."""
    if len(entrants) < 2:
        raise ValueError("a Swiss round needs at least two players")
    round_number = len(history) + 1
    if round_number > total_rounds:
        raise ValueError(f"the tournament has {total_rounds} rounds; all were paired")
    state, met = _histories(entrants, history)
    players = [
        {
            "id": e.id,
            "name": str(e.id),
            "rating": e.rating,
            "starting_number": e.seed,
            **state[e.id],
        }
        for e in entrants
    ]
    with warnings.catch_warnings():
        # Round 2 after a round of byes only has empty float lists by right.
        warnings.simplefilter("ignore")
        answer = generate_pairings("dutch", players, met, round_number, total_rounds)
    boards = [Board(p["white_id"], p.get("black_id")) for p in answer]
    if sum(b.bye for b in boards) > len(entrants) % 2:
        # the engine's answer when every pairing would repeat a game (or a bye)
        raise ValueError(f"round {round_number} has no pairing without a rematch")
    return sorted(boards, key=lambda b: b.bye)


def buchholz(history: Sequence[Sequence[Board]]) -> dict[int, float]:
    """Each player's Buchholz: the sum of the final scores of the opponents they met
    (a bye adds nothing)."""
    final = scores(history)
    out: dict[int, float] = {pid: 0.0 for pid in final}
    for round_ in history:
        for board in round_:
            if board.black is None:
                continue
            out[board.white] += final.get(board.black, 0.0)
            out[board.black] += final.get(board.white, 0.0)
    return out


def seeds(ratings: Mapping[int, float]) -> list[Entrant]:
    """Starting ranks: highest rating first, ties by the earlier entry (lower id order
    as given)."""
    order = sorted(ratings, key=lambda pid: -ratings[pid])
    return [Entrant(pid, ratings[pid], i + 1) for i, pid in enumerate(order)]
