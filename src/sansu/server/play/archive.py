"""The archive: listing games, replaying positions, exporting and importing JSON records.

A game in play that nobody plays any more is **abandoned** (see
:data:`ABANDON_AFTER`): it is listed apart from the games to watch, and
stays whole, loaded by its link and resumed by its players' next move.

A record (``sansu.GameRecord``) is checked by replaying every move before it
is stored; an export carries who played and how the game ended. A game that
keeps information from its players is exported only once it is over. An
imported record is bounded (:func:`check_size`) before anything else is done
with it, so imports cannot fill memory or the database, and a record whose
moves belong to a game in play is imported on the analysis board's terms
(:func:`~sansu.server.play.in_play.refuse_help`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, func, select

import sansu
from sansu.core.protocol import IllegalMove, Result
from sansu.server.accounts import Who
from sansu.server.base import ApiError, Store
from sansu.server.base import games as games_table
from sansu.server.base import seats as seats_table
from sansu.server.play.hub import Hub
from sansu.server.play.in_play import refuse_help
from sansu.server.play.live import (
    MAX_NAME,
    LiveGame,
    PlayedMove,
    Seat,
    dumps,
    hides_information,
    is_text,
    new_id,
)
from sansu.server.play.rounds import Rounds

MAX_RECORD_MOVES = 1000
"""Moves of an imported record: the longest real games (Challenge with 5 players) have
about 330, the others at most 144 (Thirty-five on 12 × 12)."""
MAX_MOVE_TEXT = 32
"""Characters of one move (real moves have at most 6)."""
MAX_RECORD_TEXT = 256
"""Characters of any other string of a record, names and keys included."""
MAX_RECORD_REST = 8 * 1024
"""Bytes of a record's JSON without its moves (game, options, metadata): a real
export's metadata (players, date, result) is a few hundred."""
MAX_RECORD_DEPTH = 6
"""Nesting of lists and objects, the record itself included (a player's entry is at 4)."""

ABANDON_AFTER = 600.0
"""Seconds after which a game in play is abandoned: nothing happened in it (no
move, no seat taken) and no holder of a seat had a socket open on it for that
long. Spectators do not count; computers never leave, so a game against the
computer whose player closed the page is abandoned ten minutes later."""


class Archive:
    """Lists of games (to watch, abandoned, finished), records, positions."""

    def __init__(
        self,
        rounds: Rounds,
        store: Store,
        clock: Callable[[], float],
        hub: Hub,
        abandon_after: float = ABANDON_AFTER,
    ) -> None:
        self.rounds = rounds
        self.store = store
        self.time = clock
        self.hub = hub
        self.abandon_after = abandon_after

    async def list_games(
        self, *, status: str | None, game: str | None, limit: int, offset: int
    ) -> tuple[int, list[dict[str, Any]]]:
        """Games, latest change first, of one game id and status if given.

        Status ``archive`` means finished or imported; ``active`` lists the
        games being played, ``abandoned`` the games in play nobody plays.
        """
        g = games_table
        cutoff = self.time() - self.abandon_after
        seen = sorted(self.hub.players_seen_since(cutoff))
        recent = (g.c.updated_at >= cutoff) | g.c.id.in_(seen)

        def read(c: Connection) -> tuple[int, list[dict[str, Any]]]:
            # private games, and games whose creator turned watching off, are never listed
            where: list[Any] = [g.c.private.is_(False), g.c.watchable.is_(True)]
            if status == "archive":
                where.append(g.c.status.in_(("finished", "imported")))
            elif status == "active":
                where += [g.c.status == "active", recent]
            elif status == "abandoned":
                where += [g.c.status == "active", ~recent]
            elif status:
                where.append(g.c.status == status)
            if game:
                where.append(g.c.game == game)
            total = c.execute(select(func.count()).select_from(g).where(*where)).scalar_one()
            rows = c.execute(
                select(g)
                .where(*where)
                .order_by(g.c.updated_at.desc(), g.c.id)
                .limit(limit)
                .offset(offset)
            ).all()
            ids = [r.id for r in rows]
            seat_rows = (
                c.execute(select(seats_table).where(seats_table.c.game_id.in_(ids))).all()
                if ids
                else []
            )
            by_game: dict[str, list[dict[str, Any]]] = {}
            for s in sorted(seat_rows, key=lambda s: s.seat):
                by_game.setdefault(s.game_id, []).append(
                    Seat(s.seat, s.kind, s.level, s.name, s.token_hash, None, s.user_id).public()
                )
            out = []
            for r in rows:
                out.append(
                    {
                        "id": r.id,
                        "game": r.game,
                        "options": r.public_options,
                        "status": r.status,
                        "abandoned": r.status == "active"
                        and r.updated_at < cutoff
                        and r.id not in seen,
                        "casual": r.casual,
                        "state": r.version,
                        "ply": r.ply,
                        "to_move": r.to_move,
                        "result": r.result,
                        "termination": r.termination,
                        "seats": [
                            {**seat, "bot": seat["seat"] in (r.meta or {}).get("bots", ())}
                            for seat in by_game.get(r.id, [])
                        ],
                        "rematch_of": r.rematch_of,
                        "rematch_id": r.rematch_id,
                        "created_at": r.created_at,
                        "updated_at": r.updated_at,
                        "finished_at": r.finished_at,
                    }
                )
            return total, out

        return await self.store.read(read)

    def record(self, live: LiveGame) -> dict[str, Any]:
        """The game's JSON record (``sansu.GameRecord``), with who played and how it ended."""
        if live.status == "active" and hides_information(live.state):
            raise ApiError(
                409,
                "hidden_information",
                "this game keeps information from its players; its record is shown when it is over",
            )
        bots = live.meta.get("bots", ())
        players = [
            {
                "seat": s.seat,
                "kind": s.kind,
                "level": s.level,
                "name": s.name,
                "bot": s.seat in bots,
            }
            for s in live.seats
        ]
        metadata = {k: v for k, v in live.meta.items() if k != "offers"}  # of play, not record
        metadata.update(
            {
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(live.created_at)),
                "server_game": live.id,
                "players": players,
                "status": live.status,
            }
        )
        if live.termination is not None:
            metadata["termination"] = live.termination
        if live.result is not None and live.termination != "rules":
            metadata["host_result"] = live.result
        record = sansu.GameRecord(
            live.game.id, dict(live.options), [m.text for m in live.moves], metadata
        )
        return record.to_dict()

    async def import_record(self, data: Any, who: Who = None) -> LiveGame:
        """Stores a JSON record as an archived game (checked by replaying every move), with
        its moves written as the engine writes them; a copy of a game in play (or the start
        of one, or one going on from it) is refused (409) to ``who`` if the analysis board
        would refuse it."""
        check_size(data)
        if not is_text(data):
            raise ApiError(
                422, "bad_record", "the record holds a lone surrogate (not Unicode text)"
            )
        try:
            record = await asyncio.to_thread(sansu.GameRecord.from_dict, data)
            states = await asyncio.to_thread(record.states)
        except IllegalMove as error:
            raise ApiError(422, "bad_record", str(error)) from None
        except (ValueError, TypeError, KeyError) as error:
            raise ApiError(422, "bad_record", str(error)) from None
        final = states[-1]
        game = record.load()
        texts = [str(state.last_move) for state in states[1:]]
        hidden = hides_information(final)
        await refuse_help(
            self.store,
            game.id,
            game.options,
            texts,
            who,
            hidden=hidden,
            status=409,
            code="game_in_play",
        )
        now = self.time()
        meta = dict(record.metadata)
        players = meta.get("players")
        seats = []
        for i in range(game.num_players):
            name = None
            if isinstance(players, list) and i < len(players):
                p = players[i]
                name = p.get("name") if isinstance(p, dict) else p if isinstance(p, str) else None
            seats.append(Seat(i, "imported", None, str(name)[:MAX_NAME] if name else None))
        result = None if final.result is None else final.result.to_dict()
        termination = "rules" if result else None
        host = meta.get("host_result")
        if result is None and isinstance(host, dict):
            try:
                result = Result.from_dict(host).to_dict()
                termination = str(meta.get("termination") or "host")[:16]
            except (KeyError, TypeError, ValueError):
                result = None
        status = "finished" if result is not None else "imported"
        # Each move is its mover's (the player to move before it), as in a game played here.
        moves = [
            PlayedMove(i + 1, m, states[i].to_move, now, i + 1) for i, m in enumerate(texts)
        ]
        live = LiveGame(
            id=new_id(),
            game=game,
            state=final,
            options=dict(game.options),
            public_options=dict(final.view(None).get("options", game.options)),
            seats=seats,
            moves=moves,
            status=status,
            casual=True,
            version=len(moves),
            result=result,
            termination=termination,
            meta={"imported": True, **{k: v for k, v in meta.items() if k != "server_game"}},
            created_at=now,
            updated_at=now,
            finished_at=now,
        )
        await self.rounds.insert(live)
        return live

    async def position(self, live: LiveGame, ply: int) -> dict[str, Any]:
        """The position after ``ply`` moves, as a spectator sees it."""
        if not 0 <= ply <= len(live.moves):
            raise ApiError(
                404, "no_such_position", f"this game has positions 0 to {len(live.moves)}"
            )
        texts = [m.text for m in live.moves[:ply]]
        state = await asyncio.to_thread(live.game.play_moves, texts)
        return {
            "ply": ply,
            "move": texts[-1] if texts else None,
            "seat": live.moves[ply - 1].seat if ply else None,
            "view": state.view(None),
        }


def _too_large(message: str) -> ApiError:
    return ApiError(422, "record_too_large", message)


def check_size(data: Any) -> None:
    """Refuses (``422 record_too_large``) a record over a cap: more than
    :data:`MAX_RECORD_MOVES` moves or a move over :data:`MAX_MOVE_TEXT` characters, any
    other string over :data:`MAX_RECORD_TEXT`, nesting deeper than
    :data:`MAX_RECORD_DEPTH`, or more than :data:`MAX_RECORD_REST` bytes besides the
    moves. Anything not shaped like a record is left to the record's own checks."""
    if not isinstance(data, dict):
        return
    moves = data.get("moves")
    if isinstance(moves, list):
        if len(moves) > MAX_RECORD_MOVES:
            raise _too_large(f"a record holds at most {MAX_RECORD_MOVES} moves")
        if any(isinstance(m, str) and len(m) > MAX_MOVE_TEXT for m in moves):
            raise _too_large(f"a move is at most {MAX_MOVE_TEXT} characters")
    rest = {k: v for k, v in data.items() if k != "moves"}
    stack: list[tuple[Any, int]] = [(rest, 1)]
    while stack:  # iterative: a deep record must not exhaust the stack
        value, depth = stack.pop()
        if isinstance(value, str) and len(value) > MAX_RECORD_TEXT:
            raise _too_large(f"a string of a record is at most {MAX_RECORD_TEXT} characters")
        if isinstance(value, (dict, list)):
            if depth > MAX_RECORD_DEPTH:
                raise _too_large(f"a record nests at most {MAX_RECORD_DEPTH} levels")
            items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
    try:
        size = len(dumps(rest).encode("utf-8", "surrogatepass"))
    except (TypeError, ValueError):
        return  # not JSON-shaped: left to the record's own checks
    if size > MAX_RECORD_REST:
        raise _too_large(
            f"a record's game, options and metadata are at most {MAX_RECORD_REST} bytes of JSON"
        )
