"""Tournaments across a cluster: one node directs each tournament at a time.

The **director** of a tournament is the holder of its lease
``sansu:lease:t:ID`` (:mod:`~sansu.server.cluster.leases`, renewed every second):
only it pairs, creates the pairings' games and ends the tournament
(:meth:`Director.advance`). Any other node that would advance it (a player
entered there, a game of it ended on its judge there, a timer) publishes a
nudge on the ``tournaments`` topic instead, and the director advances it. A
game's result is written wherever the game ends, by the director's
conditional update, so once.

Every node looks each second for the tournaments not finished whose lease
is free (a new one, or its director died) and takes them over: it finds the
games the old director created but did not record, creates those it did
not create, records the results it missed, pairs what is due and arms the
timers (:meth:`Director.resume_one`), and tells the players of the games
under way of them again (``gameStart``: the old director's announcement may
not have left); every :data:`LOOK_EVERY` seconds it
advances the tournaments it directs, which makes up for a nudge lost while
Redis was away or an arena's end timer armed on a node that died. Safety does not rest on the lease:
a pairing is written only over the pairings it was computed from
(:func:`~sansu.server.tournaments.director.unchanged`, the tournament's row
locked), so two nodes that both believe they direct never pair the same
players twice. Ratings are written with a game's result, in its fenced
commit, keyed by the game (:mod:`~sansu.server.play.rated`): once.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from redis.exceptions import RedisError

from sansu.server.base import Store
from sansu.server.cluster.bus import Bus
from sansu.server.cluster.leases import Leases
from sansu.server.tournaments import Director, Pairing, PairingListener, rows_of, tournaments_table

log = logging.getLogger("sansu.server")

TOPIC = "tournaments"
LOOK_EVERY = 5
"""Keeper rounds between two looks at every tournament this node directs (a nudge lost
while Redis was away, an arena's end whose timer was on a node that died)."""


def lease_id(tid: str) -> str:
    """The id of a tournament's lease (``sansu:lease:t:ID``; game ids have no colon)."""
    return f"t:{tid}"


class SharedDirection:
    """Which tournaments this node directs; the director's hooks."""

    def __init__(
        self,
        bus: Bus,
        leases: Leases,
        director: Director,
        store: Store,
        renew_every: float,
        tell_again: PairingListener | None = None,
    ) -> None:
        self.bus = bus
        self.tell_again = tell_again
        """Tells a game's players of it again (``gameStart``), after a takeover."""
        self.leases = leases
        self.director = director
        self.store = store
        self.renew_every = renew_every
        self.held: set[str] = set()
        self._advance = director.advance
        self.taken = 0
        self.nudged = 0
        self._rounds = 0

    def install(self) -> None:
        self.director.advance = self.advance  # type: ignore[method-assign]
        self.director.resume = self.resume  # type: ignore[method-assign]
        self.bus.listen(TOPIC, self._heard)

    async def resume(self) -> None:
        """At start: nothing. The keeper takes the tournaments nobody directs."""

    async def advance(self, tid: str) -> None:
        """Pairs (:meth:`Director.advance`) if this node directs ``tid``, else nudges the
        director."""
        if tid in self.held:
            await self._advance(tid)
            return
        self.nudged += 1
        self.bus.publish(TOPIC, {"t": tid})

    def _heard(self, data: dict[str, Any]) -> None:
        tid = str(data["t"])
        if tid in self.held:
            self.director.background.spawn(self._advance_locked(tid))

    async def _advance_locked(self, tid: str) -> None:
        async with self.director.lock(tid):
            await self.advance(tid)

    async def run(self) -> None:
        """Renews this node's tournaments' leases and takes over those nobody directs."""
        while True:
            await asyncio.sleep(self.renew_every)
            try:
                await self._keep()
            except (RedisError, OSError) as error:
                log.warning("tournaments: cannot renew the leases: %s", error)
            except Exception:
                log.exception("the tournaments' keeper failed")

    async def _keep(self) -> None:
        ids = {tid: lease_id(tid) for tid in self.held}
        for lost in await self.leases.renew(list(ids.values())):
            tid = lost.removeprefix("t:")
            log.warning("tournament %s: its direction went to another node", tid)
            self.held.discard(tid)
        going = await self.store.read(
            lambda c: rows_of(c, tournaments_table, tournaments_table.c.status != "finished")
        )
        by_id = {t["id"]: t for t in going}
        for tid in [t for t in self.held if t not in by_id]:  # finished: let it go
            self.held.discard(tid)
            await self.leases.release(lease_id(tid))
        self._rounds += 1
        if self._rounds % LOOK_EVERY == 0:
            for tid in self.held:
                if by_id[tid]["status"] == "running":
                    self.director.background.spawn(self._advance_locked(tid))
        free = await self.leases.free([lease_id(t) for t in by_id if t not in self.held])
        for lid in free:
            tid = lid.removeprefix("t:")
            if await self.leases.claim(lid):
                self.held.add(tid)
                self.taken += 1
                log.info("tournament %s: directed by node %s", tid, self.leases.node)
                await self.director.resume_one(by_id[tid])
                await self._tell_again(tid)

    async def _tell_again(self, tid: str) -> None:
        """Tells the players of the tournament's games under way of them again: the old
        director may have died after creating a game and before its announcement left
        (a bot whose stream stayed open would never hear of it; one that reconnects hears
        of its games under way anyway)."""
        if self.tell_again is None:
            return
        _, _, rows = await self.director.load(tid)
        for row in rows:
            if row["finished_at"] is None and row["game_id"] is not None:
                pairing = Pairing(tid, row["game_id"], row["round"], tuple(row["players"]))
                try:
                    await self.tell_again(pairing)
                except Exception:
                    log.exception("tournament %s: cannot tell of game %s", tid, row["game_id"])

    async def stop(self) -> None:
        for tid in list(self.held):
            self.held.discard(tid)
            await self.leases.release(lease_id(tid))
