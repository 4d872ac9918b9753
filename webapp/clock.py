"""The app's one clock: every module of webapp/ that reads the time reads it here (docs/testing.md
"Time: one clock, advanced, never slept").

- ``now()``: wall-clock seconds since the epoch (float), what stored times count in;
- ``now_ms()``: the same in whole milliseconds (online games' clocks, presence, Redis scores);
- ``monotonic()``: seconds that never go back (rate windows, timeouts of waits);
- ``utcnow()``: ``now()`` as an aware UTC datetime (dates on pages, file names, expiry days).

All four run on the real clocks plus one offset, which is zero in a real server. Tests move time
forward with ``advance(seconds)`` instead of sleeping (``tests/conftest.py``'s ``clock`` fixture
puts the offset back after each test); a test's server in another process is advanced through the
testing-only route of ``webapp/web/testing_clock.py``. Durations of work measured for metrics and
logs (``time.perf_counter``) are not the app's time and stay as they are; the engine reads no time.

This module imports nothing of the app, so any layer above the engine may import it (the CPU
players' worker pool too: ``tests/test_import_graph.py``).
"""

import datetime
import math
import threading
import time

_lock = threading.Lock()
_offset = 0.0  # seconds added to the real clocks; only ``advance`` and ``reset`` change it


def now():
    """Wall-clock seconds since the epoch."""
    return time.time() + _offset


def now_ms():
    """Wall-clock milliseconds since the epoch, an int."""
    return int(now() * 1000)


def monotonic():
    """Seconds of a clock that never goes back (its zero means nothing: compare two readings)."""
    return time.monotonic() + _offset


def utcnow():
    """``now()`` as an aware datetime in UTC."""
    return datetime.datetime.fromtimestamp(now(), datetime.UTC)


def advance(seconds):
    """Move every reading forward by ``seconds`` (a finite number, at least 0): time never goes back.
    Returns the offset now in force."""
    global _offset
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"the clock moves forward by a finite number of seconds, at least 0; got {seconds!r}")
    with _lock:
        _offset += float(seconds)
        return _offset


def offset():
    """Seconds the clock has been advanced by (0.0 in a real server)."""
    return _offset


def reset():
    """Back to the real clocks (the offset to zero): tests only, between tests."""
    global _offset
    with _lock:
        _offset = 0.0
