"""Names that look alike: a name's skeleton, the same for every name that reads as it.

Two names with one skeleton would pass for one person (``Alice`` and ``AIice``
with a capital i), so the second is refused at sign-up. The lookalikes come
from Unicode's confusables data (UTS #39) as the ``confusable_homoglyphs``
package ships it; a name's characters are ASCII, and among them the data
makes ``l``, ``I`` and ``1`` one, ``O`` and ``0`` one, and ``rn`` an ``m``.
Case is folded too (names are unique in any case), so the classes join: ``i``,
``I``, ``l``, ``L`` and ``1`` are one letter here, as are ``o``, ``O`` and
``0``.
"""

from __future__ import annotations

import string
from functools import cache

from confusable_homoglyphs.confusables import confusables_data

ALPHABET = string.ascii_letters + string.digits + "_-"
"""What a name may be written with (``users.NAME_PATTERN``)."""


@cache
def _tables() -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Each character's representative (the least of its class, once case and the
    single-character lookalikes are joined), and the longer lookalikes (``rn`` for
    ``m``) as representatives' strings."""
    parent = {c: c for c in ALPHABET}

    def find(c: str) -> str:
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    def join(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    longer: list[tuple[str, str]] = []
    for c in ALPHABET:
        join(c, c.lower())
        join(c, c.upper())
        for glyph in (g["c"] for g in confusables_data.get(c, ())):
            if not all(g in parent for g in glyph):
                continue  # outside the names' alphabet
            if len(glyph) == 1:
                join(c, glyph)
            else:
                longer.append((glyph, c))
    each = {c: find(c) for c in ALPHABET}
    return each, [("".join(each[g] for g in glyph), each[c]) for glyph, c in longer]


def skeleton(name: str) -> str:
    """The form every lookalike of ``name`` shares (compared, never shown)."""
    each, longer = _tables()
    text = "".join(each.get(c, c) for c in name)
    changed = True
    while changed:
        changed = False
        for glyph, c in longer:
            if glyph in text:
                text = text.replace(glyph, c)
                changed = True
    return text
