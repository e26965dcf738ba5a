"""The cluster: one node of several sharing PostgreSQL and Redis; leases and fences on
games, news between nodes, forwarding to a game's judge, and the shared presence,
lobby, event streams and tournament direction.

May import the faces of every domain; none of them imports it: only ``app`` does.
"""

from __future__ import annotations

from sansu.server.cluster.node import Cluster
from sansu.server.cluster.shared import SharedParts, login_storage

__all__ = [
    "Cluster",
    "SharedParts",
    "login_storage",
]
