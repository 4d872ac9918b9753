"""The SQLite connections a process lends: a request's ``get_db`` (closed at teardown by ``close_db``)
and a socket event's (``webapp.sockets.hub``'s lease) borrow one from the app's pool for the file and
give it back, instead of opening and closing their own.

Opening a connection costs about a millisecond of CPU (SQLite reads the schema; ``connect`` sets the
pragmas and checks WAL): half of the server's busy time per action under load once (docs/deploy.md),
and most of a small page's. A connection is only ever used by the request or event that holds it,
so never by two threads at once (docs/storage.md).
"""

import contextlib
import sqlite3
import threading

from flask import current_app, g

from .db import connect

#: Where an app keeps its pools: ``app.extensions[POOLS]`` = {database path: Pool}.
POOLS = "brigade_db_pools"


class Pool:
    """A few connections to one file, lent one at a time (``borrow``, then ``give_back``); more are
    opened when all are lent out, and at most ``keep`` are kept."""

    def __init__(self, path, keep=8):
        self.path, self.keep = path, keep
        self.idle = []
        self.lock = threading.Lock()

    def borrow(self):
        with self.lock:
            db = self.idle.pop() if self.idle else None
        return connect(self.path) if db is None else db

    def give_back(self, db):
        try:
            if db.conn.in_transaction:  # a bug left a transaction open: never lend it out like that
                db.conn.rollback()
        except sqlite3.ProgrammingError:  # its holder closed it: nothing to keep
            return
        with self.lock:
            if len(self.idle) < self.keep:
                self.idle.append(db)
                return
        db.close()

    @contextlib.contextmanager
    def lent(self):
        """A connection for the ``with`` block: given back after it, closed if the block raised."""
        db = self.borrow()
        try:
            yield db
        except BaseException:
            db.close()
            raise
        self.give_back(db)

    def close(self):
        """Close the idle connections: the next borrower opens a new one."""
        with self.lock:
            idle, self.idle = self.idle, []
        for db in idle:
            db.close()


def pool_of(app, path):
    """The app's pool for the database file ``path`` (made on first use)."""
    pools = app.extensions.setdefault(POOLS, {})
    pool = pools.get(path)
    if pool is None:
        pool = pools.setdefault(path, Pool(path))
    return pool


def get_db():
    """The current request's Database, borrowed from the app's pool on first use and given back at
    teardown (``close_db``)."""
    if "db" not in g:
        path = current_app.config.get("DATABASE")
        if not path:
            raise RuntimeError("no database configured: set DATABASE (or BRIGADE_DB)")
        g.db = pool_of(current_app, path).borrow()
    return g.db


def close_db(exc=None):
    """Give the current request's Database back to its pool, if one was borrowed."""
    db = g.pop("db", None)
    if db is not None:
        pool_of(current_app, db.path).give_back(db)
