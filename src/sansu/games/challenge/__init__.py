"""Sudoku Challenge among friends and relatives: 2–5 players fill one Sudoku for points.

Rules as implemented (see ``docs/rules/reference/challenge.md``): every round each
player in turn makes the round's count of entries (``sequence``: regular
1,2,3,1,2,3…, shortened 1,2,3,3…, express 3,3…). A correct entry is placed
and scores its digit; completing a row, column or box scores +10 once per
turn. A wrong entry is recorded, not placed, and the player's next entry must
be in the same cell. The final round (the first whose entries due would fill
the grid) may be played in increasing order of score; players left out by
the full grid score +10. Highest score wins.

The solution is hidden state: :meth:`ChallengeState.to_dict` and
:meth:`ChallengeState.view` never carry it, nor anything that gives it away
(legal moves are every digit on every empty cell; the ``seed`` option, which
regenerates the puzzle and thus its solution, is withheld). Only
:meth:`ChallengeState.hidden_json` reveals it.

The engine, one module per part: :mod:`.rounds` (the numbers and the order
of play), :mod:`.moves`, :mod:`.sheet` (the score sheet), :mod:`.puzzles`,
:mod:`.game` (the game and its positions), :mod:`.turns` (how a position
moves on from turn to turn and round to round) and :mod:`.view` (their JSON).
Everything is importable from here.
"""

from sansu.games.challenge.game import ChallengeState, SudokuChallenge
from sansu.games.challenge.moves import (
    CELL_NAMES,
    ENTRIES,
    TIMEOUT,
    ChallengeMove,
    Entry,
    Timeout,
    parse_entry,
)
from sansu.games.challenge.rounds import (
    COMPLETION_BONUS,
    DIFFICULTIES,
    GRID_FULL_BONUS,
    HANDICAPS,
    SEQUENCES,
    TEAM_NAMES,
    TEAMS,
    alternate_teams,
    round_count,
)
from sansu.games.challenge.sheet import (
    GRID_FULL,
    PLAYED,
    PLAYING,
    WAITING,
    ErrorRecord,
    Placed,
    TurnRow,
)

__all__ = [
    "CELL_NAMES",
    "COMPLETION_BONUS",
    "DIFFICULTIES",
    "ENTRIES",
    "GAME",
    "GRID_FULL",
    "GRID_FULL_BONUS",
    "HANDICAPS",
    "PLAYED",
    "PLAYING",
    "SEQUENCES",
    "TEAMS",
    "TEAM_NAMES",
    "TIMEOUT",
    "WAITING",
    "ChallengeMove",
    "ChallengeState",
    "Entry",
    "ErrorRecord",
    "Placed",
    "SudokuChallenge",
    "Timeout",
    "TurnRow",
    "alternate_teams",
    "parse_entry",
    "round_count",
]

GAME = SudokuChallenge
