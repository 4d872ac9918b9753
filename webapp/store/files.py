"""The database as a file: which one the app uses (``configured_path``), a copy of it taken while the
server runs (``backup``), and the note beside it of its last copy (``record_backup``, ``last_backup``).

Used by the command lines (``python -m webapp db …``, ``python -m webapp admin …``) and by the admin
page's "Back up now" (``webapp.hosttools``); none of it needs an app.
"""

import json
import os
import sqlite3
from pathlib import Path

from flask import Config
import sqlite_utils

from webapp.serving import ROOT

from .db import default_path, now
from .schema import version


def configured_path():
    """The database path ``create_app()`` would configure, without creating an app: ``DATABASE`` in the
    instance folder's config.py, else ``$BRIGADE_DB``, else ``brigade.db`` in the instance folder
    (``$BRIGADE_INSTANCE_PATH`` or ``instance/``)."""
    instance = str(Path(os.environ.get("BRIGADE_INSTANCE_PATH") or ROOT / "instance").resolve())
    config = Config(instance)
    config.from_pyfile("config.py", silent=True)
    return config.get("DATABASE") or default_path(instance)


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
    record_backup(path, os.path.abspath(dest))


def version_of(conn):
    """The schema version of a plain sqlite3 connection's database."""
    return version(sqlite_utils.Database(conn))


def backup_record_path(db_path):
    """The small JSON file beside the database that remembers its last backup. A file, not a row:
    a backup must not write to the database it copies (a write could wait on a busy writer)."""
    return f"{db_path}.last-backup.json"


def record_backup(db_path, dest):
    """Remember ``dest`` as the last backup of ``db_path`` (the admin page shows it)."""
    record = {"at": now(), "path": str(dest), "bytes": os.path.getsize(dest)}
    target = backup_record_path(db_path)
    tmp = f"{target}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(record, f)
    os.replace(tmp, target)
    return record


def last_backup(db_path):
    """The last backup's record {"at", "path", "bytes"}, or None."""
    try:
        with open(backup_record_path(db_path), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
