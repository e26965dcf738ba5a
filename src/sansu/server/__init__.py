"""The game server: play online, against the computer, and watch; nothing ever lost.

``create_app(db_url=...)`` builds the ASGI app; ``sansu serve`` runs it.
See ``docs/server.md`` for the API, the events and how games are stored.
The app and its web framework load on first use, so that importing a part
of the server (say, its defaults) stays cheap.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app", "default_db_path"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from sansu.server import app

        return getattr(app, name)
    raise AttributeError(f"module 'sansu.server' has no attribute {name!r}")
