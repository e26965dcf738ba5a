"""Relations between players: following, and who is online with the game they play.

May import: base, accounts, play.
"""

from __future__ import annotations

from sansu.server.relation.follows import MAX_FOLLOWING
from sansu.server.relation.routes import router
from sansu.server.relation.service import MAX_PAGE, Relations
from sansu.server.relation.tables import FollowRow

__all__ = ["MAX_FOLLOWING", "MAX_PAGE", "FollowRow", "Relations", "router"]
