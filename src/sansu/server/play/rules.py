"""Where the rules pages are read from (the web app shows them): one function, one place."""

from __future__ import annotations

from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"
"""The rule texts, shipped in the package as ``sansu/rules`` (a link to docs/rules)."""


def rules_markdown(game_id: str) -> str | None:
    """The rules of ``game_id`` as Markdown, or ``None`` when they are not installed."""
    path = RULES / f"{game_id}.md"
    if not path.is_file():
        return None
    return path.read_text(encoding="utf-8")
