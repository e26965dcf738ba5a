"""The game 35 with its options fixed: the board's size."""

from __future__ import annotations

from typing import Any

from sansu.core.options import Option
from sansu.core.protocol import Game
from sansu.games.thirtyfive.board import MAX_SIZE, MIN_SIZE, Placement, geometry
from sansu.games.thirtyfive.state import ThirtyFiveState


class ThirtyFive(Game):
    """35 on a ``rows`` × ``cols`` board."""

    id = "thirtyfive"
    title = "35"
    aliases = ("35",)
    option_specs = (
        Option("rows", int, 8, "rows of the board", low=MIN_SIZE, high=MAX_SIZE),
        Option("cols", int, 8, "columns of the board", low=MIN_SIZE, high=MAX_SIZE),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.geometry = geometry(self.options["rows"], self.options["cols"])

    def initial_state(self) -> ThirtyFiveState:
        geo = self.geometry
        return ThirtyFiveState(
            self, geo, 0, 0, 0, 0, 0, 0, 0, tuple(range(geo.size)), 0, 0, False, 0, None, 0, None
        )

    def parse_move(self, text: str) -> Placement:
        return self.geometry.parse(text)
