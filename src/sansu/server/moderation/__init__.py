"""Moderation: players' reports of accounts and chat messages, the moderators' queue,
and what moderators do (close, reopen, rename, mark engine use, remove a message),
each written to the audit log.

May import: base, accounts, ratings, play, lobby, chat.
"""

from __future__ import annotations

from sansu.server.moderation.actions import Moderation
from sansu.server.moderation.reports import CATEGORIES, Reports
from sansu.server.moderation.routes import router
from sansu.server.moderation.tables import ReportRow, reports

__all__ = ["CATEGORIES", "Moderation", "ReportRow", "Reports", "reports", "router"]
