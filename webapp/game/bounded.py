"""``Bounded``: the one bounded memory of the game services. A map that keeps the ``size`` entries
used last and drops the oldest beyond them, safe across threads; the caches of a game between actions
(``gamecache.GAMES``), of what a game fixes at its start (``gamecache.PER_GAME``), of the log's sight
of a state (``seatstate.SIGHT``) and of take-back answers (``takeback.REMEMBERED``) are all one."""

import collections
import threading

_MISSING = object()


class Bounded:
    """At most ``size`` entries, the one used longest ago dropped first."""

    def __init__(self, size):
        self.size = size
        self.entries = collections.OrderedDict()
        self.lock = threading.Lock()

    def __len__(self):
        return len(self.entries)

    def get(self, key, default=None):
        """The value kept under ``key`` (now the newest entry), or ``default``."""
        with self.lock:
            value = self.entries.get(key, _MISSING)
            if value is _MISSING:
                return default
            self.entries.move_to_end(key)
            return value

    def peek(self, key, default=None):
        """The value kept under ``key``, or ``default``, leaving the order alone."""
        with self.lock:
            return self.entries.get(key, default)

    def put(self, key, value):
        """Keep ``value`` under ``key`` as the newest entry, dropping the oldest beyond ``size``; return it."""
        with self.lock:
            self.entries[key] = value
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return value

    def pop(self, key, default=None):
        """Drop the entry under ``key``; return its value, or ``default``."""
        with self.lock:
            return self.entries.pop(key, default)
