"""News of a committed change, as a game's judge sends it to the other nodes, and
applying it to another node's copy of the game.

After each commit the judge publishes the change's events with their numbers,
the game's fields that a change may touch (seats, status, clock, rematch...)
and its moves from the first one the change touched. A node that keeps a copy
of the game applies the news in memory when it follows on from the copy's
event number (one move played on the copy's engine state; a takeback replays
the moves kept), and sends the events to its clients. A news that does not
follow on (one lost while Redis was away, a new judge's news overtaking the
old one's) or does not fit the copy is refused, and the node reads the game
from the store: the store stays the truth, the news only saves reading it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from sansu.server.play import ClockState, Event, LiveGame, PlayedMove, Seat

FIELDS = (
    "status",
    "casual",
    "created_by",
    "private",
    "join_secret_hash",
    "watchable",
    "version",
    "result",
    "termination",
    "time_control",
    "rematch_offers",
    "rematch_of",
    "rematch_id",
    "seed_chosen",
    "meta",
    "public_options",
    "updated_at",
    "finished_at",
)
"""The plain fields of a game that a news carries as they stand after the change
(with the seats and the clock; the moves travel as a difference)."""


SEAT_FIELDS = tuple(f.name for f in dataclasses.fields(Seat))
"""A seat's fields, all plain values (so a shallow copy, cheaper than ``asdict``'s deep one)."""


def news_of(live: LiveGame, events: Sequence[Event]) -> dict[str, Any]:
    """The news of the change that just committed ``events`` to ``live`` (applied in memory)."""
    kept = len(live.moves)
    for event in events:
        ply = event.data.get("ply")
        if event.type == "takeback" and isinstance(ply, int):
            kept = min(kept, ply)
        elif event.type == "move" and isinstance(ply, int):
            kept = min(kept, ply - 1)
    kept = max(kept, 0)
    game = {name: getattr(live, name) for name in FIELDS}
    game["seats"] = [{f: getattr(seat, f) for f in SEAT_FIELDS} for seat in live.seats]
    game["clock"] = live.clock.to_json()
    return {
        "g": live.id,
        "from": live.seq - len(events),
        "seq": live.seq,
        "events": [[e.seq, e.type, e.state, e.data, e.at] for e in events],
        "game": game,
        "kept": kept,
        "moves": [[m.ply, m.text, m.seat, m.at, m.state] for m in live.moves[kept:]],
        "plies": len(live.moves),
    }


def apply_news(live: LiveGame, news: dict[str, Any]) -> list[Event] | None:
    """Applies ``news`` to the copy ``live`` and returns its events, to be sent; ``None``
    (the copy unchanged) when the news does not follow on from the copy or does not fit it."""
    kept = news.get("kept")
    if news.get("from") != live.seq or not isinstance(kept, int):
        return None
    if not 0 <= kept <= len(live.moves):
        return None
    try:
        moves = [PlayedMove(*m) for m in news["moves"]]
        if kept == len(live.moves):
            state = live.state
        else:  # a takeback: the moves kept, replayed
            state = live.game.play_moves([m.text for m in live.moves[:kept]])
        for m in moves:
            state = state.play(m.text)
        events = [Event(*e) for e in news["events"]]
        game = dict(news["game"])
        seats = [Seat(**s) for s in game.pop("seats")]
        clock = ClockState.from_json(game.pop("clock"))
        fields = {name: game[name] for name in FIELDS}
        seq = int(news["seq"])
    except Exception:  # a news this copy cannot follow: the store decides
        return None
    if kept + len(moves) != news.get("plies") or seq != live.seq + len(events):
        return None
    # nothing can fail from here: the copy changes as a whole
    live.state = state
    live.moves = live.moves[:kept] + moves
    live.seats = seats
    live.clock = clock
    for name, value in fields.items():
        setattr(live, name, value)
    live.seq = seq
    live.events.extend(events)
    live._views_version = -1  # views and status computed afresh
    return events
