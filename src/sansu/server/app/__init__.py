"""The app: the composition root that builds every domain object, the ASGI application
with its middleware, error answers and the web app's files.

May import every package; nothing imports it but ``sansu.server`` itself.
"""

from __future__ import annotations

from sansu.server.app.assemble import Server, assemble
from sansu.server.app.create import create_app, default_db_path

__all__ = ["Server", "assemble", "create_app", "default_db_path"]
