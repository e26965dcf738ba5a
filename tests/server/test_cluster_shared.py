"""What a cluster's nodes share besides the games, on loopback: one PostgreSQL, one Redis
and three ``sansu serve --redis`` nodes (started as in ``test_cluster.py``), with the
clients of every check spread over the nodes.

- presence made on one node is shown to the clients of every node, as on one server;
- a challenge made on one node reaches the bot whose event stream is on another, and
  the game it starts is announced on both bots' streams;
- seeks and quick pairing: posted, listed, accepted and paired through different nodes,
  each pair made once;
- a Swiss tournament between bots spread over the nodes, its directing node killed
  with SIGKILL in the second round: every round paired once, every pairing's game
  created once, every game rated once.

Rate limits counted in Redis by two limiters (two nodes) are checked apart, on Redis only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.sync.client import ClientConnection, connect

from sansu.server.accounts.login_limits import LoginLimiter
from sansu.server.base.errors import ApiError
from sansu.server.base.ratelimit import Limiter, RateLimits, shared_storage
from sansu.server.cluster.shared import login_storage
from tests.server.bots_fixtures import Account, bot
from tests.server.conftest import pick
from tests.server.test_cluster import Node, Redis
from tests.server.test_crash import auth

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")

TC = {"initial_seconds": 300, "increment_seconds": 0}
PLIES = 4
"""Moves of a tournament game before the bot on move resigns (a short game)."""


def until(
    check: Callable[[], Any],
    seconds: float = 8.0,
    what: str = "",
    explain: Callable[[], str] = str,
) -> Any:
    """``check()``'s first true answer, asked every 0.1 s for up to ``seconds``."""
    end = time.monotonic() + seconds
    while True:
        answer = check()
        if answer:
            return answer
        assert time.monotonic() < end, f"not within {seconds} s: {what} {explain()}"
        time.sleep(0.1)


def alive(nodes: list[Node]) -> list[Node]:
    return [n for n in nodes if not n.dead]


# -- presence ---------------------------------------------------------------------------


def presence_of(ws: ClientConnection, expected: dict[str, Any], seconds: float = 8.0) -> None:
    """Reads ``ws`` until its latest presence is ``expected``."""
    end = time.monotonic() + seconds
    last = None
    while time.monotonic() < end:
        try:
            message = json.loads(ws.recv(timeout=0.2))
        except TimeoutError:
            continue
        if message["type"] == "presence":
            last = {k: message[k] for k in ("seats", "spectators")}
            if last == expected:
                return
    raise AssertionError(f"presence {last} instead of {expected}")


def check_presence(nodes: list[Node]) -> None:
    r = httpx.post(f"{nodes[0].url}/api/games", json={"game": "uttt"})
    assert r.status_code == 201, r.text
    gid, first = r.json()["id"], r.json()["token"]
    r = httpx.post(f"{nodes[1].url}/api/games/{gid}/join", json={"seat": 1})
    assert r.status_code == 200, r.text
    second = r.json()["token"]

    def ws(node: Node, token: str | None) -> ClientConnection:
        headers = auth(token) if token else None
        url = f"ws://127.0.0.1:{node.port}/api/games/{gid}/ws"
        return connect(url, additional_headers=headers, open_timeout=5)

    with contextlib.ExitStack() as stack:
        seat0, seat1, spectator = (
            stack.enter_context(ws(n, t))
            for n, t in ((nodes[0], first), (nodes[1], second), (nodes[2], None))
        )
        everyone = {"seats": [True, True], "spectators": 1}
        for client in (seat0, seat1, spectator):
            presence_of(client, everyone)
        seat1.close()  # the second player leaves node 1
        without = {"seats": [True, False], "spectators": 1}
        presence_of(seat0, without)
        presence_of(spectator, without)
        # a node with no socket on the game answers the same presence over HTTP
        shown = httpx.get(f"{nodes[1].url}/api/games/{gid}").json()["presence"]
        assert {k: shown[k] for k in ("seats", "spectators")} == without


# -- bots' event streams and challenges --------------------------------------------------


class Stream(threading.Thread):
    """A bot's event stream, on one node and then the next when its node goes."""

    def __init__(self, account: Account, nodes: list[Node], first: int) -> None:
        super().__init__(daemon=True)
        self.account, self.nodes, self.index = account, nodes, first
        self.events: list[dict[str, Any]] = []
        self.stop = threading.Event()
        self.connections = 0
        self.refusals: list[str] = []

    def run(self) -> None:
        assert self.account.token is not None
        while not self.stop.is_set():
            node = self.nodes[self.index % len(self.nodes)]
            self.index += 1
            if node.dead:
                continue
            try:
                with httpx.stream(
                    "GET",
                    f"{node.url}/api/bot/stream/events",
                    headers=auth(self.account.token),
                    timeout=httpx.Timeout(5, read=10),
                ) as r:
                    if r.status_code != 200:
                        self.refusals.append(f"{r.status_code} {r.read()[:200]!r}")
                        time.sleep(0.2)
                        continue
                    self.connections += 1
                    for line in r.iter_lines():
                        if self.stop.is_set():
                            return
                        if line.strip():
                            self.events.append(json.loads(line))
            except (httpx.HTTPError, ValueError):
                time.sleep(0.1)

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in list(self.events) if e["type"] == kind]


def check_bots(nodes: list[Node], tag: str) -> None:
    alpha, beta = bot(nodes[0].url, f"alpha{tag}"), bot(nodes[1].url, f"beta{tag}")
    streams = [Stream(alpha, nodes, 0), Stream(beta, nodes, 1)]  # on nodes 0 and 1
    for s in streams:
        s.start()
    try:

        def online() -> bool:
            listed = httpx.get(f"{nodes[2].url}/api/bots").json()["bots"]
            return {b["name"] for b in listed if b["online"]} >= {alpha.name, beta.name}

        until(online, what="both bots online on node 2")
        # alpha challenges beta through node 2; beta hears of it on node 1
        r = alpha.api.post(f"{nodes[2].url}/api/challenge/{beta.name}", json={"game": "uttt"})
        assert r.status_code == 201, r.text
        cid = r.json()["id"]
        until(lambda: any(e["challenge"]["id"] == cid for e in streams[1].of("challenge")))
        # beta accepts through node 0: both streams hear the game start
        r = beta.api.post(f"{nodes[0].url}/api/bot/challenge/{cid}/accept")
        assert r.status_code == 200, r.text
        for s in streams:
            until(lambda s=s: s.of("challengeAccepted") and s.of("gameStart"), what="gameStart")
            (start,) = s.of("gameStart")
            assert start["game"]["challenge"] == cid
        gid = streams[0].of("gameStart")[0]["game"]["id"]
        for node in nodes:
            r = alpha.api.get(f"{node.url}/api/challenges/{cid}")
            assert r.status_code == 200 and r.json()["game_id"] == gid, r.text
        # an open challenge is among the first events of a stream opened on any node
        r = beta.api.post(f"{nodes[1].url}/api/challenge/{alpha.name}", json={"game": "uttt"})
        assert r.status_code == 201, r.text
        other = r.json()["id"]
        with httpx.stream(
            "GET", f"{nodes[2].url}/api/bot/stream/events", headers=auth(str(alpha.token))
        ) as r:
            first = []
            for line in r.iter_lines():
                if line.strip():
                    first.append(json.loads(line))
                if any(e["type"] == "challenge" for e in first):
                    break
        assert [e["challenge"]["id"] for e in first if e["type"] == "challenge"] == [other]
        # a challenge is declined once: the second answer, on another node, is refused
        r = alpha.api.post(f"{nodes[0].url}/api/bot/challenge/{other}/decline")
        assert r.status_code == 200, r.text
        r = alpha.api.post(f"{nodes[1].url}/api/bot/challenge/{other}/decline")
        assert r.status_code == 409, r.text
    finally:
        for s in streams:
            s.stop.set()


# -- the lobby ---------------------------------------------------------------------------


def check_lobby(nodes: list[Node]) -> None:
    n = len(nodes)
    web = httpx.Client(timeout=20)  # the first request after a node's death may wait for it
    r = web.post(f"{nodes[0].url}/api/lobby/seeks", json={"game": "uttt"})
    assert r.status_code == 201, r.text
    sid, poster = r.json()["seek"]["id"], r.json()["ticket"]
    listed = web.get(f"{nodes[1 % n].url}/api/lobby/seeks").json()["seeks"]
    assert sid in [s["id"] for s in listed]
    r = web.post(f"{nodes[2 % n].url}/api/lobby/seeks/{sid}/accept", json={})
    assert r.status_code == 200, r.text
    taker = r.json()["seek"]["seat"]
    r = web.post(f"{nodes[0].url}/api/lobby/seeks/{sid}/accept", json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seek_taken", r.text
    looked = web.get(f"{nodes[1 % n].url}/api/lobby/seeks/{sid}", headers=auth(poster)).json()
    seat = looked["seek"]["seat"]
    assert seat["id"] == taker["id"] and seat["seats"] != taker["seats"]
    game = web.get(f"{nodes[2 % n].url}/api/games/{seat['id']}").json()
    assert game["status"] == "active" and all(s["taken"] for s in game["seats"])

    # quick pairing: six players spread over the nodes, each paired once, three games
    tickets = []
    for i in range(6):
        r = web.post(f"{nodes[i % n].url}/api/lobby/pairing", json={"game": "uttt"})
        assert r.status_code == 201, r.text
        tickets.append(r.json()["ticket"])
    seats: dict[int, dict[str, Any]] = {}

    def all_paired() -> bool:
        for i, ticket in enumerate(tickets):
            if i not in seats:
                node = nodes[(i + 1) % n]
                wait = web.get(f"{node.url}/api/lobby/pairing", headers=auth(ticket)).json()
                if wait["wait"]["status"] == "paired":
                    seats[i] = wait["wait"]["seat"]
        return len(seats) == 6

    until(all_paired, what="six players paired")
    games: dict[str, list[int]] = {}
    for seat in seats.values():
        games.setdefault(seat["id"], []).extend(seat["seats"])
    assert len(games) == 3 and all(sorted(s) == [0, 1] for s in games.values()), games
    web.close()


# -- a tournament with its director killed ----------------------------------------------


class BotPlayer(threading.Thread):
    """Plays a bot's tournament games: a few random moves, then the one on move resigns;
    every request to the next living node."""

    def __init__(self, account: Account, stream: Stream, nodes: list[Node], tid: str) -> None:
        super().__init__(daemon=True)
        self.account, self.stream, self.nodes, self.tid = account, stream, nodes, tid
        self.rng = random.Random(account.id)
        self.index = account.id
        self.done: set[str] = set()
        self.errors: dict[str, int] = {}
        self.stop = threading.Event()

    def node(self) -> Node:
        self.index += 1
        living = alive(self.nodes)
        return living[self.index % len(living)]

    def run(self) -> None:
        api = self.account.api
        while not self.stop.is_set():
            games = {
                e["game"]["id"]: e["game"]["you"]
                for e in self.stream.of("gameStart")
                if e["game"]["tournament"] == self.tid and e["game"]["id"] not in self.done
            }
            if not games:
                time.sleep(0.1)
                continue
            for gid, mine in games.items():
                try:
                    self.turn(api, gid, mine)
                except (httpx.HTTPError, ValueError, KeyError) as error:
                    name = f"{type(error).__name__} {error}"[:60]
                    self.errors[name] = self.errors.get(name, 0) + 1
            time.sleep(0.05)

    def turn(self, api: httpx.Client, gid: str, mine: list[int]) -> None:
        game = httpx.get(f"{self.node().url}/api/games/{gid}", timeout=10).json()
        if "error" in game:
            raise ValueError(game["error"]["code"])
        if game["status"] != "active":
            self.done.add(gid)
            return
        if game["view"]["to_move"] not in mine:
            return
        url = self.node().url
        if game["ply"] >= PLIES:
            r = api.post(f"{url}/api/bot/game/{gid}/resign", json={"state": game["state"]})
        else:
            move = pick(game["view"]["legal_moves"], self.rng)
            r = api.post(f"{url}/api/bot/game/{gid}/move/{move}", params={"state": game["state"]})
        if r.status_code != 200:
            code = f"{r.status_code} {r.json().get('error', {}).get('code')}"
            self.errors[code] = self.errors.get(code, 0) + 1


def node_ids(nodes: list[Node]) -> dict[str, Node]:
    return {httpx.get(f"{n.url}/api/health").headers["x-sansu-node"]: n for n in alive(nodes)}


def check_tournament(nodes: list[Node], redis: Redis, db: str, tag: str) -> dict[str, Any]:
    host = Account(nodes[0].url, f"host{tag}", bot=False)
    bots = [bot(nodes[i % 3].url, f"b{i}{tag}") for i in range(6)]
    r = host.web.post(
        "/api/tournaments",
        json={"game": "uttt", "format": "swiss", "rounds": 3, "rated": True, "time_control": TC},
        headers=host.csrf,
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for i, b in enumerate(bots):
        r = b.api.post(f"{nodes[(i + 1) % 3].url}/api/bot/tournament/{tid}/join")
        assert r.status_code == 200, r.text
    streams = [Stream(b, nodes, i) for i, b in enumerate(bots)]
    players = [BotPlayer(b, s, nodes, tid) for b, s in zip(bots, streams, strict=True)]
    for thread in (*streams, *players):
        thread.start()
    stack = contextlib.ExitStack()
    try:
        # a game watched from every node, to see the dead node's spectator go
        r = httpx.post(f"{nodes[0].url}/api/games", json={"game": "uttt"})
        assert r.status_code == 201, r.text
        watched = r.json()["id"]
        spectators = [
            stack.enter_context(connect(f"ws://127.0.0.1:{n.port}/api/games/{watched}/ws"))
            for n in nodes
        ]
        for ws in spectators:
            presence_of(ws, {"seats": [False, False], "spectators": 3})
        r = host.web.post(f"{nodes[1].url}/api/tournaments/{tid}/start", headers=host.csrf)
        assert r.status_code == 200, r.text

        def summary() -> dict[str, Any]:
            node = alive(nodes)[0]
            return httpx.get(f"{node.url}/api/tournaments/{tid}", timeout=10).json()

        def explain() -> str:
            shown = summary()
            return json.dumps(
                {
                    "rounds": shown["rounds"],
                    "status": shown["status"],
                    "errors": [p.errors for p in players],
                    "events": [[e["type"] for e in s.events] for s in streams],
                    "refusals": [s.refusals for s in streams],
                    "logs": [n.log.read_text()[-1500:] for n in nodes],
                }
            )

        until(lambda: summary()["round"] >= 2, 60, "round 2", explain)
        holder = asyncio.run(lease_holder(redis.url, f"sansu:lease:t:{tid}"))
        director = node_ids(nodes)[holder]
        lobby_there = asyncio.run(lease_holder(redis.url, "sansu:lease:lobby")) == holder
        director.kill()
        killed_at = time.monotonic()
        at_kill = summary()
        # the dead node's spectator stops counting on the others
        for n, ws in zip(nodes, spectators, strict=True):
            if n is not director:
                presence_of(ws, {"seats": [False, False], "spectators": 2}, 15)
        forgotten_after = time.monotonic() - killed_at
        rounds_after = at_kill["round"]
        # running at the kill, finished later: only a surviving node could end it
        assert at_kill["status"] == "running", at_kill["status"]
        until(lambda: summary()["status"] == "finished", 90, "the tournament's end", explain)
        finished_after = time.monotonic() - killed_at
    finally:
        stack.close()
        for thread in (*streams, *players):
            thread.stop.set()
    check_stored(db, tid, bots)
    for b, s in zip(bots, streams, strict=True):
        heard = [e["tournament"]["game_id"] for e in s.of("tournamentPairing")]
        assert len(heard) == len(set(heard)), (b.name, heard)  # each pairing announced once
    return {
        "killed": director.port,
        "it held the lobby": lobby_there,
        "round at kill": rounds_after,
        "finished after kill": round(finished_after, 1),
        "presence without the dead node after": round(forgotten_after, 1),
        "errors": [p.errors for p in players],
        "streams refused": [s.refusals for s in streams],
    }


async def lease_holder(url: str, key: str) -> str:
    from redis.asyncio import Redis as Client

    client = Client.from_url(url)
    try:
        value = await client.get(key)
    finally:
        await client.aclose()
    assert value is not None, key
    return value.decode()


def check_stored(db: str, tid: str, bots: list[Account]) -> None:
    """From the database: each round paired once, each pairing's game created once, every
    game finished and rated once."""
    engine = sa.create_engine(db)
    try:
        with engine.connect() as c:
            rows = c.execute(
                sa.text(
                    "SELECT id, round, kind, players, game_id, finished_at"
                    " FROM tournament_pairings WHERE tournament_id = :t"
                ),
                {"t": tid},
            ).all()
            games = c.execute(
                sa.text("SELECT id, status, meta FROM games WHERE meta->>'tournament' = :t"),
                {"t": tid},
            ).all()
            rated = c.execute(
                sa.text("SELECT game_id FROM rated_games WHERE game_id = ANY(:g)"),
                {"g": [g.id for g in games]},
            ).all()
            history = c.execute(
                sa.text("SELECT user_id, game_id FROM rating_history WHERE game_id = ANY(:g)"),
                {"g": [g.id for g in games]},
            ).all()
            counted = dict(
                c.execute(
                    sa.text("SELECT user_id, games FROM ratings WHERE user_id = ANY(:u)"),
                    {"u": [b.id for b in bots]},
                ).all()
            )
    finally:
        engine.dispose()
    assert sorted({r.round for r in rows}) == [1, 2, 3], rows
    for number in (1, 2, 3):
        seated = [p for r in rows if r.round == number for p in r.players]
        assert sorted(seated) == sorted(b.id for b in bots), (number, rows)
    game_rows = [r for r in rows if r.kind == "game"]
    assert len(game_rows) == 9 and all(r.finished_at is not None for r in rows)
    assert sorted(r.game_id for r in game_rows) == sorted(g.id for g in games)
    by_pairing = {g.meta["pairing"]: g for g in games}
    assert len(by_pairing) == len(games) == 9
    assert all(by_pairing[r.id].id == r.game_id for r in game_rows)
    assert all(g.status == "finished" for g in games)
    assert sorted(g.game_id for g in rated) == sorted(g.id for g in games)
    assert len(history) == 18 and len(set(history)) == 18
    per_bot = {b.id: sum(b.id in r.players for r in game_rows) for b in bots}
    assert counted == per_bot, (counted, per_bot)


# -- the test ---------------------------------------------------------------------------


@pytest.fixture
def cluster(postgres_url: str, tmp_path: Path) -> Iterator[tuple[list[Node], Redis]]:
    redis = Redis(tmp_path)
    redis.start()
    nodes = [Node(postgres_url, redis.url, tmp_path / f"node{i}.log") for i in range(3)]
    try:
        for node in nodes:  # one at a time: the first one migrates the schema
            node.start()
        yield nodes, redis
    finally:
        for node in nodes:
            node.stop()
        if redis.process is not None and redis.process.poll() is None:
            redis.process.terminate()
            redis.process.wait(timeout=10)


def test_the_nodes_share_presence_bots_the_lobby_and_tournaments(
    cluster: tuple[list[Node], Redis], postgres_url: str
) -> None:
    nodes, redis = cluster
    tag = uuid.uuid4().hex[:4]
    check_presence(nodes)
    check_bots(nodes, tag)
    check_lobby(nodes)
    figures = check_tournament(nodes, redis, postgres_url, tag)
    # the lobby's node dies: another node holds it, empty (as after a restart)
    r = httpx.post(f"{alive(nodes)[0].url}/api/lobby/seeks", json={"game": "uttt"}, timeout=20)
    assert r.status_code == 201, r.text
    old, ticket = r.json()["seek"]["id"], r.json()["ticket"]
    holder = node_ids(nodes)[asyncio.run(lease_holder(redis.url, "sansu:lease:lobby"))]
    holder.kill()
    started = time.monotonic()
    check_lobby(alive(nodes))
    figures["lobby again after its node died"] = round(time.monotonic() - started, 1)
    r = httpx.get(f"{alive(nodes)[0].url}/api/lobby/seeks/{old}", headers=auth(ticket))
    assert r.status_code == 404, r.text
    print(f"shared cluster test: {figures}")


def test_rate_limits_count_once_across_nodes(tmp_path: Path) -> None:
    """Two limiters on one Redis (two nodes): a client's requests count once, whichever
    node they reach, and so do failed log-ins; while Redis is away nothing is counted and
    nobody refused."""
    redis = Redis(tmp_path)
    redis.start()
    try:

        async def hits() -> tuple[int, int]:
            limits = RateLimits(requests="10/minute", creates=None, accounts=None)
            nodes = [Limiter(limits, shared_storage(redis.url)) for _ in range(2)]
            allowed = refused = 0
            for i in range(30):
                try:
                    await nodes[i % 2].hit("203.0.113.9")
                    allowed += 1
                except ApiError as error:
                    assert error.status == 429 and error.detail["retry_after"] >= 1
                    refused += 1
            await nodes[0].hit("203.0.113.10")  # another client counts apart
            return allowed, refused

        assert asyncio.run(hits()) == (10, 20)
        logins = [
            LoginLimiter(per_pair="3/minute", storage=login_storage(redis.url)) for _ in range(2)
        ]
        for i in range(3):  # failed log-ins into one account, on either node
            assert logins[i % 2].attempt("dora", "203.0.113.9").allowed
        assert not logins[0].attempt("dora", "203.0.113.9").allowed
        assert not logins[1].attempt("dora", "203.0.113.9").allowed
        assert logins[1].retry_after("dora", "203.0.113.9") >= 1
        owner = logins[0].attempt("dora", "198.51.100.4")  # the owner elsewhere: let through
        assert owner.allowed
        logins[1].succeeded(owner)
        redis.kill()
        assert logins[0].attempt("dora", "203.0.113.9").allowed  # Redis away: not held back

        async def without_redis() -> None:
            limits = RateLimits(requests="1/minute", creates=None, accounts=None)
            node = Limiter(limits, shared_storage(redis.url))
            for _ in range(3):  # Redis away: nothing counted, nobody refused
                await node.hit("203.0.113.9")

        asyncio.run(without_redis())
    finally:
        if redis.process is not None and redis.process.poll() is None:
            redis.kill()
