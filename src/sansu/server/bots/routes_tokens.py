"""A bot account's page over HTTP: becoming a bot, and its personal API tokens.

These are session flows of the account's owner (a person at a browser, who
runs the bot): the session cookie with the CSRF header, like every account
write. A token is shown once, in the answer that creates it; afterwards
only its label and id are listed, and revoking it makes every later
request with it fail with 401. Each route is a function of this module: the
store comes in through ``part`` and the owner as a
:class:`~sansu.server.accounts.Caller` (the session), both through ``Depends``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Path, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from sansu.server.accounts import Caller, CsrfHeader, SessionOnly, User, UserError
from sansu.server.base import ApiError, Store, part, refusals
from sansu.server.bots import accounts as bot_accounts

T = TypeVar("T")

STATUS = {"no_user": 401, "has_played": 409, "not_a_bot": 403, "too_many_tokens": 409}


class NewToken(BaseModel):
    model_config = ConfigDict(extra="forbid")
    label: str = Field(
        max_length=bot_accounts.MAX_LABEL, description="what the token is for, e.g. 'home server'"
    )


Database = Annotated[Store, part("store")]
"""The store, as the composition root built it."""


async def write(store: Store, fn: Callable[[Connection], T]) -> T:
    """``fn`` written now; an account's refusal becomes its HTTP answer."""
    try:
        return await asyncio.to_thread(store.write_now, fn)
    except UserError as error:
        raise ApiError(STATUS.get(error.code, 422), error.code, str(error)) from None


async def owner(caller: Caller, csrf: str | None, *, check: bool = True) -> User:
    """The signed-in owner of the account; ``check``: a write, with the CSRF header."""
    return (await caller.session(csrf or "", write=check))[1]


def private(response: Response) -> None:
    response.headers["Cache-Control"] = "no-store"


router = APIRouter(prefix="/api/account", tags=["accounts"])
"""``/api/account/bot`` and ``/api/account/tokens``."""


@router.post("/bot", responses=refusals(401, 403, 409))
async def become_bot(
    response: Response, caller: SessionOnly, store: Database, csrf: CsrfHeader = None
) -> dict[str, Any]:
    """Makes this account a bot account, for good; refused once it has played a game."""
    private(response)
    user = await owner(caller, csrf)
    made = await write(store, lambda c: bot_accounts.make_bot(c, user.id))
    return {"id": made.id, "name": made.name, "bot": made.bot}


@router.get("/tokens", responses=refusals(401))
async def tokens(response: Response, caller: SessionOnly, store: Database) -> dict[str, Any]:
    """The account's live API tokens (never the tokens themselves)."""
    private(response)
    user = await owner(caller, None, check=False)
    found = await store.read(lambda c: bot_accounts.list_tokens(c, user.id))
    return {"tokens": [t.public() for t in found]}


@router.post("/tokens", status_code=201, responses=refusals(401, 403, 409))
async def new_token(
    body: NewToken,
    response: Response,
    caller: SessionOnly,
    store: Database,
    csrf: CsrfHeader = None,
) -> dict[str, Any]:
    """A new API token of this bot account: ``token`` is shown this once only."""
    private(response)
    user = await owner(caller, csrf)
    token, info = await write(
        store, lambda c: bot_accounts.create_token(c, user, body.label, now=time.time())
    )
    return {"token": token, **info.public()}


@router.delete("/tokens/{token_id}", responses=refusals(401, 403, 404))
async def revoke(
    token_id: Annotated[int, Path(ge=1, le=2**31)],
    response: Response,
    caller: SessionOnly,
    store: Database,
    csrf: CsrfHeader = None,
) -> dict[str, Any]:
    """Revokes one API token: requests with it fail with 401 from now on."""
    private(response)
    user = await owner(caller, csrf)
    done = await write(
        store, lambda c: bot_accounts.revoke_token(c, user.id, token_id, now=time.time())
    )
    if not done:
        raise ApiError(404, "no_token", f"this account has no live token {token_id}")
    return {"ok": True}
