"""Helpers for online tests over Flask-SocketIO's test clients (and the real clients' closing)."""

import threading
import time

from tests.play.helpers import errors, states, take  # noqa: F401


def got(client):
    """Everything the client was sent since the last call: [(event, payload)]."""
    return [(m["name"], m["args"][0] if m["args"] else None) for m in take(client)]


def events(messages, name):
    return [payload for n, payload in messages if n == name]


def wait_until(predicate, timeout=10.0, step=0.02):
    """Poll ``predicate`` until it is truthy; return its value (AssertionError on timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(step)


def close_all(clients):
    """Close every client at once, each in a thread of its own. A real python-socketio client's close
    waits up to 3 s for the server's answer to its WebSocket close frame (websocket-client's
    ``close(timeout=3)``, while the client's own reader thread may take that answer): one after the
    other, a test with two or three clients spent 3-6 s in its teardown. A client is closed with its
    ``close()``, a bare ``socketio.Client`` with ``disconnect()``."""
    closers = [threading.Thread(target=getattr(c, "close", None) or c.disconnect) for c in clients]
    for t in closers:
        t.start()
    for t in closers:
        t.join(timeout=30)


def closing_clients(make_one):
    """A fixture's body: yields ``make(*args)``, which builds ``make_one(*args)``; every client made
    is closed when the test ends, all at once (``close_all``)."""
    made = []

    def make(*args):
        made.append(make_one(*args))
        return made[-1]
    yield make
    close_all(made)


class Seat:
    """A test client at one seat: its messages so far and its latest state."""

    def __init__(self, client, game_id):
        self.client, self.game_id = client, game_id
        self.seen = []

    def pull(self):
        new = got(self.client)
        self.seen += new
        return new

    def join(self):
        self.client.emit("join", {"game": self.game_id})
        return self.latest()

    def latest(self):
        self.pull()
        mine = [p for p in states(self.seen) if p["game"] == self.game_id]
        return max(mine, key=lambda p: p["version"]) if mine else None

    def act(self, action, version=None):
        version = self.latest()["version"] if version is None else version
        self.client.emit("action", {"game": self.game_id, "action": action, "version": version})
        return self.pull()
