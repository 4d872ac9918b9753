"""The CPU's moves as background tasks: one task per game, ``cpumoves.cpu_turns`` doing the work, pushed
to the players as they come; with several processes, one task per game over all of them (a lease).

A move the database cannot take (locked, read-only, a full or failing disk: ``store.db.trouble``) is
tried again after a back-off while the CPU is still to move (docs/security.md "Errors and a database in trouble"): the game's sockets hear
``busy`` each time and the log one line a minute (the hub's ``cpu_unavailable``), never a traceback.
The move is one transaction at the game's version, so a retry loses and doubles nothing.
"""

import logging
import sqlite3
import threading

from webapp import clock, store
from webapp.game import cpumoves, cpuseats, play
from webapp.store import db as store_db

log = logging.getLogger(__name__)

#: Seconds a CPU task's lease lives without renewal (renewed between moves; a Hard move that thinks
#: longer only risks a second process thinking too: the game's version lets one move in). A process
#: that sees another's lease looks every CPU_WATCH seconds whether that process still plays.
CPU_LEASE, CPU_WATCH = 15.0, 1.0
#: After database trouble the CPU waits CPU_RETRY seconds before trying its move again, twice as long
#: after each failure in a row, at most CPU_RETRY_MOST; the wait reads the app's clock (webapp/clock.py)
#: every CPU_RETRY_STEP seconds, so a test moves it on instead of sleeping.
CPU_RETRY, CPU_RETRY_MOST, CPU_RETRY_STEP = 2.0, 60.0, 0.25


class LeaseLost(Exception):
    """This process's lease on a game's CPU lapsed and another process took it."""


class CpuRunner:
    """The CPU tasks of one app. ``push(db, played)`` sends a move to the players; ``cluster``
    (webapp/hosting/cluster.py) is None with one process; ``unavailable(db, game_id, exc)`` tells the
    game's sockets (and the log) that its CPU's move could not be written."""

    def __init__(self, app, socketio, push, cluster=None, unavailable=None):
        self.app, self.socketio, self.push, self.cluster = app, socketio, push, cluster
        self.unavailable = unavailable or (lambda db, game_id, exc: None)
        self.lock = threading.Lock()
        self.tasks = {}  # game id -> "run again" flag of its running CPU task

    def waiting(self, row, game):
        """Start the game's CPU task if the CPU is to move."""
        if cpuseats.cpu_to_move(row, game) is not None:
            self.kick(row["id"])

    def kick(self, game_id):
        """Make sure a background task plays the CPU of this game (one task per game)."""
        with self.lock:
            if game_id in self.tasks:
                self.tasks[game_id] = True  # the running task looks again before it stops
                return
            self.tasks[game_id] = False
        lease = None
        if self.cluster is not None:  # one CPU task per game over every process (webapp/hosting/cluster.py)
            lease = self.cluster.lease(f"cpu:{game_id}", CPU_LEASE)
            if not self.cluster.take(lease):
                with self.lock:
                    del self.tasks[game_id]
                self.socketio.start_background_task(self.elsewhere, game_id)
                return
        self.socketio.start_background_task(self.run, game_id, lease)

    def run(self, game_id, lease=None):
        delay = self.app.config["CPU_DELAY"]

        def pause():
            if lease is not None and not self.cluster.renew(lease):
                raise LeaseLost(game_id)
            if delay:
                self.socketio.sleep(delay)

        db = store.connect(self.app.config["DATABASE"])
        retry = 0.0  # seconds to wait before the next try, after database trouble
        try:
            while True:
                with self.lock:
                    self.tasks[game_id] = False
                failed = True
                try:
                    if retry:
                        self.back_off(retry, lease)
                    pause()
                    cpumoves.cpu_turns(db, game_id, on_action=lambda played: self.push(db, played), delay=pause)
                    failed = False
                except LeaseLost:
                    log.warning("the CPU lease of game %s lapsed: another process plays it", game_id)
                    with self.lock:
                        del self.tasks[game_id]
                    return
                except sqlite3.OperationalError as exc:
                    if store_db.trouble(exc) is None:
                        log.exception("the CPU of game %s failed", game_id)
                    else:  # nothing was written: tell the game, wait, and try again while the CPU is to move
                        if db.conn.in_transaction:
                            db.conn.rollback()
                        self.unavailable(db, game_id, exc)
                        retry = min(retry * 2, CPU_RETRY_MOST) if retry else CPU_RETRY
                        continue
                except Exception:  # a bug must not kill the task silently with the flag set
                    log.exception("the CPU of game %s failed", game_id)
                retry = 0.0
                with self.lock:
                    if not self.tasks[game_id]:
                        del self.tasks[game_id]
                        break
            if lease is not None:
                # Another process's player may have moved between this task's last look and the
                # lease's release, and found it taken: look once more now that it is free.
                self.cluster.give_back(lease)
                if not failed:
                    self.waiting(*play.load(db, game_id))
        finally:
            db.close()

    def back_off(self, seconds, lease=None):
        """Wait ``seconds`` of the app's clock, in short real sleeps (a test advances the clock); the
        game's lease, if any, renewed meanwhile (LeaseLost if it lapsed)."""
        deadline = renewed = clock.monotonic()
        deadline += seconds
        while (now := clock.monotonic()) < deadline:
            if lease is not None and now - renewed >= CPU_LEASE / 3:
                if not self.cluster.renew(lease):
                    raise LeaseLost(lease)
                renewed = now
            self.socketio.sleep(min(CPU_RETRY_STEP, deadline - now))

    def elsewhere(self, game_id):
        """Another process holds this game's CPU lease. While its moves come, nothing to do; if the game
        stands still with the CPU to move until the lease could have lapsed, that process is gone (a
        crash): play here."""
        db = store.connect(self.app.config["DATABASE"])
        try:
            row, game = play.load(db, game_id)
            version = row["version"]
            for _ in range(int(CPU_LEASE / CPU_WATCH) + 2):
                self.socketio.sleep(CPU_WATCH)
                row, game = play.load(db, game_id)
                if row["version"] != version or cpuseats.cpu_to_move(row, game) is None:
                    return
                lease = self.cluster.lease(f"cpu:{game_id}", CPU_LEASE)
                if self.cluster.take(lease):
                    with self.lock:
                        mine = game_id not in self.tasks
                        if mine:
                            self.tasks[game_id] = False
                    if mine:
                        log.warning("game %s: the process that played its CPU is gone; this one plays it", game_id)
                        self.socketio.start_background_task(self.run, game_id, lease)
                    else:
                        self.cluster.give_back(lease)
                    return
        finally:
            db.close()
