"""The HTTP routes of chat: a game's rooms, read and written, and reports of a message.

Live delivery is through the game's socket (``chat`` and ``chat_removed`` events);
these routes are how a client reads a room when it opens or reconnects, and how it
sends.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from sansu.server.accounts import TokenOrSession
from sansu.server.base import REQUEST, GameId, part, refusals
from sansu.server.chat.rooms import Room
from sansu.server.chat.service import Chat

ChatPart = Annotated[Chat, part("chat")]
MessageId = Annotated[int, Path(ge=1, le=2**53, description="a chat message's id")]


class ChatPost(BaseModel):
    model_config = REQUEST
    room: Room = Field(description="players (the seats' holders) or spectators")
    text: str = Field(
        max_length=1000, description="at most 140 characters once trimmed; no control characters"
    )


class ChatReport(BaseModel):
    model_config = REQUEST
    reason: Literal["spam", "insult", "other"]


router = APIRouter(prefix="/api", tags=["chat"])


@router.get("/games/{game_id}/chat", responses=refusals(401, 403, 404))
async def read_chat(
    game_id: GameId,
    room: Annotated[Room, Query(description="players or spectators")],
    chat: ChatPart,
    caller: TokenOrSession,
) -> dict[str, Any]:
    """A room's messages, oldest first. The players' room is its players' only; the
    spectators' room is everyone's who may watch, and the players' once the game is over."""
    who = await caller.acting(write=False)
    return {"room": room, "messages": await chat.messages(game_id, who, room)}


@router.post("/games/{game_id}/chat", status_code=201, responses=refusals(401, 403, 404))
async def write_chat(
    game_id: GameId, body: ChatPost, chat: ChatPart, caller: TokenOrSession
) -> dict[str, Any]:
    """Sends a message to a room (a player for their seat, or a signed-in spectator)."""
    who = await caller.acting(write=True)
    return {"message": await chat.post(game_id, who, body.room, body.text)}


@router.post("/chat/{message_id}/report", status_code=201, responses=refusals(401, 403, 404))
async def report_message(
    message_id: MessageId, body: ChatReport, chat: ChatPart, caller: TokenOrSession
) -> dict[str, Any]:
    """Reports a message to the moderators: spam, insult or other."""
    who = await caller.acting(write=True)
    return {"report": await chat.report(message_id, who, body.reason)}
