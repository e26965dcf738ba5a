"""An account's event stream on its own: what it opens with, and what comes meanwhile."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from sansu.server.lobby.streams import EventStreams


def test_events_sent_while_the_opening_is_read_arrive_once() -> None:
    streams = EventStreams()
    start = {"type": "gameStart", "game": {"id": "g1"}}
    offer = {"type": "challenge", "challenge": {"id": "c1"}}
    later = {"type": "challenge", "challenge": {"id": "c2"}}

    async def opening() -> list[dict[str, Any]]:
        assert streams.online(7)  # listening already
        streams.send(7, start)  # the game starts while the opening is read ...
        streams.send(7, offer)  # ... and a challenge comes
        return [start]  # the reading saw the game, not yet the challenge

    async def scenario() -> list[dict[str, Any]]:
        stream = streams.stream(7, opening)
        got = [json.loads(await anext(stream)) for _ in range(2)]
        streams.send(7, later)
        streams.send(7, start)  # sent again later: a new event, not the opening's copy
        got += [json.loads(await anext(stream)) for _ in range(2)]
        await stream.aclose()
        return got

    assert asyncio.run(scenario()) == [start, offer, later, start]
    assert not streams.online(7)  # the closed stream stopped listening
