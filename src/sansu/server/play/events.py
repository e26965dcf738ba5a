"""The event stream of a game for reconnecting clients: recent events from memory,
older ones from the store."""

from __future__ import annotations

from sqlalchemy import Connection, select

from sansu.server.base import Store
from sansu.server.base import events as events_table
from sansu.server.play.live import Event, LiveGame


class EventLog:
    """Reads a game's numbered events after a given ``seq``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def events_since(self, live: LiveGame, since: int) -> list[Event]:
        """Every event after number ``since`` (from memory, or the store for old ones)."""
        since = max(0, since)
        if since >= live.seq:
            return []
        cache_start = live.events[0].seq if live.events else live.seq + 1
        if since + 1 >= cache_start:
            return [e for e in live.events if e.seq > since]
        upto = live.seq

        def read(c: Connection) -> list[Event]:
            rows = c.execute(
                select(events_table)
                .where(
                    events_table.c.game_id == live.id,
                    events_table.c.seq > since,
                    events_table.c.seq <= upto,
                )
                .order_by(events_table.c.seq)
            ).all()
            return [Event(r.seq, r.type, r.state, dict(r.data), r.at) for r in rows]

        found = await self.store.read(read)
        return found + [e for e in live.events if e.seq > upto]
