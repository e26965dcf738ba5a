"""One node of a cluster: several servers on one PostgreSQL database and one Redis.

Each game being played has one **judging node**, the holder of its lease
(:mod:`~sansu.server.cluster.leases`): only the judge changes the game, runs its
clocks and its computer. Another node keeps, for its own clients, a copy of
the game that it brings up to date with the judge's news of each change
(:mod:`~sansu.server.cluster.fanout`, :mod:`~sansu.server.cluster.news`), reading the
database only to fill a gap, and hands their moves, resignations and joins
to the judge (or becomes the judge when the lease is free).

The database is the truth and the fence: every commit is conditional on the
event number it was made from (``UPDATE games ... WHERE seq = N``), so a
node that lost its lease without knowing it cannot commit; it then drops its
judging and refreshes its copy. A sweeper takes over the games with a
running clock or a computer to move whose lease is free (their judge died).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError
from sqlalchemy import Connection, select, update

from sansu.server.base import ApiError, Background, Fenced
from sansu.server.base import games as games_table
from sansu.server.cluster.fanout import Fanout
from sansu.server.cluster.forwarding import ELSEWHERE, MEET, ROUTED, Forwarding
from sansu.server.cluster.leases import LEASE_MS, RENEW_EVERY, Leases
from sansu.server.cluster.news import apply_news, news_of
from sansu.server.play import Event, GameService, LiveGame, games_needing_server, stored_seq

log = logging.getLogger("sansu.server")

KEEP_ON_REFRESH = frozenset({"lock", "events", "touched"})
REDIS_CONNECTIONS = 100
"""Connections a node opens to Redis at most (its calls beyond wait for one)."""


class Cluster(Forwarding):
    """Leases, fences, news and forwarding for one node, hooked into the game service."""

    def __init__(
        self,
        service: GameService,
        redis_url: str,
        *,
        node: str | None = None,
        lease_ms: int = LEASE_MS,
        renew_every: float = RENEW_EVERY,
    ) -> None:
        self.service = service
        self.rounds = service.rounds
        self.node = node or uuid.uuid4().hex[:12]
        # A burst of calls waits for a free connection rather than failing (the plain
        # pool refuses its 101st call at once: "Too many connections").
        self.redis = Redis.from_pool(
            BlockingConnectionPool.from_url(
                redis_url,
                max_connections=REDIS_CONNECTIONS,
                timeout=2.0,
                socket_timeout=2.0,
                socket_connect_timeout=2.0,
            )
        )
        self.leases = Leases(self.redis, self.node, lease_ms=lease_ms)
        self.fanout = Fanout(self.redis, self.node, self._news, self._request, self._resync)
        self.renew_every = renew_every
        self.held: set[str] = set()
        """Games this node judges. The copies of the others are as up to date as what
        this node's clients were sent: ``live.seq`` is the last event number they had."""
        self.judge_of: dict[str, str] = {}
        """The node that last answered for each game judged elsewhere."""
        self._syncing: dict[str, asyncio.Lock] = {}
        self._local: dict[str, Callable[..., Awaitable[Any]]] = {}
        self.background = Background()
        self.takeovers = 0
        self.handovers = 0
        """Games this node stopped judging for a node where their players are."""
        self.forwarded = 0
        """Calls this node sent to another node's game (each try)."""
        self.answered = 0
        """Calls of other nodes this node ran for its games."""
        self.applied = 0
        """News applied to a copy in memory."""
        self.reads = 0
        """Copies refreshed from the store (a gap in the news, a lost lease, a takeover)."""

    # -- wiring ------------------------------------------------------------------------

    def install(self) -> None:
        """Hooks this node into the service: the rounds' commits and the calls that change games."""
        self.rounds.judge = self
        for name in (*ROUTED, "join", "create", "get"):
            self._local[name] = getattr(self.service, name)
        for name in ROUTED:
            setattr(self.service, name, self._routed(name))
        self.service.join = self.join
        self.service.create = self.create
        self.service.get = self.get
        self.service.reports["cluster"] = self.report
        self._add_socket = self.service.hub.add
        self.service.hub.add = self._socket_opened  # type: ignore[method-assign]

    def _socket_opened(self, live: LiveGame, connection: Any) -> None:
        """A player's socket on a game judged elsewhere: ask the judge now for the game
        (:meth:`hand_over`), so that the player's first move here is not forwarded."""
        self._add_socket(live, connection)
        if connection.seats and live.status == "active" and live.id not in self.held:
            self.background.spawn(self._meet(live.id))

    async def _meet(self, game_id: str) -> None:
        async def judged_here() -> None:
            return None

        with contextlib.suppress(ApiError, RedisError):
            await self._judged(game_id, judged_here, {"op": MEET, "g": game_id})

    def report(self) -> dict[str, Any]:
        """This node's part in ``/api/health``: its id and what it did since it started."""
        return {
            "node": self.node,
            "judging": len(self.held),
            "forwarded": self.forwarded,
            "answered": self.answered,
            "handovers": self.handovers,
            "takeovers": self.takeovers,
            "following": len(self.fanout.following),
            "news_received": self.fanout.received,
            "news_skipped": self.fanout.skipped,
            "news_quiet": len(self.fanout.quiet),
            "news_applied": self.applied,
            "store_reads": self.reads,
        }

    async def start(self) -> None:
        self.background.spawn(self.fanout.run())
        self.background.spawn(self._keep())

    async def stop(self) -> None:
        await self.background.stop()
        await self.fanout.stop()
        for game_id in list(self.held):
            await self.leases.release(game_id)
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- the rounds' hooks (see Rounds.commit) ------------------------------------------

    def judges(self, game_id: str) -> bool:
        return game_id in self.held

    async def before_commit(self, live: LiveGame) -> None:
        """Only the judge commits: a node takes a free lease, else the change is refused."""
        if live.id in self.held:
            return
        try:
            if await self.leases.claim(live.id):
                self._judge(live.id)
                return
        except RedisError as error:
            log.warning("game %s: no lease: %s", live.id, error)
            raise ApiError(503, "cluster_unavailable", "the cluster is unavailable") from None
        raise ApiError(503, ELSEWHERE, "another node judges this game; try again")

    @staticmethod
    def fence(game_id: str, seen: int, new: int) -> Callable[[Connection], None]:
        """A write that refuses the commit unless the stored game is still at event ``seen``
        (the rounds' commits fence the same way, merged per batch: ``Rows.fence``)."""

        def check(c: Connection) -> None:
            done = c.execute(
                update(games_table)
                .where(games_table.c.id == game_id, games_table.c.seq == seen)
                .values(seq=new)
            )
            if done.rowcount != 1:
                raise Fenced(game_id)

        return check

    def committed(self, live: LiveGame, events: list[Event]) -> None:
        if not self.fanout.unheard(live.id):
            self.fanout.announce(news_of(live, events))

    async def loading(self, game_id: str) -> None:
        """A copy of a game judged elsewhere follows its news from before it is read."""
        if game_id not in self.held:
            await self.fanout.follow(game_id)

    def unloaded(self, game_id: str) -> None:
        self.fanout.unfollow(game_id)

    def lost(self, live: LiveGame) -> None:
        """A commit failed: maybe another node committed first. Judge no more; refresh."""
        self._drop(live.id)
        self.background.spawn(self.leases.release(live.id))

    # -- judging -----------------------------------------------------------------------

    def _judge(self, game_id: str) -> None:
        """This node judges the game from now on: it makes the news, it needs none."""
        self.held.add(game_id)
        self.fanout.unfollow(game_id)

    def _unjudge(self, game_id: str) -> None:
        """This node judges the game no more: its clock runs elsewhere."""
        self.held.discard(game_id)
        timer = self.service.timekeeper.timers.pop(game_id, None)
        if timer is not None:
            timer.cancel()

    async def _copy_of(self, game_id: str) -> None:
        """A game this node stopped judging, still in memory, follows the news again."""
        if game_id in self.rounds.games and game_id not in self.held:
            await self.fanout.follow(game_id)

    def _drop(self, game_id: str) -> None:
        if game_id in self.held:
            self._unjudge(game_id)
        self.background.spawn(self._refresh(game_id))

    async def _refresh(self, game_id: str) -> None:
        await self._copy_of(game_id)
        await self.sync(game_id)

    async def take(self, game_id: str) -> bool:
        """Becomes the judge of ``game_id`` if its lease is free (or ours); true if judging."""
        if game_id in self.held:
            return True
        try:
            if not await self.leases.claim(game_id):
                return False
        except RedisError:
            return False
        self._judge(game_id)
        self.takeovers += 1
        live = self.rounds.games.get(game_id)
        try:
            if live is None:
                await self.rounds.get(game_id)  # loading starts its clocks and computer
            else:
                async with self._syncing.setdefault(game_id, asyncio.Lock()):
                    await self._catch_up(live)
                self.rounds.changed(live)
        except BaseException:
            self.held.discard(game_id)
            await self.leases.release(game_id)
            self.background.spawn(self._copy_of(game_id))
            raise
        return True

    async def hand_over(self, game_id: str) -> bool:
        """Stops judging ``game_id`` if no client here watches it, so that the node asking
        for it, where its players are, judges it instead; true if it let go.

        The judge follows the players: behind a load balancer that sends every request
        of a game to one node (``deploy/nginx/upstream-cluster.conf`` hashes the game id),
        the node that created a game hands it over when its players' sockets open on
        their node (:meth:`_socket_opened`), and no move of it is forwarded. Only a node
        with clients of the game asks for it, and a node with clients keeps it, so a game
        settles where its sockets are."""
        live = self.rounds.games.get(game_id)
        if live is None or game_id not in self.held or self.service.hub.connections.get(game_id):
            return False
        async with live.lock:  # no commit of this node is under way when it lets go
            if game_id not in self.held or self.service.hub.connections.get(game_id):
                return False
            self._unjudge(game_id)
            await self.leases.release(game_id)
        self.handovers += 1
        if not self.rounds.evict(game_id, active=True):  # nobody here needs its copy
            self.background.spawn(self._copy_of(game_id))  # unless a search pins it
        return True

    async def _catch_up(self, live: LiveGame, *, judging: bool = True) -> None:
        """Brings the copy ``live`` up to the database's state, in place (sockets hold it),
        and sends this node's clients the events they have not had (under the sync lock).

        It holds the game's lock too: a commit of this node still under way (begun
        while it judged the game, which it may have stopped doing since) ends first,
        so its events are not sent once by the commit and again from the store."""
        game_id = live.id
        async with live.lock:
            since = live.seq
            stored = await self.service.store.read(lambda c: stored_seq(c, game_id))
            if stored is not None and stored <= since:
                return  # nothing new: the game is not read and rebuilt
            self.reads += 1
            fresh = await asyncio.to_thread(self.rounds.load, game_id)
            if fresh.seq <= since:
                return
            events = await self.service.event_log.events_since(fresh, since)
            if self.rounds.games.get(game_id) is not live or (game_id in self.held) != judging:
                return
            self._copy(live, fresh)  # no await from here on: nobody sees a half-sent change
            live.events.extend(events)
            for event in events:
                shown = live
                if event.position and event.state < live.version:
                    shown = self._past(live, event.state) or live
                self.service.hub.publish(shown, [event])

    @staticmethod
    def _past(live: LiveGame, version: int) -> LiveGame | None:
        """The game as it was at state ``version`` (for an older event sent with its
        position, when news of several changes arrives at once); ``None`` if unknown."""
        try:
            moves = [m for m in live.moves if m.state <= version]
            state = live.game.initial_state()
            for m in moves:
                state = state.play(m.text)
            return dataclasses.replace(
                live,
                state=state,
                moves=moves,
                version=version,
                status="active",
                result=None,
                termination=None,
                finished_at=None,
            )
        except Exception:
            return None

    @staticmethod
    def _copy(live: LiveGame, fresh: LiveGame) -> None:
        for f in dataclasses.fields(fresh):
            if f.name not in KEEP_ON_REFRESH:
                setattr(live, f.name, getattr(fresh, f.name))
        live.events.clear()

    # -- the copies of the games other nodes judge -------------------------------------

    async def sync(self, game_id: str, *, watched: bool = False, upto: int | None = None) -> None:
        """Refreshes this node's copy of a game judged elsewhere from the store and sends
        its clients the events they have not had, in order, each once. ``watched``: only
        if a client here watches it (the others are refreshed when asked for, by
        :meth:`get`); ``upto``: only if the copy is not yet at that event number (the
        news under way are applied first)."""
        lock = self._syncing.setdefault(game_id, asyncio.Lock())
        async with lock:
            live = self.rounds.games.get(game_id)
            if live is None or game_id in self.held:
                return
            if watched and not self.service.hub.connections.get(game_id):
                return
            if upto is not None and live.seq >= upto:
                return
            await self._catch_up(live, judging=False)

    async def _follow(self, news: dict[str, Any]) -> None:
        """Applies a judge's news to this node's copy and sends its clients the events;
        reads the store instead when the news does not follow on from the copy."""
        game_id = str(news["g"])
        async with self._syncing.setdefault(game_id, asyncio.Lock()):
            live = self.rounds.games.get(game_id)
            if live is None or game_id in self.held or int(news["seq"]) <= live.seq:
                return
            events = apply_news(live, news)
            if events is None:
                log.info("game %s: a gap in the news at %d; reading the store", game_id, live.seq)
                await self._catch_up(live, judging=False)
                return
            self.applied += 1
            self.service.hub.publish(live, events)

    async def _check_copies(self, *, every: bool = False) -> None:
        """Catches up the watched copies (``every``: all copies) whose stored game moved on
        without news reaching this node (the last news lost while Redis was away), and
        stops judging a game another node committed (this node missed that it lost it)."""
        copies = self.rounds.games if every else self.service.hub.connections
        watched = [g for g in copies if g not in self.held]
        watched += [g for g in self.held if g in self.rounds.games]
        if not watched:
            return
        stored = await self.service.store.read(
            lambda c: dict(
                c.execute(
                    select(games_table.c.id, games_table.c.seq).where(games_table.c.id.in_(watched))
                ).all()
            )
        )
        for game_id, seq in stored.items():
            live = self.rounds.games.get(game_id)
            if live is None:
                continue
            if game_id in self.held:
                if seq > live.seq and not live.lock.locked():
                    log.warning("game %s: committed elsewhere while judged here", game_id)
                    self._drop(game_id)
            elif seq > live.seq:
                await self.sync(game_id, watched=not every, upto=seq)

    def _news(self, news: dict[str, Any]) -> None:
        game_id = str(news["g"])
        if game_id in self.held:
            node = news.get("node")
            log.warning("game %s: node %s committed while this node judged it", game_id, node)
            self._drop(game_id)
        elif game_id in self.rounds.games:
            self.background.spawn(self._follow(news))

    def _resync(self) -> None:
        """After (re)connecting to Redis: catch up on the news that may have been missed
        (one read of the stored event numbers, then the store for the copies behind)."""
        self.background.spawn(self._resync_copies())

    async def _resync_copies(self) -> None:
        try:
            await self._check_copies(every=True)
        except Exception:
            log.exception("cannot catch up after reconnecting to Redis")

    # -- leases: renewing, sweeping ----------------------------------------------------

    async def _keep(self) -> None:
        """Renews this node's leases, lets go of games gone from memory, and takes over
        the games in play whose judge is gone."""
        while True:
            await asyncio.sleep(self.renew_every)
            try:
                for game_id in [g for g in self.held if g not in self.rounds.games]:
                    self.held.discard(game_id)
                    await self.leases.release(game_id)
                for game_id in [g for g in self.judge_of if g not in self.rounds.games]:
                    del self.judge_of[game_id]
                for game_id, lock in list(self._syncing.items()):
                    if game_id not in self.rounds.games and not lock.locked():
                        del self._syncing[game_id]
                for game_id in await self.leases.renew(list(self.held)):
                    log.warning("game %s: its lease went to another node", game_id)
                    self._drop(game_id)
                await self._sweep()
                await self._check_copies()
                await self.fanout.probe(self.held)
            except (RedisError, OSError) as error:
                log.warning("cannot renew the leases: %s", error)
            except Exception:
                log.exception("the lease keeper failed")

    async def _sweep(self) -> None:
        ids = await self.service.store.read(games_needing_server)
        for game_id in await self.leases.free([g for g in ids if g not in self.held]):
            try:
                if await self.take(game_id):
                    log.info("game %s: taken over by node %s", game_id, self.node)
            except ApiError as error:
                log.warning("game %s: cannot take it over: %s", game_id, error.message)
