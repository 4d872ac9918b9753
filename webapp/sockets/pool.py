"""The SQLite connections socket events borrow (``Pool.lease``)."""

import threading

from webapp import store

class Pool:
    """A few SQLite connections that socket events borrow one at a time (``lease``), instead of each
    event opening and closing its own: that open and close (with its WAL set-up) was half of the
    server's busy time per action under load (docs/deploy.md). A connection is only ever used by the
    event that holds it, so never by two threads at once (docs/storage.md); more are opened when all
    are lent out, and at most ``keep`` are kept."""

    def __init__(self, path, keep=8):
        self.path, self.keep = path, keep
        self.idle = []
        self.lock = threading.Lock()

    def lease(self):
        """A context manager lending one connection for the block (``with pool.lease() as db``)."""
        return Lease(self)

    def borrow(self):
        with self.lock:
            db = self.idle.pop() if self.idle else None
        return store.connect(self.path) if db is None else db

    def give_back(self, db):
        if db.conn.in_transaction:  # a bug left a transaction open: never lend it out like that
            db.conn.rollback()
        with self.lock:
            if len(self.idle) < self.keep:
                self.idle.append(db)
                return
        db.close()


class Lease:
    """One loan of a pooled connection: a plain context manager, not a generator's (every socket event
    that touches the game takes one: the generator's frame and its wrapper were a measurable part of
    an action, docs/performance.md "Server CPU per action")."""

    __slots__ = ("pool", "db")

    def __init__(self, pool):
        self.pool, self.db = pool, None

    def __enter__(self):
        self.db = self.pool.borrow()
        return self.db

    def __exit__(self, *exc):
        db, self.db = self.db, None
        self.pool.give_back(db)
        return False
