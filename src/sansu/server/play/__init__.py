"""Play: a live game, the games in memory, seating, moves, clocks, the computer's turns,
rated games, offers, rematches, privacy, the archive, events, the hub of sockets and the views.

:class:`GameService` names the parts for the other domains. May import: base, accounts,
ratings.
"""

from __future__ import annotations

from sansu.server.play.archive import ABANDON_AFTER, Archive
from sansu.server.play.clocks import ClockState, check_time_control
from sansu.server.play.computer import ComputerClosed, ComputerRunner, cached_game
from sansu.server.play.computer_turns import ComputerTurns
from sansu.server.play.events import EventLog
from sansu.server.play.hub import Connection, Hub
from sansu.server.play.in_play import refuse_help
from sansu.server.play.live import (
    MAX_NAME,
    Change,
    Event,
    LiveGame,
    PlayedMove,
    Seat,
    dumps,
    hash_token,
    hides_information,
    new_id,
)
from sansu.server.play.moves import CLAIM_AFTER, Play
from sansu.server.play.offers import Offers, standing
from sansu.server.play.privacy import set_watchable
from sansu.server.play.rated import RatedGames
from sansu.server.play.rematch import Rematches
from sansu.server.play.rounds import KEEP_FINISHED, KEEP_IDLE, Rounds
from sansu.server.play.routes import Service, Watched, move_answer, router, watched
from sansu.server.play.routes_info import router as info_router
from sansu.server.play.routes_offers import router as offers_router
from sansu.server.play.seating import Seating
from sansu.server.play.service import GameService, games_needing_server
from sansu.server.play.socket import router as socket_router
from sansu.server.play.stored import stored_seq
from sansu.server.play.timekeeper import Timekeeper
from sansu.server.play.views import catalog, game_json

__all__ = [
    "ABANDON_AFTER",
    "CLAIM_AFTER",
    "KEEP_FINISHED",
    "KEEP_IDLE",
    "MAX_NAME",
    "Archive",
    "Change",
    "ClockState",
    "ComputerClosed",
    "ComputerRunner",
    "ComputerTurns",
    "Connection",
    "Event",
    "EventLog",
    "GameService",
    "Hub",
    "LiveGame",
    "Offers",
    "Play",
    "PlayedMove",
    "RatedGames",
    "Rematches",
    "Rounds",
    "Seat",
    "Seating",
    "Service",
    "Timekeeper",
    "Watched",
    "cached_game",
    "catalog",
    "check_time_control",
    "dumps",
    "game_json",
    "games_needing_server",
    "hash_token",
    "hides_information",
    "info_router",
    "move_answer",
    "new_id",
    "offers_router",
    "refuse_help",
    "router",
    "set_watchable",
    "socket_router",
    "standing",
    "stored_seq",
    "watched",
]
