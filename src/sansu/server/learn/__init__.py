"""Learning: lessons' progress, rated puzzles and the Sudoku technique trainer.

May import: base, accounts, ratings, play, analysis.
"""

from __future__ import annotations

from sansu.server.learn.puzzles import DATA_ENV, PuzzleBook, PuzzleRatings
from sansu.server.learn.routes_lessons import lessons_router
from sansu.server.learn.routes_puzzles import mistakes_router
from sansu.server.learn.routes_puzzles import router as puzzles_router
from sansu.server.learn.routes_trainer import trainer_router
from sansu.server.learn.tables import (
    LessonStepRow,
    PuzzleAttemptRow,
    PuzzlePlayerRow,
    PuzzleRatingRow,
)

__all__ = [
    "DATA_ENV",
    "LessonStepRow",
    "PuzzleAttemptRow",
    "PuzzleBook",
    "PuzzlePlayerRow",
    "PuzzleRatingRow",
    "PuzzleRatings",
    "lessons_router",
    "mistakes_router",
    "puzzles_router",
    "trainer_router",
]
