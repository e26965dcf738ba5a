"""Round-robin pairings: FIDE's Berger tables, for 2 to 16 entrants.

Every entrant meets every other exactly once; with an odd number, one of
them rests each round (a bye, scored as nothing played). The schedule is
``caissify-pairings``' Berger-table engine (FIDE Handbook C.05), so colours
alternate as the published tables say: over the whole event, each
entrant's whites and blacks differ by at most one. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from caissify_pairings import generate_pairings

from sansu.server.tournaments.formats.swiss import Board, Entrant, scores

BYE_POINTS = 0.0
"""A round-robin's rest round scores nothing (with an odd number, everyone rests once)."""

MAX_ENTRANTS = 16


def rounds_for(count: int) -> int:
    """How many rounds a round-robin of ``count`` entrants plays."""
    return count - 1 if count % 2 == 0 else count


def schedule(entrants: Sequence[Entrant]) -> list[list[Board]]:
    """Every round's boards, Berger position = seed (1 = highest rating). Byes last."""
    if not 2 <= len(entrants) <= MAX_ENTRANTS:
        raise ValueError(f"a round-robin has 2 to {MAX_ENTRANTS} entrants, not {len(entrants)}")
    players = [
        {
            "id": e.id,
            "name": str(e.id),
            "rating": e.rating,
            "starting_number": e.seed,
            "score": 0.0,
            "color_hist": [],
            "float_history": [],
            "bye_count": 0,
        }
        for e in entrants
    ]
    total = rounds_for(len(entrants))
    out = []
    for number in range(1, total + 1):
        answer = generate_pairings("round_robin", players, set(), number, total)
        boards = [Board(p["white_id"], p.get("black_id")) for p in answer]
        out.append(sorted(boards, key=lambda b: b.bye))
    return out


def sonneborn_berger(history: Sequence[Sequence[Board]]) -> dict[int, float]:
    """Each player's Sonneborn–Berger score: the final scores of the opponents beaten,
    plus half those of the opponents drawn."""
    final = scores(history, BYE_POINTS)
    out: dict[int, float] = {pid: 0.0 for pid in final}
    for round_ in history:
        for board in round_:
            if board.black is None or board.points is None:
                continue
            w, b = board.white, board.black
            out[w] += board.points[0] * final.get(b, 0.0)
            out[b] += board.points[1] * final.get(w, 0.0)
    return out
