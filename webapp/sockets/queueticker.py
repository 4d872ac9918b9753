"""The play-anyone queue's ticker: one background task per process that, while anyone waits, pairs the
players whose rating gap the wait has widened enough (``matchqueue.sweep`` does the work; the loop is
ticker.Ticker's)."""

from webapp.social import matchqueue

from .ticker import Ticker


class QueueTicker(Ticker):
    """The queue ticker of one app (``Notifier.watch_queue`` starts it; ``online``'s ``stop`` stops it
    too). A player is put in the queue before ``watch`` is called, so one who just began waiting is never
    left without a ticker."""

    what = "the queue ticker"

    def worth_starting(self):
        return not self.online.stopped

    def pause(self):
        return float(self.app.config["QUEUE_TICK"])

    def busy(self, db):
        return not self.online.stopped and matchqueue.waiting(db)

    def tick(self, db):
        with self.app.app_context():
            matchqueue.sweep(db, self.online, self.app.config)
