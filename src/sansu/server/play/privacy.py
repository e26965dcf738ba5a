"""Private games: the invitation's join secret, and who may watch.

A private game is joined only with its invitation's secret and is never
listed. The secret is made once, at creation, and shown only then (inside
the invitation link's fragment, ``#/join/ID/SECRET``, which browsers never
send to a server); the server keeps its sha256, like a seat's token. It
travels back in the join request's body, never in a URL.

Watching by link stays open unless the game's creator turns it off; then
only the game's players see it (over HTTP or a WebSocket).
"""

from __future__ import annotations

import hmac
import secrets
from contextlib import suppress

from sansu.server.accounts import SignedIn, Who
from sansu.server.base import ApiError
from sansu.server.play.hub import Hub
from sansu.server.play.live import Change, LiveGame, dumps, hash_token
from sansu.server.play.rounds import Rounds


def new_join_secret() -> tuple[str, str]:
    """A fresh join secret and its sha256 (the only part the server keeps)."""
    secret = secrets.token_urlsafe(18)
    return secret, hash_token(secret)


def private_default(private: bool | None) -> bool:
    """Whether a new game is private: only when asked (``POST /games`` keeps its promise
    that anyone with the link may join). A game against the computer has no seat left
    to take anyway; it stays listed, so that it can be watched and, once left, shows
    among the abandoned games."""
    return bool(private)


def invitation_path(game_id: str, secret: str) -> str:
    """The web app's invitation route: the secret rides in the URL's fragment."""
    return f"/#/join/{game_id}/{secret}"


def check_join(live: LiveGame, secret: str | None, who: Who) -> None:
    """Refuses a join of a private game without its secret (a player of the game taking
    another seat with their own token or account needs none; a game with no free seat
    is left to refuse the join as any full game does)."""
    if not live.private or live.seats_of(who) or all(seat.taken for seat in live.seats):
        return
    if not secret:
        raise ApiError(
            403,
            "invitation_required",
            "this game is private: join it through its invitation link",
        )
    if live.join_secret_hash is None or not hmac.compare_digest(
        live.join_secret_hash, hash_token(secret)
    ):
        raise ApiError(403, "wrong_secret", "this invitation's secret is not this game's")


def check_watch(live: LiveGame, held: frozenset[int]) -> None:
    """Refuses a spectator of a game whose creator turned watching off."""
    if not live.watchable and not held:
        raise ApiError(403, "not_watchable", "the creator of this game has turned watching off")


def is_creator(live: LiveGame, who: Who) -> bool:
    """The creator's account, when a signed-in player created the game; for a game created
    anonymously, the holder of any of its seats (an anonymous creator has no other name)."""
    if live.created_by is not None:
        return isinstance(who, SignedIn) and who.user_id == live.created_by
    return bool(live.seats_of(who))


async def set_watchable(
    rounds: Rounds, hub: Hub, live: LiveGame, who: Who, watchable: bool
) -> None:
    """Turns watching on or off (the creator only); spectators' sockets are closed when off."""
    if not is_creator(live, who):
        if not who:
            raise ApiError(401, "token_required", "only the game's creator may change this")
        raise ApiError(403, "not_creator", "only the game's creator may turn watching on or off")
    async with live.lock:
        if live.watchable == watchable:
            return
        change = Change(live)
        rounds.event(change, "watching", watchable=watchable)

        def apply() -> None:
            live.watchable = watchable

        change.apply.append(apply)
        await rounds.commit(change, row={"watchable": watchable})
    if not watchable:
        close_spectators(hub, live)


def close_spectators(hub: Hub, live: LiveGame) -> None:
    """Tells every spectator's socket of ``live`` that watching ended, and closes it."""
    refusal = ApiError(403, "not_watchable", "the creator of this game has turned watching off")
    message = dumps({"type": "error", **refusal.to_dict()["error"]})
    for connection in list(hub.connections.get(live.id, ())):
        if connection.seats:
            continue
        connection.send(message)
        with suppress(Exception):
            connection.closed = True
            connection.queue.put_nowait(None)
