"""What the director plans before it writes: arena players as the pairing sees them, the
next round of a Swiss or a round-robin, and new pairing rows. Pure: no I/O."""

from __future__ import annotations

from typing import Any

from sansu.server.play import new_id
from sansu.server.tournaments.formats import arena, round_robin, swiss
from sansu.server.tournaments.standings import history, standings


def pairing_row(
    tid: str, number: int, board: int, kind: str, players: list[int], now: float
) -> dict[str, Any]:
    """A new pairing row (a bye and a forfeit are over when written)."""
    done = kind != "game"
    outcomes = None
    if kind == "bye":
        outcomes = ["win"]
    elif kind == "forfeit":
        outcomes = ["win", "loss"]
    return {
        "id": new_id(12),
        "tournament_id": tid,
        "round": number,
        "board": board,
        "kind": kind,
        "players": players,
        "game_id": None,
        "outcomes": outcomes,
        "created_at": now,
        "finished_at": now if done else None,
    }


def waiting_players(ents: list[dict], rows: list[dict], streak: bool) -> list[arena.Waiting]:
    """Every entrant of an arena as its pairing sees them."""
    playing: set[int] = set()
    last: dict[int, frozenset[int]] = {}
    firsts: dict[int, int] = {}
    games: dict[int, int] = {}
    since = {e["user_id"]: e["joined_at"] for e in ents}
    for r in sorted(rows, key=lambda r: r["round"]):
        if r["finished_at"] is None:
            playing.update(r["players"])
        for pid in r["players"]:
            last[pid] = frozenset(r["players"]) - {pid}
            games[pid] = games.get(pid, 0) + 1
            since[pid] = max(since.get(pid, 0.0), r["finished_at"] or 0.0)
        firsts[r["players"][0]] = firsts.get(r["players"][0], 0) + 1
    lines = {ln.user_id: ln for ln in standings("arena", ents, rows, streak=streak)}
    return [
        arena.Waiting(
            id=e["user_id"],
            score=int(lines[e["user_id"]].score),
            rating=e["rating"],
            free=not (e["paused"] or e["withdrawn"] or e["user_id"] in playing),
            last_opponents=last.get(e["user_id"], frozenset()),
            firsts=firsts.get(e["user_id"], 0),
            games=games.get(e["user_id"], 0),
            since=since[e["user_id"]],
        )
        for e in ents
    ]


def next_round(t: dict, ents: list[dict], rows: list[dict], now: float) -> list[dict]:
    """The pairing rows of a Swiss's or a round-robin's next round (``ValueError``: none)."""
    number = t["round"] + 1
    tid = t["id"]
    present = {e["user_id"] for e in ents if not e["withdrawn"]}
    if t["format"] == "swiss":
        seeded = swiss.seeds({e["user_id"]: e["rating"] for e in ents})
        boards = swiss.pair_round(
            [s for s in seeded if s.id in present], history(rows), t["rounds"]
        )
    else:
        boards = round_robin.schedule(swiss.seeds({e["user_id"]: e["rating"] for e in ents}))[
            number - 1
        ]
    out = []
    for i, b in enumerate(boards, start=1):
        if b.black is None:
            out.append(pairing_row(tid, number, i, "bye", [b.white], now))
        elif b.white in present and b.black in present:
            out.append(pairing_row(tid, number, i, "game", [b.white, b.black], now))
        elif b.white in present or b.black in present:
            winner, loser = (b.white, b.black) if b.white in present else (b.black, b.white)
            out.append(pairing_row(tid, number, i, "forfeit", [winner, loser], now))
    return out
