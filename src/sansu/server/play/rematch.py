"""Rematches: offered once a game is over, started when every human seat agreed.

The new game has the same game, options (a fresh seed when the server drew
the old one), time control and players, with the seats turned by one, so
everyone moves at another place; every token holds its new seat.
"""

from __future__ import annotations

import asyncio

from sansu.server.accounts import Who
from sansu.server.base import ApiError
from sansu.server.play.clocks import ClockState
from sansu.server.play.live import Change, LiveGame, Seat, new_id, start_clocks
from sansu.server.play.rounds import Rounds
from sansu.server.play.seating import build_game
from sansu.server.play.stored import insert_game


class Rematches:
    """Offers, acceptances and refusals of rematches."""

    def __init__(self, rounds: Rounds) -> None:
        self.rounds = rounds

    async def offer_rematch(self, game_id: str, who: Who) -> LiveGame:
        """Offers (or accepts) a rematch; when every player agreed, the new game starts.

        The new game has the same game, options (a fresh seed if the server
        drew the old one) and players, seats turned by one so that everyone
        moves at another place in the order; each keeps their token.
        """
        live = await self.rounds.get(game_id)
        async with live.lock:
            held = live.holder(who)
            if live.status == "active":
                raise ApiError(409, "game_not_over", "a rematch is offered once the game is over")
            if live.status != "finished":
                raise ApiError(409, "no_rematch", "an imported game has no rematch")
            if live.rematch_id is not None:
                return live
            offers = sorted(set(live.rematch_offers) | held)
            humans = [s.seat for s in live.seats if s.kind == "human" and s.token_hash is not None]
            change = Change(live)
            if not all(h in offers for h in humans):
                self.rounds.event(change, "rematch_offer", seats=offers)

                def apply_offer() -> None:
                    live.rematch_offers = offers

                change.apply.append(apply_offer)
                await self.rounds.commit(change, row={"rematch_offers": offers})
                return live
            new = await self._rematch_game(live, change.now)
            self.rounds.event(change, "rematch", game_id=new.id, seats=self._turn(len(live.seats)))
            change.writes.append(lambda c: insert_game(c, new))

            def apply() -> None:
                live.rematch_offers = offers
                live.rematch_id = new.id

            change.apply.append(apply)
            async with self.rounds.creating(new):
                await self.rounds.commit(
                    change, row={"rematch_offers": offers, "rematch_id": new.id}
                )
            self.rounds.changed(new)
            return live

    @staticmethod
    def _turn(players: int) -> dict[str, int]:
        """Old seat → new seat of a rematch: everyone moves one place on."""
        return {str(s): (s + 1) % players for s in range(players)}

    async def _rematch_game(self, live: LiveGame, now: float) -> LiveGame:
        options = dict(live.options)
        if live.seed_chosen:
            options["seed"] = None
        try:
            game, state, seed_chosen, public = await asyncio.to_thread(
                build_game, live.game.id, {k: v for k, v in options.items() if v is not None}
            )
        except ValueError as error:
            raise ApiError(409, "no_rematch", f"the rematch cannot start: {error}") from None
        n = len(live.seats)
        seats: list[Seat] = [Seat(0, "human")] * n
        for old in live.seats:
            new_seat = (old.seat + 1) % n
            seats[new_seat] = Seat(
                new_seat,
                old.kind,
                old.level,
                old.name,
                old.token_hash,
                now if old.token_hash else None,
                old.user_id,
            )
        new = LiveGame(
            id=new_id(),
            game=game,
            state=state,
            options=dict(game.options),
            public_options=public,
            seats=seats,
            moves=[],
            casual=live.casual,
            created_by=live.created_by,
            private=live.private,
            join_secret_hash=live.join_secret_hash,
            watchable=live.watchable,
            clock=ClockState.start(live.time_control, n),
            time_control=live.time_control,
            rematch_of=live.id,
            seed_chosen=seed_chosen,
            created_at=now,
            updated_at=now,
        )
        if new.ready:
            start_clocks(new.clock, new.state, now)
        return new

    async def decline_rematch(self, game_id: str, who: Who) -> LiveGame:
        live = await self.rounds.get(game_id)
        async with live.lock:
            held = live.holder(who)
            if live.rematch_id is not None:
                raise ApiError(409, "rematch_started", "the rematch has already started")
            if not live.rematch_offers:
                raise ApiError(409, "no_rematch_offer", "there is no rematch offer to decline")
            change = Change(live)
            self.rounds.event(change, "rematch_declined", seats=sorted(held))

            def apply() -> None:
                live.rematch_offers = []

            change.apply.append(apply)
            await self.rounds.commit(change, row={"rematch_offers": []})
            return live
