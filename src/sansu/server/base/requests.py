"""What several domains' HTTP routes share: request shapes, error bodies, the seat's bearer token.

``REQUEST`` is the model config of every request body: strict and closed, so
that a value of the wrong JSON type or an unknown field is refused (422), never
coerced. Error answers all have the shape of :class:`ErrorBody`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Depends, Header, Path
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

import sansu
from sansu.core.registry import game_class
from sansu.server.base.errors import ApiError

OptionValue = bool | int | str | None
GameName = Literal[
    tuple(sorted({k for g in sansu.game_ids() for k in (g, *game_class(g).aliases)}))
]  # type: ignore[valid-type]
Auth = Annotated[str | None, Header(description="Bearer TOKEN of a seat")]
REQUEST = ConfigDict(extra="forbid", strict=True)
"""A request body's models: no unknown field, and each value of its schema's JSON type
(strict: ``true`` is no seat number or state number, ``1`` or ``"yes"`` no flag, ``"60"``
no seconds; lax parsing let those through as 1, true and 60)."""
GameId = Annotated[str, Path(min_length=1, max_length=24, description="the server's id of a game")]


class ErrorDetail(BaseModel):
    code: str = Field(description="stable, for programs: e.g. illegal_move, stale_state")
    message: str = Field(description="for people: e.g. the rule a move breaks")
    detail: dict[str, Any] | None = None


class ErrorBody(BaseModel):
    error: ErrorDetail


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {code: {"model": ErrorBody} for code in (*codes, 400, 413, 422, 429)}


class SeatSpec(BaseModel):
    model_config = REQUEST
    kind: Literal["human", "computer"] = "human"
    level: str | None = Field(None, max_length=16, description="a computer's level")
    name: str | None = Field(None, max_length=64)


class TimeControl(BaseModel):
    model_config = REQUEST
    initial_seconds: float = Field(ge=1, le=604800)
    increment_seconds: float = Field(0, ge=0, le=3600)


class GameChoice(BaseModel):
    """A game and its options, as every request that starts games names them."""

    model_config = REQUEST
    game: GameName = Field(description="a game id or alias, e.g. uttt")
    options: dict[Annotated[str, Field(max_length=32)], OptionValue] = Field(
        default_factory=dict, max_length=32
    )


def bearer(authorization: str | None) -> str | None:
    """The seat token of an ``Authorization`` header (none without one); a header of
    another scheme, or an empty token, is refused rather than taken for a spectator."""
    if not authorization:
        return None
    scheme, _, value = authorization.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        raise ApiError(401, "token_required", "use the header Authorization: Bearer TOKEN")
    return value.strip()


def error_response(error: ApiError) -> JSONResponse:
    """The JSON answer of a refusal, in the shape of :class:`ErrorBody`."""
    return JSONResponse(error.to_dict(), status_code=error.status)


def part(name: str) -> Any:
    """A route's dependency on the server's part ``name``: what the composition root
    (:func:`sansu.server.app.assemble`) built and the app keeps on ``app.state``."""

    def the_part(connection: HTTPConnection) -> Any:
        return getattr(connection.app.state, name)

    return Depends(the_part)
