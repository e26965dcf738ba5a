"""Offers between the two people at a board: a draw, or taking back a move.

A player offers; the opponent accepts or declines; the offerer may withdraw
(decline their own offer). An offer is kept with the game (``meta["offers"]``)
with the state number and ply it was made at, so it needs no column and every
node of a cluster reads it from the store like the rest of the game:

- a **draw** offer stands until a move of the opponent's (a move answers it, as
  a decline) or any other change of the position; the offerer's own move leaves
  it standing, so a player may offer and move. Accepting ends the game drawn
  by agreement (a rated game is rated as a draw). Only in games whose rules
  can end drawn (:attr:`sansu.core.protocol.Game.can_draw`).
- a **takeback** request stands while the position is the one it was made in.
  Accepting undoes the moves since the requester's last move, so that it is
  their move again. Only in casual games; against the computer, the page takes
  back at once (:meth:`~sansu.server.play.moves.Play.take_back`).

Both are between two people: two seats, both human, each held by someone else.
"""

from __future__ import annotations

from typing import Any, Literal

from sansu.core.protocol import Result
from sansu.server.accounts import Who
from sansu.server.base import ApiError, game_over, stale
from sansu.server.play.live import Change, LiveGame
from sansu.server.play.moves import Play
from sansu.server.play.rounds import Rounds

Kind = Literal["draw", "takeback"]
KINDS: tuple[Kind, ...] = ("draw", "takeback")


def standing(live: LiveGame) -> dict[str, int]:
    """The offers that stand now: kind → the offering seat."""
    if live.status != "active":
        return {}
    out = {}
    for kind, offer in (live.meta.get("offers") or {}).items():
        seat, ply, state = offer["seat"], offer["ply"], offer["state"]
        after = live.moves[ply:]
        if kind == "takeback":
            stands = live.version == state
        else:  # the offerer's own moves leave it standing
            stands = (
                len(live.moves) >= ply
                and live.version == state + len(after)
                and all(m.seat == seat for m in after)
            )
        if stands:
            out[kind] = seat
    return out


class Offers:
    """Draw offers and takeback requests, their answers and withdrawals."""

    def __init__(self, rounds: Rounds, play: Play) -> None:
        self.rounds = rounds
        self.play = play

    def refusal(self, live: LiveGame, kind: str, seat: int) -> str | None:
        """Why ``seat`` may not offer ``kind`` now (``None``: it may)."""
        if kind not in KINDS:
            return f"an offer is one of: {', '.join(KINDS)}"
        if live.status != "active":
            return "the game is over"
        if len(live.seats) != 2 or any(s.kind != "human" for s in live.seats):
            return "offers are between two people"
        if not live.ready:
            return "the game has not started"
        if kind == "draw" and not live.game.can_draw:
            return f"a game of {live.game.title} cannot end drawn"
        if kind == "takeback":
            if not live.casual:
                return "takebacks are only for casual games"
            if not any(m.seat == seat for m in live.moves):
                return "you have no move to take back"
        if standing(live).get(kind) == seat:
            return f"your {kind} offer stands already"
        return None

    async def offer(self, game_id: str, who: Who, kind: str, seen: int | None = None) -> LiveGame:
        """Offers ``kind`` for the caller's seat; an offer of the opponent's of the same
        kind is accepted instead (both want it)."""
        live = await self.rounds.get(game_id)
        async with live.lock:
            seat = await self._seat(live, who, seen)
            why = self.refusal(live, kind, seat)
            if why is not None:
                raise ApiError(409, "no_offer", why)
            if kind == "draw" and standing(live).get(kind) == 1 - seat:
                await self._accept(live, kind, seat)
                return live
            offers = {k: v for k, v in self._kept(live).items() if k != kind}
            offers[kind] = {"seat": seat, "ply": len(live.moves), "state": live.version}
            await self._store(live, offers, "offer", offer=kind, seat=seat)
            return live

    async def answer(self, game_id: str, who: Who, kind: str, accept: bool) -> LiveGame:
        """Accepts or declines the opponent's offer of ``kind``; declining one's own
        offer withdraws it."""
        live = await self.rounds.get(game_id)
        async with live.lock:
            seat = await self._seat(live, who, None)
            offerer = standing(live).get(kind)
            if offerer is None:
                raise ApiError(409, "no_offer", f"there is no {kind} offer to answer")
            if accept and offerer == seat:
                raise ApiError(409, "own_offer", "the other player accepts your offer")
            if accept:
                await self._accept(live, kind, seat)
                return live
            offers = {k: v for k, v in self._kept(live).items() if k != kind}
            event = "offer_withdrawn" if offerer == seat else "offer_declined"
            await self._store(live, offers, event, offer=kind, seat=seat)
            return live

    async def _seat(self, live: LiveGame, who: Who, seen: int | None) -> int:
        """The caller's one seat, once the clocks are applied (under the game's lock)."""
        held = live.holder(who)
        await self.play.timekeeper.apply_due(live)
        if live.status != "active":
            raise game_over()
        if seen is not None and seen != live.version:
            raise stale(seen, live.version)
        if len(held) != 1:
            raise ApiError(409, "no_offer", "offers are between two people, each at one seat")
        return next(iter(held))

    @staticmethod
    def _kept(live: LiveGame) -> dict[str, Any]:
        """The stored offers that still stand (the others are dropped on the next write)."""
        offers = live.meta.get("offers") or {}
        return {k: offers[k] for k in standing(live)}

    async def _store(self, live: LiveGame, offers: dict[str, Any], event: str, **data: Any) -> None:
        change = Change(live)
        self.rounds.event(change, event, **data)
        meta = {**live.meta, "offers": offers}

        def apply() -> None:
            live.meta = meta

        change.apply.append(apply)
        await self.rounds.commit(change, row={"meta": meta})

    async def _accept(self, live: LiveGame, kind: str, seat: int) -> None:
        offerer = 1 - seat
        if kind == "draw":
            await self.rounds.finish(
                live, Result.drawn("drawn by agreement"), "agreement", "draw", seats=[0, 1]
            )
            return
        mine = [i for i, m in enumerate(live.moves) if m.seat == offerer]
        await self.play.undo(live, mine[-1], seat=offerer, accepted_by=seat)
