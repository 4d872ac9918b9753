"""The online games' clock ticker: one background task per process that ends the games whose clock ran
out or whose absent player passed the automatic claim (``Online.look`` does the work)."""

import logging
import threading

from webapp import store

log = logging.getLogger(__name__)


class ClockTicker:
    """The ticker of one app's online games (``online``: webapp.game.online.Online, set once made)."""

    def __init__(self, app, socketio):
        self.app, self.socketio = app, socketio
        self.online = None
        self.ticking = False  # whether the ticker runs (``watch``)
        self.lock = threading.Lock()

    def watch(self):
        """Make sure the ticker runs while there is something to watch (``Notifier.watch_clocks``):
        one task per process."""
        with self.lock:
            if self.ticking or not self.online.watching():
                return
            self.ticking = True
        self.socketio.start_background_task(self.run)

    def run(self):
        """Every ONLINE_TICK seconds, ``Online.look``: end the games whose clock ran out or whose absent
        player passed the automatic claim. Stops when nothing is left to watch (``watch`` starts it
        again); the check and the flag move under one lock, so a game tracked meanwhile is never left
        without a ticker."""
        online = self.online
        db = store.connect(self.app.config["DATABASE"])
        try:
            while True:
                self.socketio.sleep(online.tick_seconds())
                with self.lock:
                    if not online.watching():
                        self.ticking = False
                        return
                try:
                    online.look(db)
                except Exception:  # a bug must not stop every game's clock
                    log.exception("the online ticker failed")
        finally:
            online.let_go()
            db.close()
