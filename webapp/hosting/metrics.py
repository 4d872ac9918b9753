"""Prometheus metrics at ``/metrics`` (docs/deploy.md#metrics), with the ``prometheus-client`` library.

Served only to a scrape from this machine (``127.0.0.1``/``::1`` with no ``X-Forwarded-For``: not
through nginx) or with ``Authorization: Bearer <METRICS_TOKEN>``; anyone else gets 403. The families:

* ``brigade_http_requests_total{method,endpoint,status}`` and ``brigade_http_request_seconds{endpoint}``
  (histogram), counted for every request by this module's hooks;
* ``brigade_errors_total{kind}``: unhandled exceptions by class, 5xx responses as ``http_5xx``, and
  what other layers count with ``count_error(kind)``;
* ``brigade_active_games{mode}`` and ``brigade_database_bytes``: read at scrape time from the database;
* ``brigade_connected_sockets``, ``brigade_action_seconds`` (histogram: its ``_count`` rate is
  actions/s), ``brigade_cpu_move_seconds``, ``brigade_db_write_seconds``: fed by ``count_socket``,
  ``observe_action``, ``observe_cpu_move`` and ``observe_db_write``, for the socket and play layers
  to call (which of them are wired is said in docs/deploy.md);
* ``brigade_db_writers_waiting``: write transactions waiting for the database's write lock now
  (webapp/store/db.py ``WRITERS_WAITING``, read at scrape time);
* ``process_*`` (resident memory, CPU seconds, open files…): the library's process collector.

Counters live in this process's memory (a restart starts them over, which Prometheus handles).
"""

import hmac
import time

from flask import Response, abort, current_app, got_request_exception, has_app_context, request
from prometheus_client import (CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram,
                               disable_created_metrics, generate_latest)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.process_collector import ProcessCollector

from webapp.store import WRITERS_WAITING, get_db
from webapp.store.admin import active_games_by_mode, db_size

disable_created_metrics()  # no *_created series: Prometheus does not need them here
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)

#: Latency buckets in seconds, from a cached page to a slow scrypt log-in.
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Counter("brigade_http_requests", "HTTP requests served", ["method", "endpoint", "status"],
                   registry=REGISTRY)
REQUEST_SECONDS = Histogram("brigade_http_request_seconds", "Time to answer an HTTP request", ["endpoint"],
                            buckets=BUCKETS, registry=REGISTRY)
ERRORS = Counter("brigade_errors", "Errors by kind", ["kind"], registry=REGISTRY)
SOCKETS = Gauge("brigade_connected_sockets", "Socket.IO connections open in this process", registry=REGISTRY)
ACTIONS = Histogram("brigade_action_seconds", "Time to check, apply and store one game action",
                    buckets=BUCKETS, registry=REGISTRY)
CPU_MOVES = Histogram("brigade_cpu_move_seconds", "Time the CPU player thinks about one move",
                      buckets=BUCKETS + (30.0, 60.0), registry=REGISTRY)
DB_WRITES = Histogram("brigade_db_write_seconds", "Time of one database write transaction",
                      buckets=BUCKETS, registry=REGISTRY)
DB_WAITING = Gauge("brigade_db_writers_waiting", "Write transactions of this process waiting for the database's write lock now",
                   registry=REGISTRY)
DB_WAITING.set_function(lambda: WRITERS_WAITING.count)
TICKER_LOOKS = Counter("brigade_online_ticker_looks", "Looks of this process's online-games clock ticker",
                       registry=REGISTRY)


# ---------------------------------------------------------------- for other layers


def observe_action(seconds):
    """One game action took ``seconds`` (checked, applied and stored)."""
    ACTIONS.observe(seconds)


def count_socket(delta):
    """A Socket.IO connection opened (+1) or closed (-1)."""
    SOCKETS.inc(delta)


def observe_cpu_move(seconds):
    """The CPU player chose one move in ``seconds``."""
    CPU_MOVES.observe(seconds)


def observe_db_write(seconds):
    """One write transaction took ``seconds``."""
    DB_WRITES.observe(seconds)


def count_ticker_look():
    """The online games' ticker looked once at clocks and absences (``Online.look``)."""
    TICKER_LOOKS.inc()


def count_error(kind):
    """One error of ``kind`` (a short fixed word: never data from a request)."""
    ERRORS.labels(kind).inc()


# ---------------------------------------------------------------- read at scrape time


class DatabaseCollector:
    """Games in progress by mode and the database's size, read when Prometheus scrapes."""

    def collect(self):
        if not has_app_context() or not current_app.config.get("DATABASE"):
            return

        games = GaugeMetricFamily("brigade_active_games", "Games in progress, by mode", labels=["mode"])
        for mode, count in sorted(active_games_by_mode(get_db()).items()):
            games.add_metric([mode], count)
        yield games
        yield GaugeMetricFamily("brigade_database_bytes", "Size of the SQLite file with its WAL",
                                value=db_size(current_app.config["DATABASE"]))


REGISTRY.register(DatabaseCollector())


# ---------------------------------------------------------------- the hooks and the endpoint


def started():
    request.environ["brigade.metrics_started"] = time.perf_counter()


def finished(response):
    begun = request.environ.pop("brigade.metrics_started", None)
    endpoint = request.endpoint or "none"  # a route's name, never the path: the label set stays small
    REQUESTS.labels(request.method, endpoint, str(response.status_code)).inc()
    if begun is not None:
        REQUEST_SECONDS.labels(endpoint).observe(time.perf_counter() - begun)
    if response.status_code >= 500:
        count_error("http_5xx")
    return response


def exception_seen(sender, exception, **extra):
    count_error(type(exception).__name__)


def allowed():
    """A scrape from this machine not relayed by a proxy, or one with the bearer token."""
    token = str(current_app.config.get("METRICS_TOKEN") or "")
    sent = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        return True
    local = request.remote_addr in ("127.0.0.1", "::1")
    relayed = "X-Forwarded-For" in request.headers or "X-Real-IP" in request.headers
    return local and not relayed


def metrics():
    if not allowed():
        abort(403, description="Metrics are for this machine, or a scraper with the METRICS_TOKEN.")
    return Response(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)


def init_app(app):
    """``/metrics`` and the request hooks."""
    app.before_request(started)
    app.after_request(finished)
    got_request_exception.connect(exception_seen, app)
    app.add_url_rule("/metrics", "metrics", metrics)
