"""What the server tells about itself and its games: its health, the catalog of games,
their rules and references (the rest of a game's routes: :mod:`sansu.server.play.routes`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from sansu.core.registry import game_class
from sansu.server.base import ApiError, ErrorBody, GameName
from sansu.server.play.routes import Service
from sansu.server.play.rules import reference_markdown, rules_markdown
from sansu.server.play.views import catalog


class MarkdownResponse(PlainTextResponse):
    media_type = "text/markdown"


router = APIRouter(prefix="/api")


@router.get("/health", tags=["server"])
async def health(service: Service) -> dict[str, Any]:
    """Whether the server is up, and how busy."""
    return {
        "ok": True,
        "store": service.store.dialect,
        "games_in_memory": len(service.rounds.games),
        "connections": service.hub.count(),
        "commits": service.store.batches,
        "writes": service.store.jobs,
        "computer_moves": service.turns.moves,
        "warmup": service.computer.warmup_status(),
        "handling_ms": service.metrics.handling_ms(),
        "loop_lag_ms": service.metrics.loop_lag_ms(),
        "store_seconds": {
            "statements": round(service.store.sql_seconds, 3),
            "commits": round(service.store.commit_seconds, 3),
        },
        **{name: report() for name, report in service.reports.items()},
    }


@router.get("/catalog", tags=["games"])
async def get_catalog() -> dict[str, Any]:
    """Every game id with its title, players and options, and the computer levels."""
    return catalog()


MARKDOWN_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/markdown": {"schema": {"type": "string"}}}},
    404: {"model": ErrorBody},
    422: {"model": ErrorBody},
}


@router.get(
    "/catalog/{game}/rules", tags=["games"], response_model=None, responses=MARKDOWN_ANSWERS
)
async def get_rules(game: GameName) -> MarkdownResponse:
    """How to play a game, for players, as Markdown (``docs/rules/GAME.md``)."""
    text = rules_markdown(game_class(game).id)
    if text is None:
        raise ApiError(404, "no_rules", f"the rules of {game!r} are not installed here")
    return MarkdownResponse(text)


@router.get(
    "/catalog/{game}/reference", tags=["games"], response_model=None, responses=MARKDOWN_ANSWERS
)
async def get_reference(game: GameName) -> MarkdownResponse:
    """A game's reference for programmers (notation, options, JSON), as Markdown
    (``docs/rules/reference/GAME.md``)."""
    text = reference_markdown(game_class(game).id)
    if text is None:
        raise ApiError(404, "no_reference", f"the reference of {game!r} is not installed here")
    return MarkdownResponse(text)
