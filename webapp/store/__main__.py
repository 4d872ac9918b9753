"""Command line: ``python -m webapp.store init|seed|backup PATH`` (also ``python -m webapp db …``).

The database is the one the app would use: ``DATABASE`` in the instance folder's config.py,
else ``$BRIGADE_DB``, else ``brigade.db`` in the instance folder (``$BRIGADE_INSTANCE_PATH``
or ``instance/``); ``--db`` overrides all of them.
"""

import argparse
import os
import sqlite3
import sys
from pathlib import Path

from flask import Config

from .db import connect, default_path
from .schema import LATEST, migrate, version
from .seed import seed_from_files


def configured_path():
    """The database path ``create_app()`` would configure, without creating an app."""
    from webapp import ROOT

    instance = str(Path(os.environ.get("BRIGADE_INSTANCE_PATH") or ROOT / "instance").resolve())
    config = Config(instance)
    config.from_pyfile("config.py", silent=True)
    return config.get("DATABASE") or default_path(instance)


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


def backup(path, dest, quiet=False):
    """Copy the live database to ``dest`` with SQLite's online backup API; safe while the server runs.
    The copy is remembered as the last backup (the admin page shows it, docs/admin.md)."""
    if not os.path.exists(path):
        raise SystemExit(f"error: no database at {path}")
    tmp = f"{dest}.{os.getpid()}.tmp"
    source = sqlite3.connect(path, timeout=5.0)
    target = sqlite3.connect(tmp)
    try:
        # One step: a single read transaction, which in WAL mode never blocks the server's writers.
        source.backup(target)
        target.execute("PRAGMA journal_mode = DELETE")  # a backup is one self-contained file
        schema = version_of(target)
    finally:
        target.close()
        source.close()
    os.replace(tmp, dest)  # never leave a half-written backup under the real name
    if not quiet:
        print(f"backed up {path} to {dest} ({os.path.getsize(dest)} bytes, schema version {schema})")
    from webapp.hosting import record_backup
    record_backup(path, os.path.abspath(dest))


def version_of(conn):
    """The schema version of a plain sqlite3 connection's database."""
    import sqlite_utils

    return version(sqlite_utils.Database(conn))


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
