"""Game options: declared once per game, checked the same way everywhere.

Values arrive either as Python values (``load_game("35", rows=9)``) or as
the strings of the command line and web forms (``rows=9``); both go through
:func:`parse_options`, so every interface rejects a bad option with the same
sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One option a game accepts.

    ``kind`` is ``bool``, ``int`` or ``str``. ``choices`` limits a ``str``;
    ``low``/``high`` bound an ``int``; ``check`` may further validate the
    converted value (raising ``ValueError`` with the reason) or normalise it
    by returning a new value.
    """

    name: str
    kind: type
    default: Any
    help: str
    choices: tuple[str, ...] | None = None
    low: int | None = None
    high: int | None = None
    check: Callable[[Any], Any] | None = None

    def describe(self) -> str:
        if self.kind is bool:
            return "true or false"
        if self.kind is int:
            if self.low is not None and self.high is not None:
                return f"a whole number from {self.low} to {self.high}"
            return "a whole number"
        if self.choices:
            return "one of " + ", ".join(self.choices)
        return "text"

    def convert(self, value: Any) -> Any:
        """The option's value from ``value``; ``ValueError`` says what was expected."""
        bad = ValueError(f"option {self.name!r}: expected {self.describe()}, got {value!r}")
        if value is None:
            return self.default
        if self.kind is bool:
            if isinstance(value, bool):
                converted: Any = value
            elif isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                converted = value.strip().lower() in _TRUE
            else:
                raise bad
        elif self.kind is int:
            if isinstance(value, bool):
                raise bad
            if isinstance(value, int):
                converted = value
            elif isinstance(value, str) and value.strip().lstrip("+-").isdigit():
                converted = int(value.strip())
            else:
                raise bad
            if (self.low is not None and converted < self.low) or (
                self.high is not None and converted > self.high
            ):
                raise bad
        else:
            if not isinstance(value, str):
                raise bad
            converted = value.strip()
            if self.choices is not None:
                converted = converted.lower().replace("-", "_")
                if converted not in self.choices:
                    raise bad
        if self.check is not None:
            try:
                checked = self.check(converted)
            except ValueError as error:
                raise ValueError(f"option {self.name!r}: {error}") from None
            if checked is not None:
                converted = checked
        return converted


def parse_options(
    game_id: str, specs: Sequence[Option], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Every option of the game with its value: given ones converted, the rest defaulted."""
    by_name = {spec.name: spec for spec in specs}
    for name in given:
        if name not in by_name:
            known = ", ".join(by_name) if by_name else "none"
            raise ValueError(f"unknown option {name!r} for game {game_id!r} (options: {known})")
    return {spec.name: spec.convert(given.get(spec.name)) for spec in specs}


def parse_assignments(items: Sequence[str]) -> dict[str, str]:
    """``["rows=9", "cols=10"]`` → ``{"rows": "9", "cols": "10"}``, as typed on a command line."""
    options: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"option {item!r}: expected KEY=VALUE")
        if key in options:
            raise ValueError(f"option {key!r} is given twice")
        options[key] = value
    return options
