"""The hint route: ``GET /api/games/{id}/hint`` for the player to move, when aids are on.

Hints are the games' own (:mod:`sansu.games.hints`); this edge only checks
who asks and when. A hint is for the holder of the seat to move, in a game
still being played and created with ``aids=true``; anyone else is refused
with the usual error shape, and asking never changes the game.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Query, Request

from sansu.games.hints import AidsOff, NoHint, aids_on, hint, supports_hints
from sansu.server.accounts import acting
from sansu.server.base import ApiError, ErrorBody, bearer, game_over
from sansu.server.play import GameService

CellName = Annotated[
    str | None,
    Query(max_length=8, description="a cell such as r5c5 (Sumodoku: that cell only)"),
]


REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (401, 403, 404, 409, 422, 429)
}


def build_hints_router(service: GameService) -> APIRouter:
    """The router of the hint route, included beside the main API."""
    router = APIRouter(prefix="/api")

    @router.get("/games/{game_id}/hint", tags=["play"], responses=REFUSALS)
    async def get_hint(
        game_id: Annotated[str, Path(min_length=1, max_length=24)],
        request: Request,
        cell: CellName = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """A hint for the token's seat, which must be the one to move (aids on only).

        Sumodoku: the colours that fit ``cell`` (or every empty cell). Sudoku
        Challenge: the next logical step, its technique and the cells involved;
        ``kind: "none"`` when the next digit needs a guess.
        """
        live = await service.get(game_id)
        held = live.holder(await acting(service.store, request, bearer(authorization), write=False))
        game = live.game
        if not supports_hints(game):
            raise ApiError(404, "no_hints", f"{game.title} has no hints")
        if not aids_on(game):
            message = f"{game.title}: hints are off in this game (it was created with aids=false)"
            raise ApiError(403, "aids_off", message)
        state = live.state
        if live.status != "active" or state.result is not None:
            raise game_over()
        if state.to_move not in held:
            raise ApiError(
                409,
                "not_your_turn",
                f"a hint is for the player to move: it is seat {state.to_move}'s turn",
                to_move=state.to_move,
            )
        try:
            return await asyncio.to_thread(hint, state, cell)
        except AidsOff as error:  # checked above; AidsOff is a ValueError, not a bad cell
            raise ApiError(403, "aids_off", str(error)) from None
        except NoHint as error:
            return {"game": game.id, "ply": state.ply, "kind": "none", "message": str(error)}
        except ValueError as error:
            raise ApiError(422, "bad_cell", str(error)) from None

    return router
