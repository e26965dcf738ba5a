"""The HTTP routes of post-game reviews (:mod:`sansu.server.analysis.reviews`).

``POST /api/games/{id}/review`` starts a review (202 with its progress), or
answers the stored one (200); ``GET`` answers the stored review or how far
the one under way is. A game still being played gets 409 and no review.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse

from sansu.server.analysis.reviews import Reviews
from sansu.server.base import GameId, refusals
from sansu.server.play import GameService, watched


def reviews_router(service: GameService, reviews: Reviews) -> APIRouter:
    """The review routes on ``service``'s games."""
    # A game whose creator turned watching off is reviewed for its players only.
    router = APIRouter(
        prefix="/api", tags=["archive"], dependencies=[Depends(watched)]
    )

    @router.post(
        "/games/{game_id}/review",
        status_code=202,
        responses={200: {"description": "the stored review"}, **refusals(401, 403, 404, 409, 503)},
    )
    async def start_review(game_id: GameId) -> Any:
        """Starts the engine's review of a finished game or imported record, once: while it
        runs the answer is its progress (202); once stored, the review itself (200)."""
        done, body = await reviews.start(game_id)
        return JSONResponse(body, status_code=200) if done else JSONResponse(body, status_code=202)

    @router.get("/games/{game_id}/review", responses=refusals(401, 403, 404))
    async def get_review(game_id: GameId) -> dict[str, Any]:
        """The stored review (``status: done``), or the progress of the one under way
        (``status: running``, ``percent``); 404 ``no_review`` when none was asked for."""
        return await reviews.status(game_id)

    return router
