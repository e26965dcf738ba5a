"""Standings from stored pairings: every point comes from a finished pairing, and the
order is by score, then the format's tie-break."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sansu.server.tournaments.formats import arena
from sansu.server.tournaments.standings import standings

RESULTS = [("win", "loss"), ("draw", "draw"), ("loss", "win")]


@st.composite
def event(draw: st.DrawFn) -> tuple[list[dict], list[dict]]:
    count = draw(st.integers(2, 8))
    entries = [
        {"user_id": i, "name": f"p{i}", "bot": False, "rating": 1500.0 + i,
         "paused": False, "withdrawn": False}
        for i in range(count)
    ]  # fmt: skip
    rows = []
    for n in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["game", "game", "game", "bye", "forfeit"]))
        a, b = draw(st.permutations(range(count)))[:2]
        done = draw(st.booleans()) or kind != "game"
        outcomes = {
            "game": draw(st.sampled_from(RESULTS)),
            "bye": ("win",),
            "forfeit": ("win", "loss"),
        }
        players = [a] if kind == "bye" else [a, b]
        rows.append({
            "round": n + 1, "board": 1, "kind": kind, "players": players,
            "outcomes": list(outcomes[kind]) if done else None,
            "finished_at": float(n) if done else None,
        })  # fmt: skip
    return entries, rows


@given(event())
def test_points_add_up(data: tuple[list[dict], list[dict]]) -> None:
    entries, rows = data
    done = [r for r in rows if r["finished_at"] is not None]
    swiss = standings("swiss", entries, rows)
    games = sum(1 for r in done if r["kind"] != "bye")
    byes = sum(1 for r in done if r["kind"] == "bye")
    assert sum(line.score for line in swiss) == games + byes
    robin = standings("round_robin", entries, rows)
    assert sum(line.score for line in robin) == games
    for lines in (swiss, robin):
        keys = [(-ln.score, -ln.tiebreak) for ln in lines]
        assert keys == sorted(keys)
    for line in standings("arena", entries, rows):
        mine = [
            r["outcomes"][r["players"].index(line.user_id)]
            for r in done
            if line.user_id in r["players"]
        ]
        assert line.score == sum(arena.game_points(mine))
        playing = any(line.user_id in r["players"] for r in rows if r["finished_at"] is None)
        assert line.playing == playing
