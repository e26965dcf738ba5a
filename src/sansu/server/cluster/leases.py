"""Leases in Redis: which node of a cluster judges each game being played.

A lease is a key ``sansu:lease:GAME`` holding the judging node's id, with an
expiry (``PX``) the node renews while it keeps the game. A node that dies
stops renewing; its leases expire and another node claims them. A lease only
says who *should* judge: safety comes from the fence in the database (a
change is committed only over the state it was made from), so a node that
lost its lease without knowing it can never commit over its successor.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from redis.asyncio import Redis
from redis.exceptions import RedisError

log = logging.getLogger("sansu.server")

LEASE_MS = 4000
"""A lease's life: how long a dead node's games wait before another node takes them."""
RENEW_EVERY = 1.0
"""Seconds between two renewals of every lease this node holds."""

# For each key given: ours already, extend it; free, take it; someone else's, refuse.
# Answers the positions (from 1) of the keys refused.
_CLAIM = """
local lost = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('GET', key)
  if v == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2])
  elseif not v then redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else lost[#lost + 1] = i end
end
return lost
"""
RENEW_AT_ONCE = 1000
"""Leases renewed by one script call: a call holds Redis's one thread for its length."""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def lease_key(game_id: str) -> str:
    return f"sansu:lease:{game_id}"


class Leases:
    """This node's leases: claim, renew, release, and who holds a game's lease."""

    def __init__(self, redis: Redis, node: str, *, lease_ms: int = LEASE_MS) -> None:
        self.redis = redis
        self.node = node
        self.lease_ms = lease_ms
        self._claim = redis.register_script(_CLAIM)
        self._release = redis.register_script(_RELEASE)

    async def claim(self, game_id: str) -> bool:
        """Takes (or extends) the lease of ``game_id``; false when another node holds it."""
        refused = await self._claim(keys=[lease_key(game_id)], args=[self.node, self.lease_ms])
        return not refused

    async def renew(self, game_ids: Iterable[str]) -> set[str]:
        """Renews (or takes, where free) the leases of ``game_ids``, a thousand to a script
        call (one call per lease, even pipelined, cost the node far more); returns those
        another node holds now."""
        ids = list(game_ids)
        lost: set[str] = set()
        for start in range(0, len(ids), RENEW_AT_ONCE):
            chunk = ids[start : start + RENEW_AT_ONCE]
            refused = await self._claim(
                keys=[lease_key(g) for g in chunk], args=[self.node, self.lease_ms]
            )
            lost.update(chunk[int(i) - 1] for i in refused)
        return lost

    async def release(self, game_id: str) -> None:
        try:
            await self._release(keys=[lease_key(game_id)], args=[self.node])
        except RedisError as error:
            log.warning("game %s: its lease could not be released: %s", game_id, error)

    async def holder(self, game_id: str) -> str | None:
        """The node holding the lease of ``game_id`` (``None``: free)."""
        value = await self.redis.get(lease_key(game_id))
        return value.decode() if isinstance(value, bytes) else value

    async def free(self, game_ids: list[str]) -> list[str]:
        """Those of ``game_ids`` whose lease nobody holds (one round trip)."""
        if not game_ids:
            return []
        values = await self.redis.mget([lease_key(g) for g in game_ids])
        return [g for g, v in zip(game_ids, values, strict=True) if v is None]
