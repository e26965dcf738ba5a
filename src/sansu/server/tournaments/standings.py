"""Tournament standings from the pairings played: pure, for all three formats.

- Arena: points per game from :mod:`~sansu.server.tournaments.formats.arena` (2 a win, 1 a draw,
  doubled on a streak); ties broken by wins, then rating.
- Swiss: 1 a win, ½ a draw, 1 a bye; ties broken by Buchholz (the sum of the
  opponents' scores), then rating.
- Round-robin: 1 a win, ½ a draw, 0 a rest; ties broken by Sonneborn–Berger,
  then rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sansu.server.tournaments.formats import arena, round_robin, swiss
from sansu.server.tournaments.formats.swiss import Board

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass
class Line:
    """One player's line of the standings."""

    user_id: int
    name: str
    bot: bool
    rating: float
    score: float = 0.0
    tiebreak: float = 0.0
    games: int = 0
    wins: int = 0
    fire: bool = False
    paused: bool = False
    withdrawn: bool = False
    playing: bool = False
    outcomes: list[str] = field(default_factory=list)

    def to_json(self, rank: int) -> dict[str, Any]:
        return {
            "rank": rank,
            "user_id": self.user_id,
            "name": self.name,
            "bot": self.bot,
            "rating": round(self.rating),
            "score": self.score,
            "tiebreak": self.tiebreak,
            "games": self.games,
            "wins": self.wins,
            "fire": self.fire,
            "paused": self.paused,
            "withdrawn": self.withdrawn,
            "playing": self.playing,
        }


def history(rows: Sequence[Mapping[str, Any]]) -> list[list[Board]]:
    """Swiss and round-robin rounds as boards (results where over), from pairing rows."""
    by_round: dict[int, list[Board]] = {}
    for row in sorted(rows, key=lambda r: (r["round"], r["board"])):
        players = row["players"]
        if row["kind"] == "forfeit":
            continue  # no game: counted apart, and not for the tie-breaks
        if row["kind"] == "bye":
            board = Board(players[0], None)
        else:
            done = row["outcomes"]
            points = None if done is None else (POINTS[done[0]], POINTS[done[1]])
            board = Board(players[0], players[1], points)
        by_round.setdefault(row["round"], []).append(board)
    return [by_round[r] for r in sorted(by_round)]


def standings(
    fmt: str,
    entries: Sequence[Mapping[str, Any]],
    rows: Sequence[Mapping[str, Any]],
    *,
    streak: bool = True,
) -> list[Line]:
    """The players in order, best first."""
    lines = {
        e["user_id"]: Line(
            e["user_id"], e["name"], e["bot"], e["rating"], paused=e["paused"],
            withdrawn=e["withdrawn"],
        )
        for e in entries
    }  # fmt: skip
    done = sorted(
        (r for r in rows if r["finished_at"] is not None),
        key=lambda r: (r["finished_at"], r["round"], r["board"]),
    )
    for row in rows:
        if row["finished_at"] is None and row["kind"] == "game":
            for pid in row["players"]:
                if pid in lines:
                    lines[pid].playing = True
    for row in done:
        for pid, outcome in zip(row["players"], row["outcomes"] or (), strict=False):
            line = lines.get(pid)
            if line is None:
                continue
            if row["kind"] == "game":
                line.games += 1
            line.wins += outcome == "win"
            line.outcomes.append(outcome)
    if fmt == "arena":
        for line in lines.values():
            line.score = float(sum(arena.game_points(line.outcomes, streak=streak)))
            line.fire = streak and arena.on_fire(line.outcomes)
            line.tiebreak = float(line.wins)
    else:
        rounds = history(rows)
        bye = swiss.BYE_POINTS if fmt == "swiss" else round_robin.BYE_POINTS
        finals = swiss.scores(rounds, bye)
        for row in done:  # a forfeit: the present player's win, without a game
            if row["kind"] == "forfeit":
                for pid, outcome in zip(row["players"], row["outcomes"], strict=True):
                    finals[pid] = finals.get(pid, 0.0) + POINTS[outcome]
        breaks = swiss.buchholz(rounds) if fmt == "swiss" else round_robin.sonneborn_berger(rounds)
        for pid, line in lines.items():
            line.score = finals.get(pid, 0.0)
            line.tiebreak = breaks.get(pid, 0.0)
    return sorted(lines.values(), key=lambda ln: (-ln.score, -ln.tiebreak, -ln.rating, ln.name))
