"""Accounts: users and their passwords, sessions, log-in limits, who acts in a request
(a seat's token, a signed-in account, or both), who is online, and recovery and
ownership (an email address, reset links, deletion, export).

May import: base.
"""

from __future__ import annotations

from sansu.server.accounts.identity import (
    Caller,
    SessionOnly,
    SignedIn,
    TokenOrSession,
    Who,
    account,
    acting,
    bot_refused,
    session_of,
    signed_session,
    socket_account,
)
from sansu.server.accounts.login_limits import LoginLimiter
from sansu.server.accounts.lookalikes import skeleton
from sansu.server.accounts.mail import Mailer, SmtpServer, parse_smtp_url
from sansu.server.accounts.online import WINDOW as ONLINE_WINDOW
from sansu.server.accounts.online import Online
from sansu.server.accounts.postbox import Postbox
from sansu.server.accounts.roles import (
    ROLES,
    AuditEntry,
    audit_entries,
    audit_log,
    grant,
    record,
    role_of,
)
from sansu.server.accounts.routes import CsrfHeader, router
from sansu.server.accounts.routes_recovery import router as recovery_router
from sansu.server.accounts.sessions import revoke_all as end_sessions
from sansu.server.accounts.users import User, UserError, find_user, get_user, rename
from sansu.server.accounts.users import users as users_table

__all__ = [
    "ONLINE_WINDOW",
    "ROLES",
    "AuditEntry",
    "Caller",
    "CsrfHeader",
    "LoginLimiter",
    "Mailer",
    "Online",
    "Postbox",
    "SessionOnly",
    "SignedIn",
    "SmtpServer",
    "TokenOrSession",
    "User",
    "UserError",
    "Who",
    "account",
    "acting",
    "audit_entries",
    "audit_log",
    "bot_refused",
    "end_sessions",
    "find_user",
    "get_user",
    "grant",
    "parse_smtp_url",
    "record",
    "recovery_router",
    "rename",
    "role_of",
    "router",
    "session_of",
    "signed_session",
    "skeleton",
    "socket_account",
    "users_table",
]
