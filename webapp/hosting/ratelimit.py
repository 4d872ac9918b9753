"""One sliding-window rate limiter for the whole server: logins, registrations, joins, replays, hints,
socket events, emotes. In memory, per process; thread-safe (the threading server shares it between
request threads, gevent between greenlets).

    limiter = Window(limit=5, seconds=60)
    if limiter.wait(key):      # seconds until the next hit is allowed, 0 when it is
        refuse()
    limiter.hit(key)           # count one
    limiter.take(key)          # both at once: True and counted when allowed, False (uncounted) when not

Keys are anything hashable: a user id, an address, a tuple of both. Entries expire with their
window, so the map never holds more keys than were active within one window (plus one sweep).
"""

import collections
import math
import threading

from webapp import clock as app_clock


class Window:
    """At most `limit` hits per key within any `seconds`-long window."""

    def __init__(self, limit, seconds, clock=app_clock.monotonic):
        if limit < 1 or seconds <= 0:
            raise ValueError("a rate limit needs limit >= 1 and seconds > 0")
        self.limit, self.seconds = int(limit), float(seconds)
        self.clock = clock  # tests stop it, so a wait in seconds does not depend on how fast they run
        self._hits = {}
        self._lock = threading.Lock()
        self._swept = clock()

    def _recent(self, key, now):
        times = self._hits.get(key)
        if times is None:
            return None
        while times and now - times[0] >= self.seconds:
            times.popleft()
        if not times:
            del self._hits[key]
            return None
        return times

    def _sweep(self, now):
        """Drop every expired key once per window, so keys seen once do not pile up."""
        if now - self._swept < self.seconds:
            return
        self._swept = now
        for key in list(self._hits):
            self._recent(key, now)

    def count(self, key, now=None):
        """Hits of `key` within the window."""
        now = self.clock() if now is None else now
        with self._lock:
            times = self._recent(key, now)
            return len(times) if times else 0

    def wait(self, key, now=None):
        """Seconds to wait before the next hit of `key` is allowed (at least 1 when refused), or 0."""
        now = self.clock() if now is None else now
        with self._lock:
            times = self._recent(key, now)
            if not times or len(times) < self.limit:
                return 0
            return max(1, math.ceil(self.seconds - (now - times[-self.limit])))

    def hit(self, key, now=None):
        """Count one hit of `key`."""
        now = self.clock() if now is None else now
        with self._lock:
            self._sweep(now)
            self._hits.setdefault(key, collections.deque()).append(now)

    def take(self, key, now=None):
        """Count a hit and say True when it is within the limit; say False, counting nothing, when not."""
        now = self.clock() if now is None else now
        with self._lock:
            self._sweep(now)
            times = self._recent(key, now)
            if times is not None and len(times) >= self.limit:
                return False
            self._hits.setdefault(key, collections.deque()).append(now)
            return True

    def clear(self, key):
        with self._lock:
            self._hits.pop(key, None)

    def __len__(self):
        """Keys held now (for tests of memory bounds)."""
        with self._lock:
            return len(self._hits)
