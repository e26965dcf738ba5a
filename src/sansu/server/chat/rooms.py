"""Who may read and write each room of a game's chat, who an author is, and what a
message may hold.

A game has two rooms, as on lichess: ``players`` (its seats' holders only) and
``spectators`` (everyone who may watch). Players do not see the spectators' room
while they play, so that nobody can be helped from the gallery; once the game is
over they read and write there too. A spectator writes under an account only: an
anonymous spectator has no name to answer for what they say, nor to be muted by.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

from sansu.server.accounts import SignedIn, Who
from sansu.server.base import ApiError
from sansu.server.play import LiveGame

Room = Literal["players", "spectators"]
ROOMS: tuple[Room, ...] = ("players", "spectators")
MAX_TEXT = 140
"""Characters a message may hold once trimmed (lichess's limit)."""
REASONS = ("spam", "insult", "other")
"""Why a message may be reported."""
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Direction overrides: invisible, and able to make a message read as another."""


@dataclass(frozen=True)
class Author:
    """Who writes or reads: their account, their seat in the game, and a key that names
    them in every message (``user:ID`` for an account, ``seat:GAME:N`` for an anonymous
    player), by which a browser mutes them."""

    user_id: int | None
    seat: int | None

    def key(self, game_id: str) -> str:
        if self.user_id is not None:
            return f"user:{self.user_id}"
        return f"seat:{game_id}:{self.seat}"


def clean_text(text: str) -> str:
    """The message as stored: trimmed, at most :data:`MAX_TEXT` characters, no control
    character; anything else is refused with 422."""
    trimmed = text.strip()
    if not trimmed:
        raise ApiError(422, "empty_message", "a message needs some text")
    if len(trimmed) > MAX_TEXT:
        raise ApiError(
            422, "too_long", f"a message is at most {MAX_TEXT} characters ({len(trimmed)} sent)"
        )
    for char in trimmed:
        if unicodedata.category(char) in ("Cc", "Cs") or char in BIDI_CONTROLS:
            raise ApiError(
                422,
                "control_character",
                f"a message may not hold control characters (U+{ord(char):04X})",
            )
    return trimmed


def playing(live: LiveGame, held: frozenset[int]) -> bool:
    """Whether ``held`` are seats of a game still in play."""
    return bool(held) and live.status == "active"


def check_read(live: LiveGame, who: Who, room: Room) -> frozenset[int]:
    """The seats ``who`` holds, once allowed to read ``room``; refuses with 401/403."""
    held = live.seats_of(who)
    if room == "players":
        if not held:
            if not who:
                raise ApiError(
                    401, "token_required", "the players' room is for the game's players only"
                )
            raise ApiError(403, "players_only", "the players' room is for the game's players only")
        return held
    if not live.watchable and not held:
        raise ApiError(403, "not_watchable", "the creator of this game has turned watching off")
    if playing(live, held):
        raise ApiError(
            403,
            "spectators_only",
            "players see the spectators' room only once the game is over",
        )
    return held


def author_of(live: LiveGame, who: Who, room: Room) -> Author:
    """Who writes in ``room``: a seat's holder (their lowest seat, and their account if the
    seat is bound to one), or a signed-in spectator; refuses anyone else."""
    held = check_read(live, who, room)
    user_id = who.user_id if isinstance(who, SignedIn) else None
    if held:
        seat = min(held)
        bound = live.seats[seat].user_id
        return Author(bound if bound is not None else user_id, seat)
    if user_id is None:
        raise ApiError(401, "sign_in_required", "sign in to write in the spectators' room")
    return Author(user_id, None)


def seat_name(live: LiveGame, seat: int) -> str:
    return live.seats[seat].name or f"Player {seat + 1}"


def audience(room: str, seats: frozenset[int], over: bool) -> bool:
    """Whether a socket holding ``seats`` hears ``room`` (``over``: the game has ended)."""
    if room == "players":
        return bool(seats)
    return over or not seats
