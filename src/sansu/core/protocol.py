"""The game protocol: what every sansu game is and what its states answer.

Everything outside ``sansu.games`` (computer players, server, terminal, web,
adapters) talks to games only through :class:`Game` and :class:`State`, so a
new game plugs into all of them by implementing these two classes.

A state is immutable: :meth:`State.play` returns a new state and leaves the
old one as it was, so states can be shared freely between threads, search
trees and undo stacks.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from sansu.core.options import Option, parse_options

Player = int
"""Players are numbered from 0 in turn order; player 0 moves first."""

Move = Hashable
"""A move is a small immutable value of its game; ``str(move)`` is its canonical text."""


class IllegalMove(ValueError):
    """A move that the rules forbid, or text that names no move.

    ``str(error)`` reads like a referee's remark, e.g.
    ``"r1c4: a 1 is already in column 4"``.
    """

    def __init__(self, reason: str, move: str | None = None) -> None:
        self.reason = reason
        self.move = move
        super().__init__(f"{move}: {reason}" if move else reason)


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished game ended.

    ``winners`` lists every player with the best outcome; a draw (every
    player shares it) has no winners and ``draw`` set.
    """

    winners: tuple[Player, ...]
    draw: bool
    scores: tuple[int, ...] | None
    reason: str

    @classmethod
    def win(cls, *winners: Player, reason: str, scores: Sequence[int] | None = None) -> Result:
        return cls(tuple(sorted(winners)), False, None if scores is None else tuple(scores), reason)

    @classmethod
    def drawn(cls, reason: str, scores: Sequence[int] | None = None) -> Result:
        return cls((), True, None if scores is None else tuple(scores), reason)

    @classmethod
    def by_scores(
        cls, scores: Sequence[int], reason: str, *, teams: Sequence[Sequence[Player]] | None = None
    ) -> Result:
        """Best score wins, ties share; everyone tied is a draw.

        With ``teams`` the scores are team scores and the winners are the
        members of the winning team(s).
        """
        best = max(scores)
        top = [i for i, s in enumerate(scores) if s == best]
        if len(top) == len(scores):
            return cls.drawn(reason, scores)
        if teams is None:
            return cls.win(*top, reason=reason, scores=scores)
        return cls.win(*(p for t in top for p in teams[t]), reason=reason, scores=scores)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "draw": self.draw,
            "scores": None if self.scores is None else list(self.scores),
            "reason": self.reason,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        scores = data.get("scores")
        return cls(
            tuple(data["winners"]),
            bool(data["draw"]),
            None if scores is None else tuple(scores),
            str(data["reason"]),
        )


class Game(ABC):
    """A game with its options fixed: the factory of initial states.

    Subclasses set ``id``, ``title``, ``options`` (the accepted
    :class:`Option` specs) and implement :meth:`initial_state` and
    :meth:`parse_move`.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    option_specs: ClassVar[tuple[Option, ...]] = ()
    can_draw: ClassVar[bool] = False
    """Whether the rules can end a game drawn: only then may players agree to a draw."""

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = parse_options(self.id, self.option_specs, options)

    @property
    def num_players(self) -> int:
        return 2

    @abstractmethod
    def initial_state(self) -> State:
        """The position before the first move."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """The move that ``text`` names (case and spaces are forgiven).

        Raises :class:`IllegalMove` when the text names no move of this game.
        Whether the move is legal in a position is for :meth:`State.play`.
        """

    def play_moves(self, moves: Sequence[Move | str]) -> State:
        """The state reached from the start by ``moves``.

        An illegal move raises :class:`IllegalMove` whose message starts
        with the move's 1-based position in the list.
        """
        state = self.initial_state()
        for number, move in enumerate(moves, 1):
            try:
                state = state.play(move)
            except IllegalMove as error:
                raise IllegalMove(f"move {number}, {error}") from None
        return state

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"load_game({self.id!r}{', ' if opts else ''}{opts})"


class State(ABC):
    """A position: whose turn it is, what may be played, how it ended."""

    __slots__ = ()

    game: Game
    to_move: Player | None
    """The player to move, or ``None`` once the game is over."""
    result: Result | None
    """``None`` while the game goes on."""
    last_move: Move | None
    ply: int
    """How many moves led here."""

    same_view_for_all: ClassVar[bool] = False
    """True where :meth:`view` hides something from everyone alike (Sudoku Challenge's
    solution): every seat and spectator is then shown one view of a position, which a
    server computes once rather than once per seat."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move of :attr:`to_move` (empty when the game is over)."""

    @abstractmethod
    def play(self, move: Move | str) -> State:
        """The state after ``move`` (a move or its text).

        Raises :class:`IllegalMove` saying which rule the move breaks; this
        state is never changed.
        """

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def cells_json(self) -> list[dict[str, Any] | None]:
        """One entry a cell, row-major: ``None`` or ``{"player", "value"}``."""
        return []

    def extra_json(self) -> dict[str, Any]:
        """Game-specific fields of :meth:`to_dict`."""
        return {}

    def to_dict(self) -> dict[str, Any]:
        """What ``sansu show --json`` prints: everything anyone may see."""
        data: dict[str, Any] = {
            "game": self.game.id,
            "options": self.game.options,
            "to_move": self.to_move,
            "legal_moves": [str(m) for m in self.legal_moves()],
            "result": None if self.result is None else self.result.to_dict(),
            "ply": self.ply,
            "last_move": None if self.last_move is None else str(self.last_move),
            "cells": self.cells_json(),
        }
        data.update(self.extra_json())
        return data

    def view(self, player: Player | None) -> dict[str, Any]:
        """What ``player`` (``None``: a spectator) may see of this state.

        Games with hidden information strip it here, and only here; what a game
        created without aids must not show is left out by :meth:`without_aids`.
        """
        return self.without_aids(self.to_dict())

    def without_aids(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` (a :meth:`to_dict`) less what would draw aids the game was created
        without, such as the highlighting of the placements that fit. Views only:
        :meth:`to_dict` always lists every legal move."""
        return data
