"""The HTTP routes of offers between players: a draw, a takeback (:mod:`.offers`).

They join the play router (:mod:`sansu.server.play`), under ``/api/games/{id}/offers``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Path

from sansu.server.accounts import TokenOrSession
from sansu.server.base import GameId, refusals
from sansu.server.play.live import LiveGame
from sansu.server.play.offers import KINDS, Kind, standing
from sansu.server.play.routes import Service, StateRef

router = APIRouter(prefix="/api")
"""One of the app's routers (an included router hides its routes from the app's list of
allowed methods, so it stands on its own)."""
OfferKind = Annotated[Kind, Path(description=f"one of: {', '.join(KINDS)}")]


def offers_answer(live: LiveGame) -> dict[str, Any]:
    """The game after an offer or an answer: its offers standing, its state."""
    return {
        "offers": standing(live),
        "state": live.version,
        "status": live.status,
        "result": live.result,
    }


@router.post(
    "/games/{game_id}/offers/{kind}", tags=["play"], responses=refusals(401, 403, 404, 409)
)
async def offer(
    game_id: GameId,
    kind: OfferKind,
    service: Service,
    caller: TokenOrSession,
    body: Annotated[StateRef | None, Body()] = None,
) -> dict[str, Any]:
    """Offers a draw, or asks to take back your last move (casual games); the opponent
    answers. Offering a draw the opponent offered accepts it."""
    who = await caller.acting(write=True)
    seen = None if body is None else body.state
    return offers_answer(await service.offer(game_id, who, kind, seen))


@router.post(
    "/games/{game_id}/offers/{kind}/accept", tags=["play"], responses=refusals(401, 403, 404, 409)
)
async def accept_offer(
    game_id: GameId, kind: OfferKind, service: Service, caller: TokenOrSession
) -> dict[str, Any]:
    """Accepts the opponent's offer: the game is drawn by agreement, or taken back to
    the requester's move."""
    who = await caller.acting(write=True)
    return offers_answer(await service.answer_offer(game_id, who, kind, True))


@router.delete(
    "/games/{game_id}/offers/{kind}", tags=["play"], responses=refusals(401, 403, 404, 409)
)
async def decline_offer(
    game_id: GameId, kind: OfferKind, service: Service, caller: TokenOrSession
) -> dict[str, Any]:
    """Declines the opponent's offer, or withdraws your own."""
    who = await caller.acting(write=True)
    return offers_answer(await service.answer_offer(game_id, who, kind, False))
