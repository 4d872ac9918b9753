"""Connections to the SQLite file: pragmas and transactions (a request's comes from webapp/store/pool.py).

Thread safety: connections are opened with ``check_same_thread=False`` so a connection may be
*handed* from one thread to another (Flask may run the teardown that closes it on another
thread or greenlet than the one that opened it, e.g. under Flask-SocketIO's async modes). A
connection is still never *shared*: ``get_db()`` lends each request (app context) its own from
the app's pool until the request ends, and background work (the CPU player, the CLI) opens its own with ``connect()``. Never keep a
connection in a module global or pass one to two threads that use it at the same time.
"""

import contextlib
import os
import sqlite3
import sys
import threading
import time
from datetime import datetime, UTC

import sqlite_utils

from webapp import clock

#: Seconds a writer waits for another process's write lock before ``database is locked``.
BUSY_TIMEOUT = 5.0
#: How a connection waits for a lock held by another process when the server runs on gevent, where
#: SQLite's own busy handler would sleep in C and stall every greenlet (docs/decisions/0048-cooperative-lock-waits-under-gevent.md):
#: "cooperative" (the default): SQLite gives up after BUSY_STEP and the statement is tried again
#: after a cooperative sleep, until BUSY_TIMEOUT; "threadpool": every statement runs in gevent's
#: native thread pool, where SQLite's busy handler may sleep. ``$BRIGADE_DB_WAIT`` chooses (bench/db_wait.py).
WAIT = os.environ.get("BRIGADE_DB_WAIT") or "cooperative"
#: The longest SQLite's own busy handler blocks (in C) in the cooperative way, and the longest pause between tries.
BUSY_STEP, BUSY_PAUSE = 0.005, 0.05


def gevent_patched():
    """True in a server whose standard library gevent patched (webapp.serving.SERVER == "gevent")."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and monkey.is_module_patched("threading")


def busy(exc):
    return isinstance(exc, sqlite3.OperationalError) and ("locked" in str(exc) or "busy" in str(exc))


#: SQLite's words for a write the database could not take just now, by kind: another writer held the
#: lock past the busy timeout; the file, its folder or its disk is read-only; the disk is full; the disk
#: failed. Players are told "nothing was changed, try again" (a page's 503, a socket's ``busy``).
TROUBLE = (("locked", ("database is locked", "database is busy")),
           ("readonly", ("readonly database", "read-only", "attempt to write")),
           ("full", ("database or disk is full",)),
           ("io", ("disk i/o error",)))


def trouble(exc):
    """The kind of database trouble ``exc`` is ("locked", "readonly", "full", "io"), or None for an
    error that is a bug (a missing table, a bad statement): the one list both transports read."""
    if not isinstance(exc, sqlite3.OperationalError):
        return None
    text = str(exc).lower()
    return next((kind for kind, words in TROUBLE if any(w in text for w in words)), None)


class CooperativeConnection(sqlite3.Connection):
    """A connection whose lock waits never block other greenlets: SQLite waits at most BUSY_STEP
    itself (its busy timeout), then the statement is tried again after ``time.sleep``, which gevent
    made cooperative, until BUSY_TIMEOUT has passed. A statement is tried again only when it began
    outside a transaction (a transaction it opened is rolled back first) or it is a BEGIN: inside a
    transaction SQLite's answer stands (that writer holds the lock already, or must start over)."""

    def execute(self, sql, parameters=()):
        return self._retry(sqlite3.Connection.execute, sql, parameters)

    def executemany(self, sql, parameters):
        return self._retry(sqlite3.Connection.executemany, sql, parameters)

    def _retry(self, run, sql, parameters):
        deadline, pause = clock.monotonic() + BUSY_TIMEOUT, 0.001
        while True:
            was = self.in_transaction
            try:
                return run(self, sql, parameters)
            except sqlite3.OperationalError as exc:
                if not busy(exc) or clock.monotonic() > deadline:
                    raise
                if was and not sql.lstrip()[:5].upper() == "BEGIN":
                    raise
                if not was and self.in_transaction:
                    sqlite3.Connection.rollback(self)
            time.sleep(pause)
            pause = min(BUSY_PAUSE, pause * 2)


class ThreadpoolConnection(sqlite3.Connection):
    """A connection whose statements run in gevent's native thread pool: SQLite's busy handler may
    sleep there without stalling the greenlets. Rows are still read where the caller is (a read
    never waits for a lock in WAL mode)."""

    def execute(self, sql, parameters=()):
        return offload(sqlite3.Connection.execute, self, sql, parameters)

    def executemany(self, sql, parameters):
        return offload(sqlite3.Connection.executemany, self, sql, parameters)

    def executescript(self, sql):
        return offload(sqlite3.Connection.executescript, self, sql)

    def commit(self):
        return offload(sqlite3.Connection.commit, self)


def offload(fn, *args):
    """``fn(*args)`` in gevent's thread pool; its exception is raised here (the pool would print it)."""
    import gevent  # here: gevent is loaded only by the server it runs (BRIGADE_SERVER=gevent)

    def run():
        try:
            return True, fn(*args)
        except Exception as exc:
            return False, exc

    ok, value = gevent.get_hub().threadpool.apply(run)
    if not ok:
        raise value
    return value


def connection_class():
    """The sqlite3.Connection class ``connect`` opens: plain unless gevent runs the server."""
    if not gevent_patched():
        return sqlite3.Connection
    if WAIT == "threadpool":
        return ThreadpoolConnection
    if WAIT != "cooperative":
        raise RuntimeError(f"BRIGADE_DB_WAIT is 'cooperative' or 'threadpool', not {WAIT!r}")
    return CooperativeConnection


def default_path(instance_path):
    """Return the database file: ``$BRIGADE_DB``, else ``brigade.db`` in the instance folder."""
    return os.environ.get("BRIGADE_DB") or os.path.join(instance_path, "brigade.db")


def connect(path):
    """Open ``path`` as a sqlite-utils Database: WAL, foreign keys on, 5 s busy timeout (under
    gevent one that never blocks other greenlets, ``connection_class``)."""
    factory = connection_class()
    timeout = BUSY_STEP if factory is CooperativeConnection else BUSY_TIMEOUT
    conn = sqlite3.connect(str(path), timeout=timeout, check_same_thread=False, factory=factory)
    db = sqlite_utils.Database(conn)
    db.path = str(path)  # names the file for caches kept per database (webapp.game.play's games)
    db.execute("PRAGMA foreign_keys = ON")
    enable_wal(db)
    # In WAL mode NORMAL never corrupts the file; a power cut may lose the last commits.
    db.execute("PRAGMA synchronous = NORMAL")
    return db


def enable_wal(db):
    """Switch ``db`` to WAL mode (kept in the file), retrying while another connection blocks it."""
    # Switching a new file to WAL fails at once with "database is locked" (SQLite calls no
    # busy handler there) when another process opens it at the same moment: retry instead.
    deadline = clock.monotonic() + BUSY_TIMEOUT
    while True:
        try:
            db.enable_wal()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or clock.monotonic() > deadline:
                raise
            time.sleep(0.01)


class Waiting:
    """How many write transactions of this process wait for the database's write lock right now
    (``brigade_db_writers_waiting`` on /metrics: a host sees another process holding the lock, and a
    test waits for a write to be stuck instead of guessing how long that takes)."""

    def __init__(self):
        self._lock = threading.Lock()
        self.count = 0

    def __enter__(self):
        with self._lock:
            self.count += 1

    def __exit__(self, *exc):
        with self._lock:
            self.count -= 1


WRITERS_WAITING = Waiting()


@contextlib.contextmanager
def transaction(db):
    """Run the block as one write transaction (``BEGIN IMMEDIATE``), or a savepoint inside one."""
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    # IMMEDIATE takes the write lock up front, so a concurrent writer waits (busy timeout)
    # instead of failing when a read transaction tries to become a write one.
    with WRITERS_WAITING:
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
    """The current UTC time as sortable ISO 8601 text, e.g. ``2025-01-31T12:00:00.000Z``. The text
    up to the second is formatted once per second (every stored action writes two or three stamps)."""
    t = clock.now()
    second = int(t)
    kept = _second
    if kept[0] != second:
        kept = (second, datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
        _keep_second(kept)
    return f"{kept[1]}.{int((t - second) * 1000):03d}Z"


_second = (None, "")  # (epoch second, its text): ``now``


def _keep_second(kept):
    global _second
    _second = kept
