"""Options: one conversion for Python values and command-line strings, one wording for errors."""

from __future__ import annotations

import pytest

from sansu.core.options import Option, parse_assignments, parse_options

SPECS = (
    Option("rows", int, 8, "rows", low=3, high=12),
    Option("fast", bool, False, "a flag"),
    Option("order", str, "increasing", "order", choices=("increasing", "status_quo")),
)


def test_defaults_and_conversions() -> None:
    assert parse_options("g", SPECS, {}) == {"rows": 8, "fast": False, "order": "increasing"}
    assert parse_options("g", SPECS, {"rows": "9", "fast": "TRUE", "order": "Status-Quo"}) == {
        "rows": 9, "fast": True, "order": "status_quo"
    }  # fmt: skip
    assert parse_options("g", SPECS, {"rows": 12, "fast": False})["rows"] == 12


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"rows": "abc"}, "option 'rows': expected a whole number from 3 to 12, got 'abc'"),
        ({"rows": 2}, "option 'rows': expected a whole number from 3 to 12, got 2"),
        ({"rows": True}, "expected a whole number"),
        ({"fast": "maybe"}, "option 'fast': expected true or false, got 'maybe'"),
        ({"fast": 1.5}, "expected true or false"),
        ({"order": "random"}, "option 'order': expected one of increasing, status_quo"),
        ({"colour": "red"}, "unknown option 'colour' for game 'g' (options: rows, fast, order)"),
    ],
)
def test_bad_options_say_what_was_expected(given: dict, message: str) -> None:
    with pytest.raises(ValueError) as error:
        parse_options("g", SPECS, given)
    assert message in str(error.value)


def test_check_may_reject_or_normalise() -> None:
    def even(value: int) -> int:
        if value % 2:
            raise ValueError("must be even")
        return value // 2

    spec = (Option("n", int, 2, "n", check=even),)
    assert parse_options("g", spec, {"n": "8"}) == {"n": 4}
    with pytest.raises(ValueError, match="option 'n': must be even"):
        parse_options("g", spec, {"n": 3})


def test_command_line_assignments() -> None:
    assert parse_assignments(["rows=9", "puzzle=..3=."]) == {"rows": "9", "puzzle": "..3=."}
    assert parse_assignments(["cols =10"]) == {"cols": "10"}
    with pytest.raises(ValueError, match="expected KEY=VALUE"):
        parse_assignments(["rows"])
    with pytest.raises(ValueError, match="given twice"):
        parse_assignments(["rows=1", "rows=2"])
