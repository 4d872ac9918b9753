"""The database at start: create, migrate and seed the file, and close each request's connection.

Above db, schema and seed (they import db; db imports neither), so the store's modules import one
way only (docs/architecture.md).
"""

import contextlib
import os
import sqlite3

from .db import connect
from .pool import close_db, pool_of
from .errors import DatabaseNotWritable
from .schema import migrate
from .seed import seed_from_files


def init_app(app):
    """Register ``close_db`` and, when ``DATABASE`` is set, create, migrate and seed the file (on a
    connection of the app's pool, which its first request borrows next)."""
    app.teardown_appcontext(close_db)
    path = app.config.get("DATABASE")
    if path:
        prepare(path, pool_of(app, path))


#: What SQLite says when it may read a file but not write it, or cannot open it beside its folder.
NOT_WRITABLE = ("readonly database", "unable to open database file", "attempt to write")


def prepare(path, pool=None):
    """Create or migrate the schema of ``path`` and seed the pool and loaner decks if they changed;
    raise ``DatabaseNotWritable`` when the file (or its folder, or its disk) is read-only: a server
    that could only read would take players' actions and lose them (docs/security.md). With a
    connection ``pool`` (``pool_of``) the connection is borrowed from it (``Pool.lent``)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    try:
        with pool.lent() if pool else contextlib.closing(connect(path)) as db:
            migrate(db)
            seed_from_files(db)
            check_writable(db)
    except sqlite3.OperationalError as exc:
        if any(words in str(exc) for words in NOT_WRITABLE):
            raise DatabaseNotWritable(path, exc) from None
        raise


def check_writable(db):
    """Write to ``db`` inside a transaction that is rolled back (nothing is kept): SQLite opens a file
    it may not write read-only without a word, and a database already migrated and seeded needs no
    write at start, so only a write tells."""
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("CREATE TABLE write_probe (x)")
    finally:
        db.execute("ROLLBACK")
