"""The hub's tickers: one background task per process and per kind, running while there is something to
watch. ``Ticker`` is the loop they share; ``ClockTicker`` ends the online games whose clock ran out or
whose absent player passed the automatic claim (``Online.look`` does the work); the play-anyone queue's
is in queueticker.py."""

import logging
import threading

from webapp import store

log = logging.getLogger(__name__)


class Ticker:
    """A background task that calls ``tick(db)`` every ``pause()`` seconds while ``busy(db)`` says there
    is something to watch (``online``: webapp.game.online.Online, set once made)."""

    #: what the log calls it when a tick fails
    what = "a ticker"

    def __init__(self, app, socketio):
        self.app, self.socketio = app, socketio
        self.online = None
        self.ticking = False  # whether the ticker runs (``watch``)
        self.lock = threading.Lock()

    def watch(self):
        """Make sure the ticker runs while there is something to watch: one task per process."""
        with self.lock:
            if self.ticking or not self.worth_starting():
                return
            self.ticking = True
        self.socketio.start_background_task(self.run)

    def run(self):
        """Every ``pause()`` seconds, ``tick(db)``. Stops when nothing is left to watch (``watch`` starts
        it again); the check and the flag move under one lock, so what began to be watched meanwhile is
        never left without a ticker."""
        db = store.connect(self.app.config["DATABASE"])
        try:
            while True:
                self.socketio.sleep(self.pause())
                with self.lock:
                    if not self.busy(db):
                        self.ticking = False
                        return
                try:
                    self.tick(db)
                except Exception:  # a bug must not stop the ticker for good
                    log.exception("%s failed", self.what)
        finally:
            self.done()
            db.close()

    # the kind's own parts
    def worth_starting(self):
        return True

    def pause(self):
        raise NotImplementedError

    def busy(self, db):
        raise NotImplementedError

    def tick(self, db):
        raise NotImplementedError

    def done(self):
        """After the last tick (the task ends)."""


class ClockTicker(Ticker):
    """The ticker of one app's online games (``Notifier.watch_clocks`` starts it)."""

    what = "the online ticker"

    def worth_starting(self):
        return self.online.watching()

    def pause(self):
        return self.online.tick_seconds()

    def busy(self, db):
        return self.online.watching()

    def tick(self, db):
        self.online.look(db)

    def done(self):
        self.online.let_go()
