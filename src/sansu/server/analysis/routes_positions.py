"""A position set up by moves, judged by the engine and drawn by the board modules.

``POST /api/positions`` answers the view of the position after ``moves`` from a
game's start, as a seat (``viewer``) or a spectator sees it: the rules pages'
diagrams, the lessons and the puzzles draw their boards from it and check each
move the learner tries with it, so the engine stays the one judge of the rules.
An illegal move is refused (422 ``illegal_move``) with the engine's own reason
(``detail.reason``) and the move's number, so that a page can say why in plain words.
Nothing is stored and no engine thinks; a position with aids on that belongs to
a game in play is refused on the analysis board's terms (aids list every legal
placement, which could help win it).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

import sansu
from sansu.core.protocol import Game, IllegalMove, State
from sansu.server.accounts import TokenOrSession
from sansu.server.base import REQUEST, ApiError, GameName, OptionValue, refusals
from sansu.server.play import Service, hides_information, refuse_help

MAX_MOVES = 600
"""Moves of a position (the longest games have a few hundred)."""

positions_router = APIRouter(prefix="/api", tags=["analysis"])


class PositionRequest(BaseModel):
    model_config = REQUEST
    game: GameName = Field(description="a game id or alias, e.g. uttt")
    options: dict[Annotated[str, Field(max_length=32)], OptionValue] = Field(
        default_factory=dict, max_length=32, description="the game's options"
    )
    moves: list[Annotated[str, Field(max_length=32)]] = Field(
        default_factory=list, max_length=MAX_MOVES, description="moves from the start"
    )
    viewer: int | None = Field(
        None, ge=0, le=7, description="the seat whose view to answer (default: a spectator's)"
    )


def load(game_id: str, options: dict[str, Any]) -> Game:
    try:
        return sansu.load_game(game_id, **options)
    except ValueError as error:
        raise ApiError(422, "bad_options", str(error)) from None


def replay(game: Game, moves: list[str]) -> tuple[State, list[str]]:
    """The state after ``moves`` and their canonical texts; an illegal move is refused
    with the engine's reason and the move's number (from 1)."""
    state = game.initial_state()
    texts = []
    for number, move in enumerate(moves, 1):
        try:
            state = state.play(move)
        except (IllegalMove, ValueError) as error:
            raise ApiError(
                422,
                "illegal_move",
                f"move {number}, {error}",
                move=move,
                number=number,
                reason=str(error),
            ) from None
        texts.append(str(state.last_move))
    return state, texts


def describe(game: Game, state: State, moves: list[str], viewer: int | None) -> dict[str, Any]:
    if viewer is not None and viewer >= game.num_players:
        raise ApiError(422, "bad_viewer", f"{game.title} has {game.num_players} seats")
    result = state.result
    return {
        "game": game.id,
        "title": game.title,
        "options": dict(game.options),
        "moves": moves,
        "ply": len(moves),
        "to_move": state.to_move,
        "over": state.is_over,
        "result": None if result is None else result.to_dict(),
        "view": state.view(viewer),
    }


@positions_router.post("/positions", responses=refusals(401, 403, 422))
async def position(
    body: PositionRequest,
    service: Service,
    caller: TokenOrSession,
) -> dict[str, Any]:
    """The position after ``moves``: its view (as ``viewer``'s seat sees it), whose move
    it is, and the result once over; an illegal move gets 422 with the engine's reason."""
    game = load(body.game, dict(body.options))
    state, moves = await asyncio.to_thread(replay, game, [m.strip() for m in body.moves])
    if game.options.get("aids"):
        who = await caller.acting(write=False)
        hidden = hides_information(state)
        await refuse_help(service.store, game.id, game.options, moves, who, hidden=hidden)
    return describe(game, state, moves, body.viewer)
