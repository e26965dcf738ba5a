"""The JSON sent to clients (``dumps``) holds what the standard library's would."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sansu.server.play.live import dumps, is_text


def standard(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()  # lone surrogates included
)
documents = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text() | st.integers(-100, 100), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(documents)
def test_the_same_document_as_the_standard_library(data: Any) -> None:
    assert json.loads(dumps(data)) == json.loads(standard(data))


unicode_text = st.text(st.characters(exclude_categories=("Cs",)))  # no lone surrogate
exact = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | unicode_text,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(unicode_text | st.integers(-100, 100), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(exact)
def test_the_same_text_as_the_standard_library(data: Any) -> None:
    """Compact, non-ASCII text unescaped, control characters escaped alike: byte for byte
    (floats aside, whose shortest forms may differ in their exponent's spelling)."""
    assert dumps(data) == standard(data)


def test_text_beyond_what_orjson_writes_reads_as_before() -> None:
    for data in ({"move": "r1c1\udc80"}, [2**64, -(2**64)], {"deep": [[[[]]]] * 3}):
        assert dumps(data) == standard(data)
    assert not is_text({"move": "\udc80"})
    assert is_text({"move": "r1c1 ☃"})


def test_what_neither_writes_is_refused() -> None:
    @dataclasses.dataclass
    class Point:
        x: int

    circular: list[Any] = []
    circular.append(circular)
    for data in (Point(1), {"at": object()}, circular):
        with pytest.raises((TypeError, ValueError)):
            dumps(data)
