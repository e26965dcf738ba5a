"""Learning: lessons' progress, rated puzzles and the Sudoku technique trainer.

May import: base, accounts, ratings, play, analysis.
"""

from __future__ import annotations

from sansu.server.learn.routes_trainer import trainer_router
from sansu.server.learn.tables import (
    LessonStepRow,
    PuzzleAttemptRow,
    PuzzlePlayerRow,
    PuzzleRatingRow,
)

__all__ = [
    "LessonStepRow",
    "PuzzleAttemptRow",
    "PuzzlePlayerRow",
    "PuzzleRatingRow",
    "trainer_router",
]
