"""Logs a host can read (docs/deploy.md#logs): one line per request, one per socket event (for the
socket layer to call), errors with their tracebacks; to stderr (journald under systemd), at the
``LOG_LEVEL`` setting, as plain text or one JSON object per line (``LOG_FORMAT = "json"``).

What a line never holds: passwords, cookies, query strings (a ``?next=`` or a code), the secret part
of a path (a reset token, an invitation code: ``SECRET_ARGS``), or anything of a game's hidden state.
A request line has the method, the path, the status, the milliseconds and the user id (or ``-``).
"""

import json
import logging
import os
import sys
import time

from flask import g, request, session

REQUEST_LOG = logging.getLogger("brigade.request")
SOCKET_LOG = logging.getLogger("brigade.socket")

#: URL arguments whose values are secrets: shown as "…" in the logged path.
SECRET_ARGS = ("token", "code")
#: Paths logged at DEBUG rather than INFO (each page asks for a few of them).
QUIET_PREFIXES = ("/static/", "/healthz", "/metrics", "/favicon")
#: Fields a JSON line takes from a record's ``extra``.
FIELDS = ("method", "path", "status", "ms", "user", "event", "outcome")

_handler = None  # the one stderr handler this module installs (create_app may run many times)


class JsonFormatter(logging.Formatter):
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
    f = JsonFormatter() if kind == "json" else logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
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
    _handler = logging.StreamHandler(sys.stderr)
    _handler.setFormatter(formatter(kind))
    root.addHandler(_handler)
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
    ms = None if ms is None else round(float(ms), 1)
    SOCKET_LOG.info("event %s %s %s user=%s", name, outcome, "-" if ms is None else f"{ms}ms",
                    user_id if user_id is not None else "-",
                    extra={"event": name, "outcome": outcome, "ms": ms, "user": user_id})


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
