"""Logs a host can read (docs/deploy.md#logs): one line per request, one per socket event (for the
socket layer to call), errors with their tracebacks; to stderr (journald under systemd), at the
``LOG_LEVEL`` setting, as plain text or one JSON object per line (``LOG_FORMAT = "json"``).

What a line never holds: passwords, cookies, query strings (a ``?next=`` or a code), the secret part
of a path (a reset token, an invitation code: ``SECRET_ARGS``), or anything of a game's hidden state.
A request line has the method, the path, the status, the milliseconds and the user id (or ``-``).

Lines are written in batches (``BufferedHandler``): at most ``FLUSH_AFTER`` seconds after they were
logged, at once with a WARNING or worse, and when the process stops (``logging.shutdown`` at exit, a
SIGTERM); one write for many lines instead of a write and a flush each.
"""

import contextlib
import json
import logging
import os
import signal
import sys
import threading
import time

from flask import g, request, session

from webapp import clock

REQUEST_LOG = logging.getLogger("brigade.request")
SOCKET_LOG = logging.getLogger("brigade.socket")

#: URL arguments whose values are secrets: shown as "…" in the logged path.
SECRET_ARGS = ("token", "code")
#: Paths logged at DEBUG rather than INFO (each page asks for a few of them).
QUIET_PREFIXES = ("/static/", "/healthz", "/metrics", "/favicon")
#: Fields a JSON line takes from a record's ``extra``.
FIELDS = ("method", "path", "status", "ms", "user", "event", "outcome")

#: Seconds a logged line may wait before it is written (docs/deploy.md#logs); a WARNING or worse,
#: or BUFFER_BYTES of waiting lines, writes everything at once.
FLUSH_AFTER = 0.2
BUFFER_BYTES = 32768

_handler = None  # the one stderr handler this module installs (create_app may run many times)


class BufferedHandler(logging.StreamHandler):
    """A StreamHandler that writes its lines in batches: each formatted line waits in memory until
    ``delay`` seconds after the first one waiting (a timer: a thread, or a greenlet under gevent),
    until ``limit`` characters wait, or until a line at WARNING or above comes, which is written
    with all those before it; ``flush()`` (logging.shutdown at exit, ``close``) writes what waits.
    The lines and their order are the StreamHandler's; only their moment moves."""

    def __init__(self, stream=None, delay=FLUSH_AFTER, limit=BUFFER_BYTES):
        super().__init__(stream)
        self.delay, self.limit = delay, limit
        self.waiting, self.size = [], 0
        self.timer = None

    def emit(self, record):
        try:
            self.add(self.format(record) + self.terminator, record.levelno >= logging.WARNING)
        except RecursionError:
            raise
        except Exception:
            self.handleError(record)

    def add(self, line, now=False):
        """Queue one formatted line (with its newline); ``now``: write everything at once."""
        with self.lock:
            self.waiting.append(line)
            self.size += len(line)
            if now or self.size >= self.limit:
                self.write_waiting()
            elif self.timer is None:
                self.timer = threading.Timer(self.delay, self.tick)
                self.timer.daemon = True
                self.timer.start()

    def write_waiting(self):
        """Write and flush what waits (the lock held)."""
        if self.waiting:
            text = "".join(self.waiting)
            self.waiting.clear()
            self.size = 0
            self.stream.write(text)
        self.stream.flush()

    def tick(self):
        with self.lock:
            self.timer = None
            with contextlib.suppress(OSError, ValueError):  # stderr closed or gone: nobody to tell
                self.write_waiting()

    def flush(self):
        with self.lock:
            if self.stream is not None and hasattr(self.stream, "write"):
                self.write_waiting()

    def close(self):
        with self.lock:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None
        try:
            self.flush()
        finally:
            super().close()


def forget_waiting():
    """In a forked child: the parent's waiting lines are the parent's to write, and its timer is not here."""
    if _handler is not None:
        _handler.waiting, _handler.size, _handler.timer = [], 0, None


os.register_at_fork(after_in_child=forget_waiting)


def flush_on_sigterm():
    """Write the waiting lines when a SIGTERM stops the process (systemd's stop), then die of it as
    before; installed once, in the main thread, only where SIGTERM has no handler yet."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return

    def stop(signum, frame):
        if _handler is not None:
            with contextlib.suppress(Exception):  # dying anyway: the lines are lost, the stop is not
                _handler.flush()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)


class SecondsFormatter(logging.Formatter):
    """A Formatter that formats each second's time once (``strftime`` was a third of a line's cost)."""

    def formatTime(self, record, datefmt=None):  # noqa: N802 (logging's name)
        key = (int(record.created), datefmt)
        kept = getattr(self, "_kept", None)
        if kept is None or kept[0] != key:
            stamp = time.strftime(datefmt or self.default_time_format, self.converter(key[0]))
            kept = self._kept = (key, stamp)
        if datefmt:
            return kept[1]
        return self.default_msec_format % (kept[1], record.msecs)


class JsonFormatter(SecondsFormatter):
    """One JSON object per line: time, level, logger, message, the request fields, a traceback."""

    def format(self, record):
        line = {"time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}Z",
                "level": record.levelname, "logger": record.name, "message": record.getMessage()}
        for key in FIELDS:
            if hasattr(record, key):
                line[key] = getattr(record, key)
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def formatter(kind):
    f = JsonFormatter() if kind == "json" else SecondsFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    f.converter = time.gmtime  # UTC, as the database's times
    return f


def setting(config, key, default):
    return str(config.get(key) or os.environ.get(key) or default)


def configure(config):
    """Send the root logger to stderr at ``LOG_LEVEL`` (INFO) as ``LOG_FORMAT`` (text or json);
    settings from the app's config, else the environment. Idempotent: one handler, replaced."""
    global _handler
    level_name = setting(config, "LOG_LEVEL", "INFO").upper()
    level = logging.getLevelName(level_name)
    if not isinstance(level, int):
        raise SystemExit(f"LOG_LEVEL is one of DEBUG, INFO, WARNING, ERROR, not {level_name!r}")
    kind = setting(config, "LOG_FORMAT", "text").lower()
    if kind not in ("text", "json"):
        raise SystemExit(f"LOG_FORMAT is 'text' or 'json', not {kind!r}")
    root = logging.getLogger()
    if _handler is not None:
        root.removeHandler(_handler)
        _handler.close()  # writes what waits
    _handler = BufferedHandler(sys.stderr)
    _handler.setFormatter(formatter(kind))
    root.addHandler(_handler)
    flush_on_sigterm()
    root.setLevel(level)
    # Werkzeug's own access lines (threading server) carry query strings: ours replace them.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)


def logged_path():
    """The request's path with secret URL arguments replaced by "…" and without the query string."""
    path = request.path
    for key in SECRET_ARGS:
        value = (request.view_args or {}).get(key)
        if value:
            path = path.replace(str(value), "…")
    return path


def started():
    g.request_started = time.perf_counter()


def log_request(response):
    """After each request: one line (method, path, status, ms, user id)."""
    begun = g.pop("request_started", None)
    ms = round((time.perf_counter() - begun) * 1000, 1) if begun is not None else None
    user = g.get("user")
    uid = user["id"] if user else session.get("user_id")  # the latter: who just logged in or registered
    path = logged_path()
    level = logging.DEBUG if path.startswith(QUIET_PREFIXES) else logging.INFO
    if REQUEST_LOG.isEnabledFor(level):
        REQUEST_LOG.log(level, "%s %s %s %sms user=%s", request.method, path, response.status_code, ms,
                        uid if uid is not None else "-",
                        extra={"method": request.method, "path": path, "status": response.status_code,
                               "ms": ms, "user": uid})
    return response


def log_event(name, user_id, ms, outcome):
    """One line per Socket.IO event, for the socket layer to call once the event is handled:
    ``name`` (the event, e.g. "action"), the user id (or None), milliseconds, and ``outcome`` a short
    word ("ok", "illegal", "stale", "refused", "error"). Never pass the event's data: it may hold
    hidden information."""
    if not SOCKET_LOG.isEnabledFor(logging.INFO):
        return
    ms = None if ms is None else round(float(ms), 1)
    args = (name, outcome, "-" if ms is None else f"{ms}ms", user_id if user_id is not None else "-")
    handler = _handler
    if handler is not None and only_to(handler):
        # Nobody else would see the record (no other handler, no filter: a test's caplog is one):
        # the line is its formatter's, from a record holding what the formats read, without a
        # LogRecord's other work (thread and process names, the caller's file) or the logging chain.
        record = logging.LogRecord.__new__(logging.LogRecord)
        ct = clock.now()
        record.__dict__.update(name=SOCKET_LOG.name, msg=EVENT_FORMAT, args=args, levelname="INFO", levelno=logging.INFO,
                               created=ct, msecs=int((ct - int(ct)) * 1000) + 0.0, exc_info=None, exc_text=None,
                               stack_info=None, event=name, outcome=outcome, ms=ms, user=user_id)
        handler.add(handler.format(record) + handler.terminator)
        return
    # The record is made here rather than by SOCKET_LOG.info, which first walks the stack for the
    # caller's file and line (no line of ours shows them): a tenth of a socket event's own work.
    record = SOCKET_LOG.makeRecord(SOCKET_LOG.name, logging.INFO, __file__, 0, EVENT_FORMAT, args, None, func="log_event",
                                   extra={"event": name, "outcome": outcome, "ms": ms, "user": user_id})
    SOCKET_LOG.handle(record)


EVENT_FORMAT = "event %s %s %s user=%s"


def only_to(handler):
    """Whether a brigade.socket record at INFO would reach ``handler`` alone, unfiltered: no handler
    or filter on the way to the root, whose only handler it is."""
    logger = SOCKET_LOG
    while logger is not None:
        if logger.filters or logger.disabled:
            return False
        if logger.parent is None:
            return logger.handlers == [handler] and not handler.filters and handler.level <= logging.INFO
        if logger.handlers or not logger.propagate:
            return False
        logger = logger.parent
    return False


def log_exception(app):
    """Flask's ``log_exception`` with the logged path: its own names ``request.path``, which may hold
    a reset token."""
    def log(exc_info):
        app.logger.error("Exception on %s [%s]", logged_path(), request.method, exc_info=exc_info)
    return log


def init_app(app):
    """Configure logging from the app's settings and log every request."""
    configure(app.config)
    app.before_request(started)
    app.after_request(log_request)
    app.log_exception = log_exception(app)
