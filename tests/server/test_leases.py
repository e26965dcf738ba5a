"""Leases in a real Redis: renewing extends a node's own, takes the free ones and reports
the ones another node holds, however many are renewed at once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from redis.asyncio import Redis as Client

from sansu.server.cluster.leases import RENEW_AT_ONCE, Leases, lease_key
from tests.server.test_cluster import Redis


def test_renewing_extends_takes_and_reports_the_lost(tmp_path: Path) -> None:
    redis = Redis(tmp_path)
    redis.start()

    async def run() -> None:
        client = Client.from_url(redis.url)
        try:
            mine, theirs = Leases(client, "a", lease_ms=4000), Leases(client, "b", lease_ms=4000)
            many = [f"g{i}" for i in range(2 * RENEW_AT_ONCE + 7)]  # three script calls
            for game in many[:5]:
                assert await mine.claim(game)
            taken = {many[3], many[RENEW_AT_ONCE + 1], many[-1]}  # one in each call
            for game in taken:
                await client.delete(lease_key(game))
                assert await theirs.claim(game)
            await client.pexpire(lease_key(many[0]), 50)  # about to expire: renewed

            assert await mine.renew(many) == taken
            for game in many:
                assert await mine.holder(game) == ("b" if game in taken else "a"), game
            assert await client.pttl(lease_key(many[0])) > 3000
            assert await mine.renew([]) == set()
            assert not await mine.claim(many[3])
        finally:
            await client.aclose()

    try:
        asyncio.run(run())
    finally:
        redis.kill()
