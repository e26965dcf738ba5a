"""A bot account's page over HTTP: becoming a bot, and its personal API tokens.

These are session flows of the account's owner (a person at a browser, who
runs the bot): the session cookie with the CSRF header, like every account
write. A token is shown once, in the answer that creates it; afterwards
only its label and id are listed, and revoking it makes every later
request with it fail with 401.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from sansu.server.accounts import CsrfHeader, User, UserError, signed_session
from sansu.server.base import ApiError, Store, refusals
from sansu.server.bots import accounts as bot_accounts

T = TypeVar("T")

STATUS = {"no_user": 401, "has_played": 409, "not_a_bot": 403, "too_many_tokens": 409}


class NewToken(BaseModel):
    model_config = ConfigDict(extra="forbid")
    label: str = Field(
        max_length=bot_accounts.MAX_LABEL, description="what the token is for, e.g. 'home server'"
    )


def build_tokens_router(store: Store) -> APIRouter:
    router = APIRouter(prefix="/api/account", tags=["accounts"])

    async def write(fn: Callable[[Connection], T]) -> T:
        try:
            return await asyncio.to_thread(store.write_now, fn)
        except UserError as error:
            raise ApiError(STATUS.get(error.code, 422), error.code, str(error)) from None

    async def owner(request: Request, csrf: str | None, *, check: bool = True) -> User:
        return (await signed_session(store, request, csrf or "", write=check))[1]

    def private(response: Response) -> None:
        response.headers["Cache-Control"] = "no-store"

    @router.post("/bot", responses=refusals(401, 403, 409))
    async def become_bot(
        request: Request, response: Response, csrf: CsrfHeader = None
    ) -> dict[str, Any]:
        """Makes this account a bot account, for good; refused once it has played a game."""
        private(response)
        user = await owner(request, csrf)
        made = await write(lambda c: bot_accounts.make_bot(c, user.id))
        return {"id": made.id, "name": made.name, "bot": made.bot}

    @router.get("/tokens", responses=refusals(401))
    async def tokens(request: Request, response: Response) -> dict[str, Any]:
        """The account's live API tokens (never the tokens themselves)."""
        private(response)
        user = await owner(request, None, check=False)
        found = await store.read(lambda c: bot_accounts.list_tokens(c, user.id))
        return {"tokens": [t.public() for t in found]}

    @router.post("/tokens", status_code=201, responses=refusals(401, 403, 409))
    async def new_token(
        body: NewToken, request: Request, response: Response, csrf: CsrfHeader = None
    ) -> dict[str, Any]:
        """A new API token of this bot account: ``token`` is shown this once only."""
        private(response)
        user = await owner(request, csrf)
        token, info = await write(
            lambda c: bot_accounts.create_token(c, user, body.label, now=time.time())
        )
        return {"token": token, **info.public()}

    @router.delete("/tokens/{token_id}", responses=refusals(401, 403, 404))
    async def revoke(
        token_id: Annotated[int, Path(ge=1, le=2**31)],
        request: Request,
        response: Response,
        csrf: CsrfHeader = None,
    ) -> dict[str, Any]:
        """Revokes one API token: requests with it fail with 401 from now on."""
        private(response)
        user = await owner(request, csrf)
        done = await write(
            lambda c: bot_accounts.revoke_token(c, user.id, token_id, now=time.time())
        )
        if not done:
            raise ApiError(404, "no_token", f"this account has no live token {token_id}")
        return {"ok": True}

    return router
