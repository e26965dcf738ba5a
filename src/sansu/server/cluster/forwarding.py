"""Forwarding to a game's judge: the calls that change a game, run where the game is judged.

A node that does not judge a game hands the call (a move, a resignation, a
takeback, an offer or its answer, a rematch, a join) to the node that does, over
the fanout's requests, and answers its own client once its copy has the judge's
news; the judging node runs it as a single server would. A judge with no client
of the game, asked by a node that has some, hands the game over instead: the
asking node judges it from then on (:meth:`~sansu.server.cluster.node.Cluster.hand_over`).
:class:`Forwarding` is mixed into :class:`~sansu.server.cluster.node.Cluster`,
whose leases, fanout, copies and local calls it uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from redis.exceptions import RedisError
from sqlalchemy import select

from sansu.server.accounts import SignedIn, Who, get_user
from sansu.server.base import ApiError
from sansu.server.base import games as games_table
from sansu.server.play import LiveGame

log = logging.getLogger("sansu.server")

ROUTED = (
    *("play", "resign", "abort", "claim", "take_back"),
    *("offer", "answer_offer", "offer_rematch", "decline_rematch"),
)
"""The service's calls ``(game_id, who, *args)`` that change a game: run by its judge."""
MEET = "meet"
"""The call of a node where a player's socket opened: nothing but the judge's hand-over
if it has no client of the game."""
ELSEWHERE = "judged_elsewhere"
"""The error of a node asked to change a game that another node judges."""


def encode_who(who: Who) -> Any:
    if isinstance(who, SignedIn):
        return {"u": who.user_id, "t": who.token}
    return who


def decode_who(data: Any) -> Who:
    if isinstance(data, dict):
        return SignedIn(int(data["u"]), data.get("t"))
    return data if isinstance(data, str) else None


def refused(reply: dict[str, Any]) -> ApiError:
    error = reply["error"]
    return ApiError(int(error.get("status", 500)), str(error["code"]), str(error["message"]))


class Forwarding:
    """The node's side of forwarding: routing its service's calls, answering others'."""

    def _routed(self, name: str) -> Callable[..., Awaitable[LiveGame]]:
        async def routed(game_id: str, who: Who, *args: Any) -> LiveGame:
            reply = await self._judged(
                game_id,
                lambda: self._run(name, game_id, who, args),
                {"op": name, "g": game_id, "who": encode_who(who), "args": list(args)},
            )
            if isinstance(reply, LiveGame):
                return reply
            await self.sync(game_id, upto=reply.get("seq"))  # its news came first, as a rule
            return await self.rounds.get(str(reply["game"]))

        return routed

    async def join(
        self,
        game_id: str,
        seat: int | None = None,
        name: str | None = None,
        token: str | None = None,
        user: Any = None,
    ) -> tuple[LiveGame, int, str]:
        """Takes a seat, on the judging node."""
        request = {
            "op": "join",
            "g": game_id,
            "args": [seat, name, token, None if user is None else user.id],
        }
        reply = await self._judged(
            game_id, lambda: self._local["join"](game_id, seat, name, token, user), request
        )
        if isinstance(reply, tuple):
            return reply
        await self.sync(game_id, upto=reply.get("seq"))
        live = await self.rounds.get(game_id)
        return live, int(reply["seat"]), str(reply["token"])

    async def get(self, game_id: str) -> LiveGame:
        """The game as stored now: a copy of a game judged elsewhere is brought up to the
        stored event number first (so a client coming from another node never gets an
        older state than it had); only that number is read, unless news went missing."""
        if game_id in self.rounds.games and game_id not in self.held:
            stored = await self.service.store.read(
                lambda c: c.execute(
                    select(games_table.c.seq).where(games_table.c.id == game_id)
                ).scalar()
            )
            if stored is not None:
                await self.sync(game_id, upto=int(stored))
        return await self._local["get"](game_id)

    async def create(self, *args: Any, **kwargs: Any) -> Any:
        """Creates a game; its creating node judges it."""
        created = await self._local["create"](*args, **kwargs)
        await self._judge_new(created[0].id)
        return created

    async def _run(self, name: str, game_id: str, who: Who, args: Any) -> LiveGame:
        live = await self._local[name](game_id, who, *args)
        if live.id != game_id and live.status == "active":  # a rematch: judged here too
            await self._judge_new(live.id)
        return live

    async def _judge_new(self, game_id: str) -> None:
        """A game created here is judged here (or, failing that, followed as a copy)."""
        with contextlib.suppress(RedisError, ApiError):
            await self.take(game_id)
        await self._copy_of(game_id)

    async def _judged(
        self, game_id: str, here: Callable[[], Awaitable[Any]], request: dict[str, Any]
    ) -> Any:
        """Runs ``here`` if this node judges (or can judge) the game, else asks its judge
        (the one that answered last time at once, without asking Redis who it is; the
        lease decides again if it no longer judges); waits out a dead judge's lease."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.leases.lease_ms / 1000 + 4.0
        request["sockets"] = bool(self.service.hub.connections.get(game_id))
        handed = False
        while True:
            judge = None if game_id in self.held else self.judge_of.pop(game_id, None)
            known = judge is not None
            if not known:
                if await self.take(game_id):
                    return await here()
                try:
                    judge = await self.leases.holder(game_id)
                except RedisError as error:
                    log.warning("game %s: no lease: %s", game_id, error)
                    raise ApiError(
                        503, "cluster_unavailable", "the cluster is unavailable"
                    ) from None
            if judge is not None and judge != self.node:
                self.forwarded += 1
                try:
                    reply = await self.fanout.ask(judge, request)
                except TimeoutError:
                    reply = None
                moved = reply is not None and reply.get("error", {}).get("code") == ELSEWHERE
                if reply is not None and not moved:
                    self.judge_of[game_id] = judge
                    if "error" in reply:
                        raise refused(reply)
                    return reply
                if known:
                    continue  # who judges now: the lease says, at once
                if moved and not handed:
                    handed = True  # the judge may have handed the game over: take it now
                    continue
            if loop.time() > give_up:
                raise ApiError(503, "judge_unavailable", "the game's judge does not answer")
            await asyncio.sleep(0.25)

    async def _leaves_to_asker(self, game_id: str, request: dict[str, Any]) -> bool:
        """The asking node has clients of the game and this one none: the asker judges
        it (this node hands it over if it judged it)."""
        if not request.get("sockets") or self.service.hub.connections.get(game_id):
            return False
        return game_id not in self.held or await self.hand_over(game_id)

    async def _request(self, request: dict[str, Any]) -> dict[str, Any]:
        """Answers another node's forwarded request, if this node judges the game."""
        game_id = str(request["g"])
        self.fanout.heard(game_id)  # the asker keeps a copy: its news go out
        if await self._leaves_to_asker(game_id, request):
            raise ApiError(503, ELSEWHERE, "the game is judged where its clients are")
        if not await self.take(game_id):
            raise ApiError(503, ELSEWHERE, "another node judges this game; try again")
        if request["op"] == MEET:
            return {"game": game_id, "seq": None}
        self.answered += 1
        args = list(request.get("args") or [])
        if request["op"] == "join":
            seat, name, token, user_id = args
            user = None
            if user_id is not None:
                user = await self.service.store.read(lambda c: get_user(c, int(user_id)))
            live, taken, seat_token = await self._local["join"](game_id, seat, name, token, user)
            return {"game": live.id, "seat": taken, "token": seat_token, "seq": live.seq}
        if request["op"] not in ROUTED:
            raise ApiError(400, "bad_request", "unknown forwarded call")
        live = await self._run(request["op"], game_id, decode_who(request.get("who")), args)
        asked = self.rounds.games.get(game_id)
        return {"game": live.id, "seq": None if asked is None else asked.seq}
