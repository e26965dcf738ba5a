"""Each tournament pairing announced on the seated accounts' event streams.

When a tournament creates a game, every seated account hears
``tournamentPairing`` and then a ``gameStart`` carrying the tournament's id,
so a bot plays it exactly like a game it got by a challenge (docs/bots.md).
The composition root hangs the announcer on ``Tournaments.on_pairing``; a
node of a cluster uses it too, to tell of a game again.
"""

from __future__ import annotations

from sqlalchemy import Connection

from sansu.server.accounts import User, get_user
from sansu.server.lobby import EventStreams, account_json, game_start
from sansu.server.play import GameService
from sansu.server.tournaments import Pairing, PairingListener


def pairing_announcer(
    service: GameService, streams: EventStreams, *, with_pairing: bool = True
) -> PairingListener:
    """A ``Tournaments.on_pairing`` listener: tells each seated account of its new game.
    ``with_pairing=False``: the ``gameStart`` only, as a reconnecting stream gets it (to tell
    of a game again)."""

    async def announce(pairing: Pairing) -> None:
        ids = list(dict.fromkeys(pairing.players))

        def read(c: Connection) -> dict[int, User]:
            return {uid: u for uid in ids if (u := get_user(c, uid)) is not None}

        accounts = await service.store.read(read)
        live = await service.get(pairing.game_id)
        table = [account_json(accounts[uid]) for uid in pairing.players if uid in accounts]
        for uid, user in accounts.items():
            if with_pairing:
                streams.send(
                    uid,
                    {
                        "type": "tournamentPairing",
                        "tournament": {
                            "id": pairing.tournament_id,
                            "round": pairing.round,
                            "game_id": pairing.game_id,
                            "players": table,
                        },
                    },
                )
            opponent = next((accounts[o] for o in ids if o != uid and o in accounts), user)
            streams.send(uid, game_start(live, user, opponent, None))

    return announce
