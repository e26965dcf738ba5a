"""A tiny game for testing the generic search: take 1 or 2 stones; who takes the last one wins.

Any number of players take turns in order. With two players, a pile that is
a multiple of 3 is lost for the player to move.
"""

from __future__ import annotations

from sansu.core.options import Option
from sansu.core.protocol import Game, IllegalMove, Result, State


class Take(Game):
    id = "take"
    title = "Take the last stone"
    option_specs = (
        Option("stones", int, 7, "stones in the pile", low=1, high=60),
        Option("players", int, 2, "players", low=2, high=5),
    )

    @property
    def num_players(self) -> int:
        return int(self.options["players"])

    def initial_state(self) -> TakeState:
        return TakeState(self, self.options["stones"], 0, None, 0)

    def parse_move(self, text: str) -> int:
        if text.strip() not in ("1", "2"):
            raise IllegalMove("take 1 or 2", text)
        return int(text)


class TakeState(State):
    __slots__ = ("game", "last_move", "ply", "result", "stones", "to_move")

    def __init__(self, game: Take, stones: int, to_move: int, last: int | None, ply: int) -> None:
        self.game = game
        self.stones = stones
        self.to_move = to_move
        self.last_move = last
        self.ply = ply
        self.result = None

    def legal_moves(self) -> list[int]:
        return [] if self.result else [n for n in (1, 2) if n <= self.stones]

    def play(self, move: int | str) -> TakeState:
        if isinstance(move, str):
            move = self.game.parse_move(move)
        if move not in self.legal_moves():
            raise IllegalMove("not that many stones", str(move))
        mover = self.to_move
        new = TakeState(self.game, self.stones - move, (mover + 1) % self.game.num_players,
                        move, self.ply + 1)  # fmt: skip
        if new.stones == 0:
            new.to_move = None
            new.result = Result.win(mover, reason="took the last stone")
        return new
