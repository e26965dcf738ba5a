"""A toy game given as a tree, so that a test can say exactly which moves win and which draw."""

from __future__ import annotations

from typing import Any

from sansu.core.protocol import Game, IllegalMove, Result, State

Tree = dict[str, Any]
"""A node: ``{"move": child, ...}``; a leaf: ``0`` or ``1`` (that player wins) or ``"draw"``."""


class ToyGame(Game):
    id = "toy"
    title = "Toy"

    def __init__(self, tree: Tree) -> None:
        super().__init__()
        self.tree = tree

    def initial_state(self) -> ToyState:
        return ToyState(self, self.tree, "", 0)

    def parse_move(self, text: str) -> str:
        return text


class ToyState(State):
    __slots__ = ("game", "last_move", "node", "path", "ply", "result", "to_move")

    def __init__(self, game: ToyGame, node: Any, path: str, ply: int) -> None:
        self.game = game
        self.node = node
        self.path = path
        self.ply = ply
        self.last_move = path.rsplit("/", 1)[-1] or None
        if isinstance(node, dict):
            self.result = None
            self.to_move = ply % 2
        else:
            self.result = Result.drawn("draw") if node == "draw" else Result.win(node, reason="won")
            self.to_move = None

    def legal_moves(self) -> list[str]:
        return list(self.node) if self.result is None else []

    def play(self, move: Any) -> ToyState:
        if self.result is not None or move not in self.node:
            raise IllegalMove("not a move here", str(move))
        return ToyState(self.game, self.node[move], f"{self.path}/{move}", self.ply + 1)


def start(tree: Tree) -> ToyState:
    return ToyGame(tree).initial_state()
