"""A tiny game for testing the generic search: take 1 to ``most`` stones; who takes the last wins.

Any number of players take turns in order. With two players, a pile that is
a multiple of ``most + 1`` is lost for the player to move.
"""

from __future__ import annotations

from sansu.core.options import Option
from sansu.core.protocol import Game, IllegalMove, Result, State


class Take(Game):
    id = "take"
    title = "Take the last stone"
    option_specs = (
        Option("stones", int, 7, "stones in the pile", low=1, high=500),
        Option("players", int, 2, "players", low=2, high=5),
        Option("most", int, 2, "most stones taken in one move", low=1, high=60),
    )

    @property
    def num_players(self) -> int:
        return int(self.options["players"])

    def initial_state(self) -> TakeState:
        return TakeState(self, self.options["stones"], 0, None, 0)

    def parse_move(self, text: str) -> int:
        if not text.strip().isdigit():
            raise IllegalMove("take a number of stones", text)
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
        most = min(self.game.options["most"], self.stones)
        return [] if self.result else list(range(1, most + 1))

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
