"""What clients see: the catalog of games and a game as one client's seats see it."""

from __future__ import annotations

import json
from typing import Any

import sansu
from sansu.core.registry import game_class
from sansu.server.play.computer import levels
from sansu.server.play.live import LiveGame
from sansu.server.play.offers import standing
from sansu.server.play.service import GameService
from sansu.server.ratings import level_ratings


def catalog() -> dict[str, Any]:
    games = []
    for game_id in sansu.game_ids():
        cls = game_class(game_id)
        game = cls()
        games.append(
            {
                "id": cls.id,
                "title": cls.title,
                "aliases": list(cls.aliases),
                "players": game.num_players,
                "options": [
                    {
                        "name": o.name,
                        "kind": o.kind.__name__,
                        "default": o.default,
                        "help": o.help,
                        "choices": None if o.choices is None else list(o.choices),
                        "low": o.low,
                        "high": o.high,
                    }
                    for o in cls.option_specs
                ],
            }
        )
    return {"games": games, "levels": list(levels()), "level_ratings": level_ratings()}


def game_json(service: GameService, live: LiveGame, held: frozenset[int]) -> dict[str, Any]:
    data = live.summary()
    to_move = live.state.to_move
    viewer = None if not held else (to_move if to_move in held else min(held))
    bots = set(live.meta.get("bots", ()))
    for seat in data["seats"]:
        seat["bot"] = seat["seat"] in bots
    data["you"] = sorted(held)
    data["view"] = json.loads(live.view_json(viewer))
    data["moves"] = [m.public() for m in live.moves]
    data["presence"] = service.hub.presence(live)
    data["can_take_back"] = bool(held) and service.moves.can_take_back(live, held) is None
    data["offers"] = standing(live)
    data["can_draw"] = live.game.can_draw
    data["claim_at"] = service.moves.claim_at(live, held)
    data["hidden_information"] = live.hidden
    return data
