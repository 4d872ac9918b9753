"""Command line: ``python -m webapp.store init|seed|backup PATH`` (also ``python -m webapp db …``).

The database is the one the app would use: ``DATABASE`` in the instance folder's config.py,
else ``$BRIGADE_DB``, else ``brigade.db`` in the instance folder (``$BRIGADE_INSTANCE_PATH``
or ``instance/``); ``--db`` overrides all of them.
"""

import argparse
import os
import sys

from .db import connect
from .files import backup, configured_path
from .schema import LATEST, migrate
from .seed import seed_from_files

__all__ = ["main", "init", "seed", "backup", "configured_path"]


def init(path):
    """Create the database file if needed and migrate it to the latest schema."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with connect(path) as db:
        applied = migrate(db)
    done = f"applied {', '.join(applied)}" if applied else "nothing to apply"
    print(f"{path}: schema version {LATEST} ({done})")


def seed(path):
    """Migrate, then seed the card pool and loaner decks from cards/ even if unchanged."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with connect(path) as db:
        migrate(db)
        done = seed_from_files(db, force=True)
    print(f"{path}: seeded {done['cards']} cards ({done['retired']} no longer in the pool), "
          f"{done['loaners']} loaner decks ({done['removed_loaners']} removed)")


def main(argv=None, prog="python -m webapp.store"):
    """Parse the command line and run one command."""
    parser = argparse.ArgumentParser(prog=prog, description="Manage Brigade's SQLite database.")
    parser.add_argument("--db", help="database file (default: the app's, see docs/storage.md)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("init", help="create the file and migrate it to the latest schema")
    commands.add_parser("seed", help="migrate, then seed the card pool and the loaner decks")
    backup_parser = commands.add_parser("backup", help="copy the database to PATH (safe while the server runs)")
    backup_parser.add_argument("path", metavar="PATH", help="where to write the backup")
    args = parser.parse_args(argv)
    path = args.db or configured_path()
    if args.command == "init":
        init(path)
    elif args.command == "seed":
        seed(path)
    else:
        backup(path, args.path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
