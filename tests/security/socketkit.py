"""Shared by the socket attack tests (tests/security/test_socket_*.py): a real server process with
settings of the test's choosing, users that each come from an address of their own (the server
trusts X-Forwarded-For with PROXY_FIX, as behind nginx), and real python-socketio clients."""

import itertools
import re
import threading

import requests
import socketio

from tests.online.helpers import wait_until  # noqa: F401 (re-exported)
from tests.play.test_real_server import Server
from webapp.tools.bot import csrf_of, log_in, start_cpu_game  # noqa: F401 (re-exported)

PASSWORD = "correct horse battery staple"
DECK = re.compile(r'name="deck"\s+value="(\d+)"')
NUMBERS = itertools.count(1)


class ConfiguredServer(Server):
    """``python -m webapp`` (gevent unless told otherwise) with extra settings in its config.py."""

    def __init__(self, instance, settings=None, server="gevent", cpu_delay=0.0):
        self.settings = dict(settings or {})
        self.settings.setdefault("PROXY_FIX", True)
        super().__init__(instance, cpu_delay=cpu_delay, server=server)

    def configure(self, cpu_delay):
        super().configure(cpu_delay)
        with open(self.instance / "config.py", "a") as f:
            for key, value in self.settings.items():
                f.write(f"{key} = {value!r}\n")

    def log_text(self):
        """What the server printed so far (it writes its log file itself)."""
        return (self.instance / "server.log").read_text(errors="replace")


def user(server, prefix="u", address=None):
    """A requests session registered and logged in as a new user, from an address of its own."""
    n = next(NUMBERS)
    http = requests.Session()
    http.name = f"{prefix}{n}"
    http.address = address or f"10.{n // 250 % 250}.{n % 250}.{7 + n // 62500}"
    http.headers["X-Forwarded-For"] = http.address
    log_in(http, server.url, http.name, PASSWORD, register=True)
    return http


def cookie_of(http):
    return "; ".join(f"{k}={v}" for k, v in http.cookies.get_dict().items())


class Client:
    """A real python-socketio client of a logged-in session; records every event it is sent."""

    EVENTS = ("state", "error", "presence", "emote", "rematch", "started", "invitation")

    def __init__(self, server, http, connect=True):
        self.got = []
        self.cond = threading.Condition()
        self.sio = socketio.Client(reconnection=False)
        self.http = http
        self.server = server
        for name in self.EVENTS:
            self.sio.on(name, lambda payload=None, name=name: self.record(name, payload))
        if connect:
            self.connect()

    def connect(self):
        self.sio.connect(self.server.url, transports=["websocket"], wait_timeout=10,
                         headers={"Cookie": cookie_of(self.http), "X-Forwarded-For": self.http.address})
        return self

    def record(self, name, payload):
        with self.cond:
            self.got.append((name, payload))
            self.cond.notify_all()

    def wait(self, predicate, timeout=15.0):
        with self.cond:
            ok = self.cond.wait_for(lambda: predicate(self), timeout=timeout)
        assert ok, f"timed out; last: {[(n, str(p)[:200]) for n, p in self.got[-3:]]}"

    def of(self, name):
        with self.cond:
            return [p for n, p in self.got if n == name]

    def states(self, game=None):
        return [p for p in self.of("state") if game is None or p["game"] == game]

    def latest(self, game):
        mine = self.states(game)
        return max(mine, key=lambda p: p["version"]) if mine else None

    def join(self, game):
        before = len(self.states(game))
        self.sio.emit("join", {"game": game})
        self.wait(lambda c: len(c.states(game)) > before)
        return self.states(game)[-1]

    def raw(self, text):
        """Send one Socket.IO packet as it is written on the wire (``42[...]`` is an event)."""
        self.sio.eio.send(text)

    def close(self):
        if self.sio.connected:
            self.sio.disconnect()
        if self.sio.eio.state != "disconnected":  # refused namespaces leave the connection open
            self.sio.eio.disconnect()


def invite_and_join(server, inviter, friend, clock="15"):
    """The lobby's forms: ``inviter`` invites, ``friend`` joins with their first deck; the game's id."""
    page = inviter.get(f"{server.url}/lobby", timeout=10).text
    answer = inviter.post(f"{server.url}/lobby/invite", timeout=10,
                          data={"csrf_token": csrf_of(page), "deck": DECK.findall(page)[0], "clock": clock})
    game_id = int(re.search(r"/lobby/invite/(\d+)$", answer.url).group(1))
    code = re.search(r'id="invite-code">(\w+)<', answer.text).group(1)
    page = friend.get(f"{server.url}/join/{code}", timeout=10)
    done = friend.post(f"{server.url}/join/{code}", timeout=10,
                       data={"csrf_token": csrf_of(page.text), "deck": DECK.findall(page.text)[0]})
    assert done.url.endswith(f"/play/{game_id}"), done.url
    return game_id
