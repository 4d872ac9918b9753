"""How a gevent server waits for SQLite's write lock: the two ways of webapp/store/db.py compared.

    python bench/db_wait.py --statements 3000 --hold 3

Runs under gevent (monkey-patched, like ``python -m webapp``) on a fresh database file and, for
each way (BRIGADE_DB_WAIT "cooperative", "threadpool", and SQLite's plain busy handler for
reference), prints:

- the cost of one statement when nothing waits: a point read and a one-row write (autocommit),
  median µs over ``--statements`` of each: what every action pays;
- the event loop's longest stall while another process holds the write lock for ``--hold`` seconds
  and a greenlet's write waits for it (a ticker greenlet wakes every 5 ms and records its lateness):
  what every other player pays while the database is held.

Figures vary with the host's load: compare the ways within one run.
"""

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import os  # noqa: E402
import sqlite3  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import gevent  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from webapp.store import db as dbmod  # noqa: E402

HOLDER = """
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
c.execute("ROLLBACK")
"""


def open_with(path, way):
    chooser = dbmod.connection_class
    if way == "sqlite":  # the same pragmas, SQLite's own busy handler
        dbmod.connection_class = lambda: sqlite3.Connection
    dbmod.WAIT = way
    try:
        return dbmod.connect(path).conn
    finally:
        dbmod.connection_class = chooser


def costs(conn, n):
    reads, writes = [], []
    for i in range(n):
        t = time.perf_counter()
        conn.execute("SELECT v FROM t WHERE id = ?", [i % 100 + 1]).fetchone()
        reads.append(time.perf_counter() - t)
        t = time.perf_counter()
        conn.execute("INSERT INTO t (v) VALUES (?)", [i])
        conn.commit()
        writes.append(time.perf_counter() - t)
    return statistics.median(reads) * 1e6, statistics.median(writes) * 1e6


def stall(conn, path, hold):
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, path, str(hold)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    lateness = []
    done = []

    def ticker():
        while not done:
            t = time.perf_counter()
            gevent.sleep(0.005)
            lateness.append(time.perf_counter() - t - 0.005)

    def writer():
        t = time.perf_counter()
        try:
            conn.execute("INSERT INTO t (v) VALUES (0)")
            conn.commit()
            outcome = "written"
        except sqlite3.OperationalError as exc:
            outcome = str(exc)
        done.append((outcome, time.perf_counter() - t))

    tick = gevent.spawn(ticker)
    gevent.spawn(writer).join()
    tick.join()
    holder.wait()
    return max(lateness) * 1000, done[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statements", type=int, default=3000)
    parser.add_argument("--hold", type=float, default=3.0, help="seconds the other process holds the lock")
    args = parser.parse_args()
    dbmod.BUSY_TIMEOUT = min(dbmod.BUSY_TIMEOUT, args.hold + 2)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "bench.db")
        setup = sqlite3.connect(path)
        setup.execute("PRAGMA journal_mode = WAL")
        setup.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)")
        setup.executemany("INSERT INTO t (v) VALUES (?)", [(i,) for i in range(100)])
        setup.commit()
        setup.close()
        for way in ("sqlite", "cooperative", "threadpool"):
            conn = open_with(path, way)
            read, write = costs(conn, args.statements)
            worst, (outcome, waited) = stall(conn, path, args.hold)
            print(f"{way:12s} read {read:6.1f} µs  write {write:7.1f} µs  | lock held {args.hold:g} s: "
                  f"loop's longest stall {worst:7.1f} ms; the write: {outcome} after {waited:.2f} s", flush=True)
            conn.close()


if __name__ == "__main__":
    main()
