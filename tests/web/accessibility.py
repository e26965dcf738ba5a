"""The axe-core accessibility check (WCAG 2 A and AA), injected into a page by Playwright.

``vendor/axe.min.js`` is npm's ``axe-core``, copied as it is (its licence
beside it); it runs inside the page under test, never shipped with the app.
It is evaluated through the browser's debugging protocol rather than added as
a ``<script>``: the site's Content-Security-Policy rightly refuses inline script.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def violations(page: Any) -> list[str]:
    """What axe finds wrong in the page as it stands: one line per rule broken."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        """tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})
            .then(r => r.violations.map(v => ({id: v.id, impact: v.impact,
                nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)})))""",
        TAGS,
    )
    return [f"{v['id']} ({v['impact']}): {', '.join(v['nodes'])}" for v in found]
