"""The game server: play online, against the computer, and watch; nothing ever lost.

``create_app(db_url=...)`` builds the ASGI app; ``sansu serve`` runs it.
See ``docs/server.md`` for the API, the events and how games are stored.
"""

from sansu.server.app import create_app, default_db_path

__all__ = ["create_app", "default_db_path"]
