"""The SQLite connections socket events borrow (``Pool.borrow`` and ``give_back``; ``Hub.lease`` lends one
as the event's ``g.db``)."""

import threading

from webapp import store


class Pool:
    """A few SQLite connections that socket events borrow one at a time (``borrow``, then ``give_back``),
    instead of each event opening and closing its own: that open and close (with its WAL set-up) was half of the
    server's busy time per action under load (docs/deploy.md). A connection is only ever used by the
    event that holds it, so never by two threads at once (docs/storage.md); more are opened when all
    are lent out, and at most ``keep`` are kept."""

    def __init__(self, path, keep=8):
        self.path, self.keep = path, keep
        self.idle = []
        self.lock = threading.Lock()

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

