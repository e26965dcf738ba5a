"""Game records: the moves of a game with its id, options and metadata, as JSON.

A record is the durable truth of a game: replaying its moves from the
initial state reproduces every position exactly, because engines are pure.
Loading checks everything (game, options, every move, a stored result) so a
damaged file is an error, never a silently different game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sansu.core.protocol import Game, IllegalMove, Move, State
from sansu.core.registry import load_game

FORMAT = "sansu-record"
VERSION = 1


def now_iso() -> str:
    """The current UTC time as ISO 8601, for a record's ``date`` metadata."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


@dataclass
class GameRecord:
    """One game: ``game`` id, ``options``, canonical ``moves`` and free ``metadata``.

    ``metadata`` holds what people want to know about the game (``players``,
    ``date``, ``event``, ...); it never influences play.
    """

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, game: Game, **metadata: Any) -> GameRecord:
        """An empty record of ``game``, dated now unless ``date`` is given."""
        metadata.setdefault("date", now_iso())
        return cls(game.id, dict(game.options), [], metadata)

    def load(self) -> Game:
        return load_game(self.game, **self.options)

    def append(self, move: Move | str) -> None:
        self.moves.append(str(move))

    def states(self) -> list[State]:
        """Every position of the game, from the initial one to the last."""
        state = self.load().initial_state()
        states = [state]
        for number, move in enumerate(self.moves, 1):
            try:
                state = state.play(move)
            except IllegalMove as error:
                raise IllegalMove(f"move {number}, {error}") from None
            states.append(state)
        return states

    def replay(self) -> State:
        """The last position of the game."""
        return self.load().play_moves(self.moves)

    def to_dict(self) -> dict[str, Any]:
        final = self.replay()
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "moves": list(self.moves),
            "result": None if final.result is None else final.result.to_dict(),
            "metadata": self.metadata,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """A record from its JSON object, replayed and checked.

        Raises ``ValueError`` naming what is wrong: a missing or mistyped
        field, an unknown game or option, an illegal move, or a stored
        result that the moves do not produce.
        """
        if not isinstance(data, Mapping):
            raise ValueError("a game record is a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise ValueError(f"not a sansu game record (format {data.get('format')!r})")
        if data.get("version", VERSION) != VERSION:
            raise ValueError(f"unsupported record version {data.get('version')!r}")
        game = data.get("game")
        if not isinstance(game, str):
            raise ValueError("a game record needs a 'game' id")
        options = data.get("options", {})
        moves = data.get("moves", [])
        metadata = data.get("metadata", {})
        if not isinstance(options, Mapping):
            raise ValueError("'options' must be an object")
        if not isinstance(moves, Sequence) or isinstance(moves, str):
            raise ValueError("'moves' must be a list of move texts")
        if not all(isinstance(m, str) for m in moves):
            raise ValueError("'moves' must be a list of move texts")
        if not isinstance(metadata, Mapping):
            raise ValueError("'metadata' must be an object")
        loaded = load_game(game, **options)
        record = cls(loaded.id, dict(loaded.options), [], dict(metadata))
        state = loaded.initial_state()
        for number, text in enumerate(moves, 1):
            try:
                move = loaded.parse_move(text)
                state = state.play(move)
            except IllegalMove as error:
                raise IllegalMove(f"move {number}, {error}") from None
            record.moves.append(str(move))
        stored = data.get("result")
        if stored is not None:
            actual = None if state.result is None else state.result.to_dict()
            if actual != _normalise_result(stored):
                raise ValueError(
                    f"the stored result {stored!r} is not what the moves give ({actual!r})"
                )
        return record

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not valid JSON: {error}") from None
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def read(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot read {str(path)!r}: {error.strerror}") from None
        except UnicodeDecodeError:
            raise ValueError(f"{str(path)!r} is not a text file") from None
        return cls.from_json(text)


def _normalise_result(stored: Any) -> Any:
    if not isinstance(stored, Mapping):
        return stored
    out = dict(stored)
    for key in ("winners", "scores"):
        if isinstance(out.get(key), list | tuple):
            out[key] = list(out[key])
    return out
