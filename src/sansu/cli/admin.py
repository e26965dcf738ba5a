"""``sansu admin``: a server operator's commands: backups, restores, roles, the audit log.

``sansu admin backup FILE`` copies the database while the server runs (one
consistent snapshot: SQLite's online backup API, PostgreSQL's ``pg_dump -Fc``);
``sansu admin restore FILE`` puts a backup into a database, refusing one that
holds tables unless ``--force``, and a backup from a newer sansu's schema. Both
print what the backup holds (games, moves, accounts). ``sansu admin grant NAME
ROLE`` makes an account an admin or a moderator (``none``: a player again), and
``sansu admin audit`` shows the newest lines of the audit log, where each grant
and each moderator's action is recorded. ``--db`` is ``sansu serve``'s. Details: docs/operations.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from typing import Any

DB_HELP = "database: a SQLite file path, sqlite:///FILE or postgresql://USER@HOST/DB"
"""The same as ``sansu serve --db`` (default: the server's default SQLite file)."""


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "admin",
        help="run a server's operations: backup, restore",
        description="A server operator's commands.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    backup = actions.add_parser(
        "backup",
        help="back up the database (consistent while the server runs)",
        description="Write a consistent backup of the database to FILE, while the server"
        " runs or not, and print what it holds.",
    )
    backup.add_argument("file", metavar="FILE", help="the backup to write (replaced if present)")
    backup.add_argument("--db", metavar="URL", help=DB_HELP)
    backup.set_defaults(func=run_backup)
    restore = actions.add_parser(
        "restore",
        help="restore a backup into a database (stop the server first)",
        description="Restore the backup FILE into the database, which must hold no"
        " tables unless --force, and print what it holds.",
    )
    restore.add_argument("file", metavar="FILE", help="a backup made by sansu admin backup")
    restore.add_argument("--db", metavar="URL", help=DB_HELP)
    restore.add_argument(
        "--force", action="store_true", help="replace every table of a database that has some"
    )
    restore.set_defaults(func=run_restore)
    grant = actions.add_parser(
        "grant",
        help="make an account an admin or a moderator (none: a player again)",
        description="Give the account NAME the role ROLE, recorded in the audit log.",
    )
    grant.add_argument("name", metavar="NAME", help="the account's user name")
    grant.add_argument("role", metavar="ROLE", help="admin, moderator or none")
    grant.add_argument("--db", metavar="URL", help=DB_HELP)
    grant.set_defaults(func=run_grant)
    audit = actions.add_parser(
        "audit", help="show the audit log", description="Show the newest lines of the audit log."
    )
    audit.add_argument("--limit", type=int, default=20, metavar="N", help="lines (default 20)")
    audit.add_argument("--db", metavar="URL", help=DB_HELP)
    audit.set_defaults(func=run_audit)


def _db(args: argparse.Namespace) -> str:
    from sansu.server import default_db_path

    return args.db or str(default_db_path())


def run_backup(args: argparse.Namespace) -> int:
    from sansu.server.base.backups import BackupError, backup

    try:
        summary = backup(_db(args), args.file)
    except BackupError as error:
        print(f"sansu admin backup: {error}", file=sys.stderr)
        return 1
    print(f"backed up {summary} to {args.file}")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    from sansu.server.base.backups import BackupError, code_revision, restore

    try:
        summary = restore(args.file, _db(args), force=args.force)
    except BackupError as error:
        print(f"sansu admin restore: {error}", file=sys.stderr)
        return 1
    print(f"restored {summary} from {args.file}")
    if summary.revision != code_revision():
        print(f"the server upgrades its schema to {code_revision()} when it starts")
    return 0


def _migrated(args: argparse.Namespace) -> Any:
    """An engine on the database, its schema brought up to date."""
    from sansu.server.base.store import make_engine, migrate

    engine = make_engine(_db(args))
    migrate(engine)
    return engine


def run_grant(args: argparse.Namespace) -> int:
    from sansu.server.accounts import ROLES, UserError, grant

    if args.role not in (*ROLES, "none"):
        known = ", ".join((*ROLES, "none"))
        print(f"sansu admin grant: unknown role {args.role!r} ({known})", file=sys.stderr)
        return 2
    role = None if args.role == "none" else args.role
    engine = _migrated(args)
    try:
        with engine.begin() as c:
            was = grant(c, args.name, role, now=time.time())
    except UserError as error:
        print(f"sansu admin grant: {error}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    print(f"{args.name}: {role or 'player'} (was {was or 'player'})")
    return 0


def run_audit(args: argparse.Namespace) -> int:
    from sansu.server.accounts import audit_entries

    if args.limit < 1:
        print(f"sansu admin audit: bad --limit {args.limit}", file=sys.stderr)
        return 2
    engine = _migrated(args)
    try:
        with engine.connect() as c:
            entries = audit_entries(c, args.limit)
    finally:
        engine.dispose()
    for e in entries:
        when = datetime.fromtimestamp(e.at, UTC).strftime("%Y-%m-%d %H:%M:%S")
        print(f"{when}  {e.actor}  {e.action}  {e.target or '-'}  {json.dumps(e.detail)}")
    return 0
