"""Rated games: who may create and join them, and rating them as they end.

A game is rated (``casual: false``) only between signed-in players, each
seat bound to a different account, with no computer seat; takebacks are
refused in it (:mod:`sansu.server.play.moves`). When it ends, by the rules, a
resignation or a fallen flag, :class:`RatedGames` adds the rating to the
change that writes the result (:meth:`Rounds.while_finishing`), so both commit in
one transaction, and writes each player's change into the ``game_over``
event (``+12``). :func:`rate_game` keys the rating by the game's id,
so a retried commit rates nothing twice; a finished rated game that has no
rating (a crash between the two cannot happen, but an older server or a
failed rating may leave one) is rated once when the server starts.

Two rules keep ratings from being farmed. A rated game ends **aborted**
(unrated, without a result) when it ends before every seat has moved
(:func:`abortable`: an abort, a resignation, a fallen flag or a claim). And
the n-th rated game between the same accounts within
:data:`~sansu.server.ratings.REPEAT_WINDOW` counts for a falling share of a
full game (:func:`~sansu.server.ratings.repeat_weight`, counted by
:func:`earlier_games`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, exists, func, select

from sansu.server.accounts import User, users_table
from sansu.server.base import ApiError, Store, StoreError
from sansu.server.base import games as games_table
from sansu.server.base import seats as seats_table
from sansu.server.play.live import Change, Event, LiveGame, Seat
from sansu.server.play.rounds import Rounds
from sansu.server.ratings import (
    OPENSKILL_GAMES,
    REPEAT_WINDOW,
    get_rating,
    rate_game,
    rated_games,
    rating_history,
    repeat_weight,
    speed_of,
)

log = logging.getLogger("sansu.server")


def sign_in_required() -> ApiError:
    return ApiError(403, "sign_in_required", "a rated game is played by signed-in players only")


def check_create(
    seats: Sequence[Seat],
    take: Sequence[int],
    user: User | None,
    bound: Mapping[int, User] | None = None,
) -> None:
    """Refuses a rated game with a computer seat, an anonymous creator, or an account
    holding more than one seat. ``bound``: seats the server binds to accounts at once
    (a tournament's pairing), which need no signed-in creator."""
    if user is None and (take or not bound):
        raise sign_in_required()
    if any(s.kind != "human" for s in seats):
        raise ApiError(
            422, "rated_computer", "games against the computer are casual: set casual to true"
        )
    ids = [u.id for u in (bound or {}).values()]
    if user is not None:
        ids += [user.id] * len(take)
    if len(take) > 1 or len(set(ids)) != len(ids):
        raise ApiError(409, "same_account", "in a rated game an account holds one seat only")


def check_join(live: LiveGame, user: User | None) -> None:
    """Refuses an anonymous player, or an account already seated, a seat of a rated game."""
    if live.casual:
        return
    if user is None:
        raise sign_in_required()
    if any(s.user_id == user.id for s in live.seats):
        raise ApiError(409, "same_account", "in a rated game an account holds one seat only")


def every_seat_moved(live: LiveGame) -> bool:
    """Whether each seat of the game has made a move of its own."""
    moved = {m.seat for m in live.moves}
    return all(s.seat in moved for s in live.seats)


def abortable(live: LiveGame) -> bool:
    """A rated game in play that not every seat has moved in: it ends aborted, not
    with a result. A tournament's games are not (its pairing must end: there, not
    moving loses as in any game)."""
    return (
        not live.casual
        and live.status == "active"
        and "tournament" not in live.meta
        and not every_seat_moved(live)
    )


def rateable(live: LiveGame) -> bool:
    """A rated game whose every seat is bound to an account, each a different one, and
    in which every seat moved."""
    ids = [s.user_id for s in live.seats]
    return (
        not live.casual
        and all(s.kind == "human" for s in live.seats)
        and None not in ids
        and len(set(ids)) == len(ids)
        and ("tournament" in live.meta or every_seat_moved(live))
    )


def earlier_games(connection: Connection, live: LiveGame, now: float) -> int:
    """The most rated games any two of this game's accounts played together in the
    :data:`REPEAT_WINDOW` before ``now`` (this game left out)."""
    ids = sorted({s.user_id for s in live.seats if s.user_id is not None})
    most = 0
    for i, first in enumerate(ids):
        for second in ids[i + 1 :]:
            one, two = seats_table.alias(), seats_table.alias()
            count = connection.execute(
                select(func.count(func.distinct(rated_games.c.game_id)))
                .select_from(rated_games)
                .join(one, one.c.game_id == rated_games.c.game_id)
                .join(two, two.c.game_id == rated_games.c.game_id)
                .where(
                    one.c.user_id == first,
                    two.c.user_id == second,
                    rated_games.c.game_id != live.id,
                    rated_games.c.rated_at >= now - REPEAT_WINDOW,
                    rated_games.c.rated_at <= now,
                )
            ).scalar_one()
            most = max(most, count)
    return most


def teams_of(live: LiveGame) -> list[list[int]]:
    """The seats rated together: the game's teams, or one seat each."""
    teams = getattr(live.game, "teams", None)
    if teams and live.game.id in OPENSKILL_GAMES:
        return [list(team) for team in teams]
    return [[s.seat] for s in live.seats]


def ranks_of(result: dict[str, Any], teams: list[list[int]]) -> list[float]:
    """Each team's rank (lower is better, equal ranks tie): by score where the result has
    scores, else winners first."""
    if result.get("draw"):
        return [0.0] * len(teams)
    scores = result.get("scores")
    winners = set(result.get("winners") or ())
    if scores is not None and len(teams) > 2 and all(s < len(scores) for t in teams for s in t):
        return [-float(sum(scores[s] for s in team)) for team in teams]
    return [0.0 if winners & set(team) else 1.0 for team in teams]


def rate_live(
    connection: Connection, live: LiveGame, result: dict[str, Any], now: float
) -> list[dict[str, Any]] | None:
    """Rates the finished game ``live`` in the caller's transaction; returns each seat's
    change (``None`` when it was rated before)."""
    teams = teams_of(live)
    by_seat = {s.seat: s for s in live.seats}
    players: list[Any] = [
        [by_seat[s].user_id for s in team] if len(team) > 1 else by_seat[team[0]].user_id
        for team in teams
    ]
    weight = repeat_weight(earlier_games(connection, live, now))
    changes = rate_game(
        connection,
        live.id,
        game=live.game.id,
        speed=speed_of(live.time_control),
        players=players,
        ranks=ranks_of(result, teams),
        now=now,
        weight=weight,
    )
    if changes is None:
        return None
    out = []
    for seat in live.seats:
        assert seat.user_id is not None
        change = changes[seat.user_id]
        out.append(
            {
                "seat": seat.seat,
                "name": seat.name,
                "before": round(change.before.rating),
                "after": round(change.after.rating),
                "change": change.shown(),
                "shown": change.after.shown(),
                "provisional": change.after.provisional,
                "weight": weight,
            }
        )
    return out


class RatedGames:
    """Rates rated games as they end; the players' ratings as a game page shows them."""

    def __init__(self, rounds: Rounds, store: Store, clock: Callable[[], float]) -> None:
        self.rounds = rounds
        self.store = store
        self.time = clock
        self._shown: dict[str, tuple[Any, dict[int, dict[str, Any]]]] = {}
        rounds.while_finishing(self.finishing)

    def finishing(self, change: Change, over: Event) -> None:
        """Adds the rating to the change that ends ``change.live`` (see the module)."""
        live = change.live
        if not rateable(live):
            return
        result = over.data["result"]

        def write(c: Connection) -> None:
            try:
                shown = rate_live(c, live, result, change.now)
            except ValueError as error:  # checked before any write: nothing was written
                log.warning("game %s could not be rated: %s", live.id, error)
                return
            if shown is not None:
                over.data["ratings"] = shown

        change.writes.append(write)

    async def rate_missed(self) -> int:
        """Rates every finished rated game left without its rating; returns how many."""
        done = rated_games
        ids = await self.store.read(
            lambda c: [
                row[0]
                for row in c.execute(
                    select(games_table.c.id)
                    .outerjoin(done, done.c.game_id == games_table.c.id)
                    .where(
                        games_table.c.status == "finished",
                        games_table.c.casual.is_(False),
                        done.c.game_id.is_(None),
                        ~exists().where(  # a seat never taken: the game is not rated
                            seats_table.c.game_id == games_table.c.id,
                            seats_table.c.user_id.is_(None),
                        ),
                    )
                )
            ]
        )
        rated = 0
        for game_id in ids:
            try:
                live = await self.rounds.get(game_id)
                if not rateable(live) or live.result is None:
                    continue
                result, at = live.result, live.finished_at or self.time()
                shown = await self.store.write(
                    lambda c, g=live, r=result, t=at: rate_live(c, g, r, t)
                )
            except (ApiError, StoreError, ValueError) as error:
                log.warning("game %s could not be rated: %s", game_id, error)
                continue
            rated += shown is not None
        return rated

    async def seat_ratings(self, live: LiveGame) -> dict[int, dict[str, Any]]:
        """By seat bound to an account: its rating in this game and class (``shown``:
        ``1500?`` while provisional) and, once a rated game is rated, its change."""
        key = (live.version, live.status, tuple(s.user_id for s in live.seats))
        cached = self._shown.get(live.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        bound = [s for s in live.seats if s.user_id is not None]
        if not bound:
            return {}
        game, speed = live.game.id, speed_of(live.time_control)

        def read(c: Connection) -> dict[int, dict[str, Any]]:
            out: dict[int, dict[str, Any]] = {}
            changes = {
                row.user_id: row
                for row in c.execute(
                    select(rating_history).where(rating_history.c.game_id == live.id)
                )
            }
            bots = {
                row.id: row.bot
                for row in c.execute(
                    select(users_table.c.id, users_table.c.bot).where(
                        users_table.c.id.in_([s.user_id for s in bound])
                    )
                )
            }
            for seat in bound:
                assert seat.user_id is not None
                now = get_rating(c, seat.user_id, game, speed)
                entry: dict[str, Any] = {
                    "rating": round(now.rating),
                    "provisional": now.provisional,
                    "shown": now.shown(),
                    "bot": bool(bots.get(seat.user_id)),
                }
                row = changes.get(seat.user_id)
                if row is not None:
                    entry["change"] = f"{round(row.change):+d}"
                    entry["after"] = round(row.rating)
                out[seat.seat] = entry
            return out

        shown = await self.store.read(read)
        if len(self._shown) > 4096:
            self._shown.clear()
        self._shown[live.id] = (key, shown)
        return shown

    async def decorate(self, live: LiveGame, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` (a game as clients see it) with each bound seat's ``rating``, and
        whether the game can still be aborted."""
        shown = await self.seat_ratings(live)
        data["rated"] = not live.casual
        data["abortable"] = abortable(live)
        for seat in data.get("seats", ()):
            if seat.get("seat") in shown:
                seat["rating"] = shown[seat["seat"]]
        return data


def end_ratings(live: LiveGame) -> list[dict[str, Any]] | None:
    """Each seat's rating change, from the game's ``game_over`` event (``None``: unrated)."""
    if live.status != "finished":
        return None
    for event in reversed(live.events):
        if event.type == "game_over":
            return event.data.get("ratings")
    return None
