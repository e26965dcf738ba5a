"""The composition root: every domain object of one server, built here and nowhere else.

:func:`assemble` builds the parts layer by layer, each from the parts below
it (base, accounts, play, lobby, tournaments, analysis, bots, cluster), and
wires the listeners that let a lower layer tell a higher one about a change
(a game started, a tournament paired) without importing it. The web app
(:func:`sansu.server.app.create_app`) puts these parts on ``app.state``,
where each domain's routes find theirs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sansu.server.accounts import (
    ONLINE_WINDOW,
    LoginLimiter,
    Mailer,
    Online,
    Postbox,
    parse_smtp_url,
)
from sansu.server.analysis import Analyses, Reviews
from sansu.server.base import Background, Limiter, Metrics, RateLimits, Store, shared_storage
from sansu.server.bots import pairing_announcer
from sansu.server.chat import Chat
from sansu.server.learn import PuzzleBook, PuzzleRatings
from sansu.server.lobby import Challenges, EventStreams, PairingDesk, Seeks
from sansu.server.moderation import Moderation, Reports
from sansu.server.play import (
    ABANDON_AFTER,
    CLAIM_AFTER,
    KEEP_FINISHED,
    KEEP_IDLE,
    Archive,
    ComputerRunner,
    ComputerTurns,
    EventLog,
    GameService,
    Hub,
    Play,
    RatedGames,
    Rematches,
    Rounds,
    Seating,
    Timekeeper,
)
from sansu.server.relation import Relations
from sansu.server.tournaments import Tournaments


@dataclass
class Server:
    """Every domain object of one server, by layer; ``cluster`` and ``shared`` only on a
    node of a cluster."""

    store: Store
    limiter: Limiter
    login_limiter: LoginLimiter
    hub: Hub
    computer: ComputerRunner
    service: GameService
    streams: EventStreams
    challenges: Challenges
    seeks: Seeks
    desk: PairingDesk
    tournaments: Tournaments
    analyses: Analyses
    reviews: Reviews
    puzzles: PuzzleRatings
    chat: Chat
    online: Online
    relations: Relations
    postbox: Postbox
    reports: Reports
    moderation: Moderation
    cluster: Any = None
    shared: Any = None


def assemble(
    db_url: str,
    *,
    computer_workers: int | None = None,
    computer_time_ms: int | None = None,
    rate_limits: RateLimits | None = None,
    keep_idle: float = KEEP_IDLE,
    keep_finished: float = KEEP_FINISHED,
    abandon_after: float = ABANDON_AFTER,
    review_simulations: int | None = None,
    analysis_simulations: tuple[int, int] | None = None,
    redis_url: str | None = None,
    clock: Callable[[], float] = time.time,
    online_window: float = ONLINE_WINDOW,
    smtp_url: str | None = None,
    public_url: str = "http://127.0.0.1:8000",
    claim_after: float = CLAIM_AFTER,
) -> Server:
    """One server's parts on the database ``db_url``; the arguments are
    :func:`~sansu.server.app.create_app`'s."""
    # base
    store = Store(db_url)
    background = Background()
    metrics = Metrics()
    limiter = Limiter(rate_limits, shared_storage(redis_url) if redis_url else None)
    # accounts
    login_limiter = LoginLimiter(storage=_login_storage(redis_url)) if redis_url else LoginLimiter()
    mailer = Mailer(parse_smtp_url(smtp_url)) if smtp_url else None
    postbox = Postbox(mailer, public_url, clock=clock)
    # play
    online = Online(window=online_window)
    hub = Hub(online=online)
    hub.max_per_client = (rate_limits or RateLimits()).sockets
    computer = ComputerRunner(computer_workers, time_ms_cap=computer_time_ms)
    rounds = Rounds(store, hub, clock=clock, keep_idle=keep_idle, keep_finished=keep_finished)
    _measure(metrics, store, limiter, login_limiter, hub, computer, rounds)
    timekeeper = Timekeeper(rounds, background, clock)
    seating = Seating(rounds, clock)
    service = GameService(
        store=store,
        hub=hub,
        computer=computer,
        background=background,
        metrics=metrics,
        rounds=rounds,
        timekeeper=timekeeper,
        turns=ComputerTurns(rounds, timekeeper, computer, background, clock),
        seating=seating,
        moves=Play(rounds, timekeeper, clock, claim_after=claim_after),
        rematches=Rematches(rounds),
        rated=RatedGames(rounds, store, clock),
        archive=Archive(rounds, store, clock, hub, abandon_after),
        event_log=EventLog(store),
    )
    # lobby
    streams = EventStreams(online)
    rounds.on_change(streams.game_changed)
    challenges = Challenges(seating, streams)
    seeks = Seeks(service)
    desk = PairingDesk(service)
    # tournaments
    tournaments = Tournaments(store, rounds, seating, background, clock)
    # analysis
    analyses = Analyses(computer, background, budgets=analysis_simulations)
    reviews = Reviews(rounds, store, computer, background, simulations=review_simulations)
    # chat, and moderation (whose queue the chat's reports go to)
    reports = Reports(store, storage=shared_storage(redis_url) if redis_url else None)
    chat = Chat(
        service,
        file_report=reports.file_message,
        storage=shared_storage(redis_url) if redis_url else None,
    )
    moderation = Moderation(store, service, chat, seeks, challenges, reports)
    # bots
    tournaments.on_pairing(pairing_announcer(service, streams))
    server = Server(
        store=store,
        limiter=limiter,
        login_limiter=login_limiter,
        hub=hub,
        computer=computer,
        service=service,
        streams=streams,
        challenges=challenges,
        seeks=seeks,
        desk=desk,
        tournaments=tournaments,
        analyses=analyses,
        reviews=reviews,
        puzzles=PuzzleRatings(store, PuzzleBook(), clock),
        chat=chat,
        online=online,
        relations=Relations(store, hub, online, abandon_after=abandon_after, clock=clock),
        postbox=postbox,
        reports=reports,
        moderation=moderation,
    )
    # cluster
    if redis_url:
        from sansu.server.cluster import Cluster, SharedParts

        server.cluster = Cluster(service, redis_url)
        server.cluster.install()
        server.shared = SharedParts(
            server.cluster, service, tournaments, streams, challenges, seeks, desk, redis_url
        )
        chat.link(server.shared.bus)
    return server


def _measure(
    metrics: Metrics,
    store: Store,
    limiter: Limiter,
    login_limiter: LoginLimiter,
    hub: Hub,
    computer: ComputerRunner,
    rounds: Rounds,
) -> None:
    """Has each part tell ``metrics`` what it counts, and the sizes read at each scrape."""
    store.on_commit = metrics.committed
    limiter.on_refusal = metrics.refused
    login_limiter.on_failure = metrics.login_failed
    computer.on_wait = metrics.waited
    metrics.watch("sansu_open_sockets", "Game sockets open", hub.count)
    metrics.watch("sansu_games_in_memory", "Games held in memory", lambda: len(rounds.games))
    metrics.watch(
        "sansu_computer_queue_length",
        "Computer searches waiting for a worker",
        computer.queue_lengths,
        label="kind",
    )


def _login_storage(redis_url: str) -> Any:
    from sansu.server.cluster import login_storage

    return login_storage(redis_url)
