"""Where the rules pages are read from (the web app shows them): one module, one place."""

from __future__ import annotations

from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"
"""The rule texts, shipped in the package as ``sansu/rules`` (a link to docs/rules)."""


def rules_markdown(game_id: str) -> str | None:
    """How to play ``game_id``, for players, as Markdown, or ``None`` when not installed."""
    return _read(RULES / f"{game_id}.md")


def reference_markdown(game_id: str) -> str | None:
    """The programmers' reference of ``game_id`` (notation, options, JSON) as Markdown,
    or ``None`` when not installed."""
    return _read(RULES / "reference" / f"{game_id}.md")


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None
