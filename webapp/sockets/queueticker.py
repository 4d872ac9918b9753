"""The play-anyone queue's ticker: one background task per process that, while anyone waits, pairs the
players whose rating gap the wait has widened enough (``matchqueue.sweep`` does the work)."""

import logging
import threading

from webapp import store
from webapp.social import matchqueue

log = logging.getLogger(__name__)


class QueueTicker:
    """The queue ticker of one app (``online``: webapp.game.online.Online, set once made: the games start
    through it, and its ``stop`` stops this ticker too)."""

    def __init__(self, app, socketio):
        self.app, self.socketio = app, socketio
        self.online = None
        self.ticking = False  # whether the ticker runs (``watch``)
        self.lock = threading.Lock()

    def watch(self):
        """Make sure the ticker runs while someone waits (``Notifier.watch_queue``): one task per process."""
        with self.lock:
            if self.ticking or self.online.stopped:
                return
            self.ticking = True
        self.socketio.start_background_task(self.run)

    def run(self):
        """Every QUEUE_TICK seconds, ``matchqueue.sweep``. Stops when nobody waits any more (``watch``
        starts it again); the check and the flag move under one lock, and a player is put in the queue
        before ``watch`` is called, so a player who just began waiting is never left without a ticker."""
        db = store.connect(self.app.config["DATABASE"])
        try:
            while True:
                self.socketio.sleep(float(self.app.config["QUEUE_TICK"]))
                with self.lock:
                    if self.online.stopped or not matchqueue.waiting(db):
                        self.ticking = False
                        return
                try:
                    with self.app.app_context():
                        matchqueue.sweep(db, self.online, self.app.config)
                except Exception:  # a bug must not stop the queue for good
                    log.exception("the queue ticker failed")
        finally:
            db.close()
