"""sansu: competitive grid-and-digit board games.

>>> import sansu
>>> game = sansu.load_game("uttt")
>>> state = game.initial_state().play("r5c5")
>>> state.to_move, len(state.legal_moves())
(1, 8)
"""

from sansu.core.protocol import Game, IllegalMove, Move, Player, Result, State
from sansu.core.record import GameRecord
from sansu.core.registry import game_ids, load_game

__all__ = [
    "Game",
    "GameRecord",
    "IllegalMove",
    "Move",
    "Player",
    "Result",
    "State",
    "game_ids",
    "load_game",
]
__version__ = "0.1.0"
