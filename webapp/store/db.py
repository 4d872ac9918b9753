"""Connections to the SQLite file: pragmas, transactions, and one connection per Flask request.

Thread safety: connections are opened with ``check_same_thread=False`` so a connection may be
*handed* from one thread to another (Flask may run the teardown that closes it on another
thread or greenlet than the one that opened it, e.g. under Flask-SocketIO's async modes). A
connection is still never *shared*: ``get_db()`` gives each request (app context) its own,
and background work (the CPU player, the CLI) opens its own with ``connect()``. Never keep a
connection in a module global or pass one to two threads that use it at the same time.
"""

import contextlib
import os
import sqlite3
import time
from datetime import datetime, timezone

import sqlite_utils

#: Seconds a writer waits for another process's write lock before ``database is locked``.
BUSY_TIMEOUT = 5.0


def default_path(instance_path):
    """Return the database file: ``$BRIGADE_DB``, else ``brigade.db`` in the instance folder."""
    return os.environ.get("BRIGADE_DB") or os.path.join(instance_path, "brigade.db")


def connect(path):
    """Open ``path`` as a sqlite-utils Database: WAL, foreign keys on, 5 s busy timeout."""
    conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.path = str(path)  # names the file for caches kept per database (webapp.play's games)
    db.execute("PRAGMA foreign_keys = ON")
    enable_wal(db)
    # In WAL mode NORMAL never corrupts the file; a power cut may lose the last commits.
    db.execute("PRAGMA synchronous = NORMAL")
    return db


def enable_wal(db):
    """Switch ``db`` to WAL mode (kept in the file), retrying while another connection blocks it."""
    # Switching a new file to WAL fails at once with "database is locked" (SQLite calls no
    # busy handler there) when another process opens it at the same moment: retry instead.
    deadline = time.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            db.enable_wal()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


@contextlib.contextmanager
def transaction(db):
    """Run the block as one write transaction (``BEGIN IMMEDIATE``), or a savepoint inside one."""
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    # IMMEDIATE takes the write lock up front, so a concurrent writer waits (busy timeout)
    # instead of failing when a read transaction tries to become a write one.
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        if db.conn.in_transaction:
            db.conn.execute("ROLLBACK")
        raise
    else:
        db.conn.execute("COMMIT")


def now():
    """The current UTC time as sortable ISO 8601 text, e.g. ``2025-01-31T12:00:00.000Z``."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def get_db():
    """The current request's Database, opened on first use and closed at teardown."""
    from flask import current_app, g

    if "db" not in g:
        path = current_app.config.get("DATABASE")
        if not path:
            raise RuntimeError("no database configured: set DATABASE (or BRIGADE_DB)")
        g.db = connect(path)
    return g.db


def close_db(exc=None):
    """Close the current request's Database, if one was opened."""
    from flask import g

    db = g.pop("db", None)
    if db is not None:
        db.close()


def init_app(app):
    """Register ``close_db`` and, when ``DATABASE`` is set, create, migrate and seed the file."""
    app.teardown_appcontext(close_db)
    path = app.config.get("DATABASE")
    if path:
        prepare(path)


def prepare(path):
    """Create or migrate the schema of ``path`` and seed the pool and loaner decks if they changed."""
    from .schema import migrate
    from .seed import seed_from_files

    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    db = connect(path)
    try:
        migrate(db)
        seed_from_files(db)
    finally:
        db.close()
