"""No database wait blocks the event loop (issue 12): while another process holds the database's
write lock for 10 s, a player's action waits for it (and is then refused with ``busy``, "try
again"), and meanwhile /healthz and a page answer at once, in the default serving mode (gevent).

Before issue 12 SQLite's busy handler slept in C inside the gevent loop: every connection froze
until the waiting write gave up (a bare ``internal`` error), /healthz included."""

import re
import sqlite3
import threading
import time

import pytest
import requests

from .socketkit import Client, ConfiguredServer, start_cpu_game, user

pytestmark = pytest.mark.slow

HOLD = 10.0


@pytest.fixture(params=["gevent", "threading"])
def server(request, tmp_path):
    srv = ConfiguredServer(tmp_path / "instance", server=request.param)
    srv.start()
    yield srv
    srv.stop()


def writers_waiting(url):
    """A reader of the server's ``brigade_db_writers_waiting`` (/metrics answers a scrape from this
    machine: a plain request, not a player's session, which comes through the "proxy" of its own address)."""
    def read():
        reply = requests.get(f"{url}/metrics", timeout=30)
        assert reply.status_code == 200, reply.status_code
        text = reply.text
        return float(re.search(r"^brigade_db_writers_waiting (\S+)$", text, re.M).group(1))
    return read


def test_a_held_write_lock_stalls_nobody_and_the_player_is_told_to_try_again(server):
    http = user(server, "locked")
    game_id = start_cpu_game(http, server.url)
    c = Client(server, http)
    first = c.join(game_id)
    action = first["legal_actions"][0]

    locker = sqlite3.connect(server.instance / "brigade.db", isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")  # another process takes the write lock
    held_since = time.monotonic()
    released = threading.Event()
    answered = {}

    def note_error(payload):
        answered.setdefault("error", (time.monotonic(), payload, released.is_set()))
    c.sio.on("error", note_error)
    try:
        c.sio.emit("action", {"game": game_id, "action": action, "version": 0})
        waiting = writers_waiting(server.url)
        while waiting() < 1:  # until the action's write waits for the lock (the server's own gauge)
            assert time.monotonic() < held_since + HOLD / 2, "the action's write never waited for the lock"
            time.sleep(0.01)
        for name, path in (("healthz", "/healthz"), ("page", "/play")):
            sent = time.monotonic()
            reply = http.get(f"{server.url}{path}", timeout=30)
            answered[name] = (time.monotonic(), reply.status_code, released.is_set(), "error" in answered)
            print(f"\n{server.server}: {path} answered {reply.status_code} in "
                  f"{(answered[name][0] - sent) * 1000:.0f} ms while the lock was held")
        deadline = held_since + HOLD
        while "error" not in answered and time.monotonic() < deadline:  # the waiting write gives up first
            time.sleep(0.05)
    finally:
        released.set()
        locker.execute("ROLLBACK")
        locker.close()

    for name in ("healthz", "page"):
        at, status, after_release, after_error = answered[name]
        assert status == 200 and not after_release, name
        # it answered while the player's write still waited: the loop was not blocked by that wait
        assert not after_error, f"{name} answered only after the waiting write gave up"
    at, payload, after_release = answered["error"]
    print(f"the blocked action was answered after {(at - held_since):.1f} s: {payload}")
    assert not after_release and payload["code"] == "busy" and "try again" in payload["message"]
    assert "Traceback" not in server.log_text()
    assert writers_waiting(server.url)() == 0  # the write that gave up is counted out

    # the lock is gone: the same action goes through
    c.sio.emit("action", {"game": game_id, "action": action, "version": 0})
    c.wait(lambda c: (c.latest(game_id) or {}).get("version", 0) >= 1)
    c.close()
