"""The HTTP routes of analysis: the analysis board, post-game reviews and hints.

The analysis board (:mod:`sansu.server.analysis.board`): ``POST /api/analysis``
sets up a position (a game's position after ``ply`` moves, or any moves from
the start, plus variation moves) and starts thinking about it; ``GET
/api/analysis/{id}?after=STEP`` waits for a deeper result; ``DELETE`` stops
it. A game whose watching is off is refused to strangers (403 ``not_watchable``).
A position of a game still being played, however it is named (the game's id,
its moves, an imported copy), is refused to its players, and to everyone while
the game is rated or hides information (403 ``analysis_refused``,
:func:`sansu.server.play.refuse_help`): the analysis board must not help anyone
win a game in progress. Aids are on in analysis: the view lists every legal
placement, and ``GET /api/analysis/{id}/hint`` gives the games' hints (checked
again: a game may have reached the position since).

Reviews (:mod:`sansu.server.analysis.reviews`): ``POST /api/games/{id}/review``
starts a review (202 with its progress), or answers the stored one (200);
``GET`` answers the stored review or how far the one under way is. A game
still being played gets 409 and no review, and so does a record whose moves
belong to a game in play, on the same terms as the analysis board.

Hints: ``GET /api/games/{id}/hint`` for the player to move, when aids are on.
Hints are the games' own (:mod:`sansu.games.hints`); this edge only checks
who asks and when. A hint is for the holder of the seat to move, in a game
still being played and created with ``aids=true``; anyone else is refused
with the usual error shape, and asking never changes the game.

Each route is a function of this module: the parts it needs come in through
``part`` and the caller as a :class:`~sansu.server.accounts.Caller`, both
through ``Depends``.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

import sansu
from sansu.core.protocol import Game, IllegalMove, State
from sansu.core.registry import game_class
from sansu.games.hints import AidsOff, NoHint, aids_on, hint, supports_hints
from sansu.server.accounts import TokenOrSession, Who
from sansu.server.analysis.board import WAIT, Analyses, StepRequest
from sansu.server.analysis.reviews import Reviews
from sansu.server.base import (
    ApiError,
    ErrorBody,
    GameId,
    GameName,
    OptionValue,
    client_of,
    game_over,
    part,
    refusals,
)
from sansu.server.play import (
    LiveGame,
    Service,
    Watched,
    hides_information,
    refuse_help,
    watched,
)

MAX_MOVES = 600
"""Moves of a position set up for analysis (the longest games have a few hundred)."""

AnalysisId = Annotated[str, Path(min_length=1, max_length=32)]
AnalysisBoard = Annotated[Analyses, part("analyses")]
"""The analysis board's sessions, as the composition root built them."""
GameReviews = Annotated[Reviews, part("reviews")]
"""The post-game reviews, as the composition root built them."""
CellName = Annotated[
    str | None,
    Query(max_length=8, description="a cell such as r5c5 (Sumodoku: that cell only)"),
]
HINT_REFUSALS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (401, 403, 404, 409, 422, 429)
}


class AnalysisRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: GameName | None = Field(None, description="a game id (without game_id)")
    options: dict[Annotated[str, Field(max_length=32)], OptionValue] = Field(
        default_factory=dict, max_length=32, description="the game's options (without game_id)"
    )
    game_id: str | None = Field(
        None, min_length=1, max_length=24, description="a game on this server: its position"
    )
    ply: int | None = Field(
        None, ge=0, description="with game_id: after this many of its moves (default: all)"
    )
    moves: list[Annotated[str, Field(max_length=32)]] = Field(
        default_factory=list,
        max_length=MAX_MOVES,
        description="moves played from there (from the start without game_id)",
    )


def refuse_in_play(live: LiveGame, who: Who) -> None:
    """Refuses (403) the analysis of a game being played when it could help win it."""
    if live.status != "active":
        return
    if live.seats_of(who):
        why = "you are playing this game: it can be analysed once it is over"
    elif not live.casual:
        why = "a rated game being played can be analysed once it is over"
    elif live.hidden:
        why = f"{live.game.title} hides information until the game is over: analyse it then"
    else:
        return
    raise ApiError(403, "analysis_refused", why, game_id=live.id)


def with_aids(game_id: str, options: dict[str, Any]) -> Game:
    """The game with ``options`` and, where it has them, aids on (analysis shows them)."""
    names = {o.name for o in game_class(game_id).option_specs}
    if "aids" in names:
        options = {**options, "aids": True}
    try:
        return sansu.load_game(game_id, **options)
    except ValueError as error:
        raise ApiError(422, "bad_options", str(error)) from None


def replay(game: Game, moves: list[str]) -> tuple[State, list[str], list[int | None]]:
    """The state after ``moves``, their canonical texts and who was to move at each (the
    move list names its movers); an illegal move is refused (422) naming its number."""
    state = game.initial_state()
    texts = []
    movers = []
    for number, move in enumerate(moves, 1):
        movers.append(state.to_move)
        try:
            state = state.play(move)
        except (IllegalMove, ValueError) as error:
            raise ApiError(
                422, "illegal_move", f"move {number}, {error}", move=move, number=number
            ) from None
        texts.append(str(state.last_move))
    return state, texts, movers


# The analysis board.

router = APIRouter(prefix="/api", tags=["analysis"])


@router.post("/analysis", status_code=201, responses=refusals(401, 403, 404, 503))
async def start_analysis(
    body: AnalysisRequest,
    request: Request,
    service: Service,
    analyses: AnalysisBoard,
    caller: TokenOrSession,
) -> dict[str, Any]:
    """Sets up a position and starts thinking about it; poll ``GET /api/analysis/{id}``."""
    analyses.check_room(client_of(request.scope))  # before the costly setting up
    base: list[str] = []
    source: dict[str, Any] = {"game_id": None, "ply": None}
    who = await caller.acting(write=False)  # a player by the cookie alone is a player
    if body.game_id is not None:
        live = await watched(body.game_id, service, caller)
        refuse_in_play(live, who)
        if body.game is not None and game_class(body.game).id != live.game.id:
            raise ApiError(422, "invalid_request", f"game {body.game_id} is not {body.game}")
        ply = len(live.moves) if body.ply is None else body.ply
        if ply > len(live.moves):
            raise ApiError(404, "no_such_position", f"the game has {len(live.moves)} moves")
        base = [m.text for m in live.moves[:ply]]
        game_id, options = live.game.id, dict(live.options)
        public = dict(live.public_options)
        source = {"game_id": live.id, "ply": ply}
    elif body.game is not None:
        game_id, options = game_class(body.game).id, dict(body.options)
        public = None
    else:
        raise ApiError(422, "invalid_request", "name a game, or a game_id of this server")
    game = with_aids(game_id, options)
    moves = [*base, *(m.strip() for m in body.moves)]
    state, moves, movers = await asyncio.to_thread(replay, game, moves)
    hidden = hides_information(state)
    await refuse_help(service.store, game.id, game.options, moves, who, hidden=hidden)
    step = StepRequest(game.id, dict(game.options), tuple(moves), 1)
    session = analyses.start(client_of(request.scope), step, state)
    view = state.view(None)
    if public is not None:  # a game of this server: its options as its players see them
        view["options"] = {**public, **({"aids": True} if "aids" in game.options else {})}
    return {
        **session.news(),
        "game": game.id,
        "title": game.title,
        # a position set up by moves: every option (a seed included), to set up the next
        "options": dict(game.options) if public is None else view["options"],
        "moves": moves,
        "movers": movers,
        "base": len(base),
        **source,
        "view": view,
    }


@router.get("/analysis/{analysis_id}", responses=refusals(404))
async def analysis_news(
    analysis_id: AnalysisId,
    analyses: AnalysisBoard,
    after: Annotated[int, Query(ge=0, description="the last step seen")] = 0,
    wait: Annotated[float, Query(ge=0, le=WAIT, description="seconds to wait")] = WAIT,
) -> dict[str, Any]:
    """The deepest result so far, once deeper than ``after`` (waits up to ``wait`` s):
    ``analysis`` (the mover's winning chance, best line, candidates), ``step``, ``done``."""
    return await analyses.news(analysis_id, after, wait)


@router.delete("/analysis/{analysis_id}", status_code=204, responses=refusals(404))
async def stop_analysis(analysis_id: AnalysisId, analyses: AnalysisBoard) -> Response:
    """Stops thinking (the page left the position)."""
    analyses.stop(analysis_id)
    return Response(status_code=204)


@router.get("/analysis/{analysis_id}/hint", responses=refusals(401, 403, 404, 422))
async def analysis_hint(
    analysis_id: AnalysisId,
    analyses: AnalysisBoard,
    service: Service,
    caller: TokenOrSession,
    cell: Annotated[str | None, Query(max_length=8)] = None,
) -> Any:
    """The game's hint in the analysed position (aids are on in analysis), unless a game
    in play has reached that position since the analysis was set up."""
    session = analyses.get(analysis_id)
    state, step = session.state, session.request
    who = await caller.acting(write=False)
    hidden = hides_information(state)
    await refuse_help(service.store, step.game, step.options, step.moves, who, hidden=hidden)
    if not supports_hints(state.game):
        raise ApiError(404, "no_hints", f"{state.game.title} has no hints")
    try:
        return await asyncio.to_thread(hint, state, cell)
    except NoHint as error:
        return JSONResponse(
            {"game": state.game.id, "ply": state.ply, "kind": "none", "message": str(error)}
        )
    except ValueError as error:
        raise ApiError(422, "bad_cell", str(error)) from None


# Post-game reviews: a game whose creator turned watching off is reviewed for its
# players only.


async def refuse_review(live: LiveGame, service: Service, who: Who) -> None:
    """Refuses (409) the review of a record whose moves belong to a game in play (the
    game itself is refused by the reviews), as the analysis board would."""
    if live.status == "active":
        return
    moves = [m.text for m in live.moves]
    await refuse_help(
        service.store,
        live.game.id,
        live.options,
        moves,
        who,
        hidden=live.hidden,
        status=409,
        code="game_in_play",
    )


reviews_router = APIRouter(prefix="/api", tags=["archive"], dependencies=[Depends(watched)])


@reviews_router.post(
    "/games/{game_id}/review",
    status_code=202,
    responses={200: {"description": "the stored review"}, **refusals(401, 403, 404, 409, 503)},
)
async def start_review(
    game_id: GameId,
    request: Request,
    live: Watched,
    service: Service,
    reviews: GameReviews,
    caller: TokenOrSession,
) -> Any:
    """Starts the engine's review of a finished game or imported record, once: while it
    runs the answer is its progress (202); once stored, the review itself (200)."""
    await refuse_review(live, service, await caller.acting(write=False))
    done, body = await reviews.start(game_id, client_of(request.scope))
    return JSONResponse(body, status_code=200) if done else JSONResponse(body, status_code=202)


@reviews_router.get("/games/{game_id}/review", responses=refusals(401, 403, 404))
async def get_review(
    game_id: GameId, live: Watched, service: Service, reviews: GameReviews, caller: TokenOrSession
) -> dict[str, Any]:
    """The stored review (``status: done``), or the progress of the one under way
    (``status: running``, ``percent``); 404 ``no_review`` when none was asked for."""
    await refuse_review(live, service, await caller.acting(write=False))
    return await reviews.status(game_id)


# Hints in a game being played.

hints_router = APIRouter(prefix="/api")


@hints_router.get("/games/{game_id}/hint", tags=["play"], responses=HINT_REFUSALS)
async def get_hint(
    game_id: Annotated[str, Path(min_length=1, max_length=24)],
    service: Service,
    caller: TokenOrSession,
    cell: CellName = None,
) -> dict[str, Any]:
    """A hint for the token's seat, which must be the one to move (aids on only).

    Sumodoku: the colours that fit ``cell`` (or every empty cell). Sudoku
    Challenge: the next logical step, its technique and the cells involved;
    ``kind: "none"`` when the next digit needs a guess.
    """
    live = await service.get(game_id)
    held = live.holder(await caller.acting(write=False))
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
