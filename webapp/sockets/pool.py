"""The SQLite connections socket events borrow (``Pool.lease``)."""

import contextlib
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

    @contextlib.contextmanager
    def lease(self):
        with self.lock:
            db = self.idle.pop() if self.idle else None
        if db is None:
            db = store.connect(self.path)
        try:
            yield db
        finally:
            if db.conn.in_transaction:  # a bug left a transaction open: never lend it out like that
                db.conn.rollback()
            with self.lock:
                if len(self.idle) < self.keep:
                    self.idle.append(db)
                    db = None
            if db is not None:
                db.close()
