"""A command-line player that speaks the live protocol (docs/protocol.md): tests and load runs.

    python -m webapp.tools.bot --url http://127.0.0.1:5000 --name alice --password PW --cpu
    python -m webapp.tools.bot --url URL --name alice --password PW --game 12 --policy random

It logs in over HTTP like a browser (the login form's CSRF token, the session cookie), starts a
CPU game (``--cpu``) or joins one (``--game``), plays every decision of its seat with the policy
(any of ``webapp.ai.PLAYERS``, deciding from the ``view`` and ``legal_actions`` it is sent, nothing
else) until the game ends, and prints one JSON line: the game, its result and the action-to-update
latencies it saw.
"""

import argparse
import json
import re
import statistics
import sys
import threading
import time

import requests
import socketio

from webapp.ai import PLAYERS

CSRF = re.compile(r'name="csrf_token"\s+value="([^"]+)"')
DECK = re.compile(r'name="deck"\s+value="(\d+)"')


class BotError(Exception):
    """The bot cannot go on; the message says why."""


class SentView:
    """The game as a policy sees it: only what the server sent this seat."""

    def __init__(self, state):
        self.state = state

    def legal_actions(self, player):
        return list(self.state["legal_actions"]) if player == self.state["seat"] else []

    def view(self, player=None):
        return self.state["view"]

    def waiting_for(self):
        return set(self.state["waiting_for"])


# ---------------------------------------------------------------- HTTP


def csrf_of(html):
    m = CSRF.search(html)
    if not m:
        raise BotError("no csrf_token field on the page")
    return m.group(1)


def log_in(http, url, name, password, register=False):
    """Log the requests session in with the login form (registering first if asked)."""
    if register:
        page = http.get(f"{url}/register", timeout=10)
        if page.status_code == 200:
            http.post(f"{url}/register", data={"csrf_token": csrf_of(page.text), "name": name,
                                               "password": password, "confirm": password}, timeout=10)
            if logged_in(http, url):
                return
    for path in ("/login", "/auth/login"):
        page = http.get(f"{url}{path}", timeout=10)
        if page.status_code != 200:
            continue
        answer = http.post(f"{url}{path}", data={"csrf_token": csrf_of(page.text), "name": name,
                                                "password": password}, timeout=10)
        if answer.status_code >= 400 or not logged_in(http, url):
            raise BotError(f"log-in as {name!r} failed ({answer.status_code})")
        return
    raise BotError(f"no login page at {url}")


def logged_in(http, url):
    answer = http.get(f"{url}/play", timeout=10, allow_redirects=False)
    return answer.status_code == 200


def start_cpu_game(http, url, deck=None, difficulty=None):
    """Create a game against the CPU with ``deck`` (default: the first offered) at ``difficulty``
    ("easy", "normal", "hard"; default: the page's, Normal); return its id."""
    page = http.get(f"{url}/play", timeout=10)
    if page.status_code != 200:
        raise BotError(f"GET /play answered {page.status_code}")
    decks = DECK.findall(page.text)
    if not decks:
        raise BotError("no playable deck is offered on /play")
    choice = str(deck) if deck is not None else decks[0]
    form = {"csrf_token": csrf_of(page.text), "deck": choice}
    if difficulty is not None:
        form["difficulty"] = difficulty
    answer = http.post(f"{url}/play/cpu", data=form, allow_redirects=False, timeout=10)
    m = re.search(r"/play/(\d+)$", answer.headers.get("Location", ""))
    if answer.status_code not in (302, 303) or not m:
        raise BotError(f"POST /play/cpu did not start a game ({answer.status_code})")
    return int(m.group(1))


# ---------------------------------------------------------------- Socket.IO


class Bot:
    """One seat played over one Socket.IO connection."""

    def __init__(self, url, cookies, game_id, policy="baseline", seed=None, timeout=60.0,
                 max_actions=None, on_state=None, transports=("websocket",), rate=15.0):
        self.url, self.game_id, self.timeout = url, game_id, timeout
        self.cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.player = PLAYERS[policy](seed=seed)
        self.max_actions = max_actions
        self.on_state = on_state
        self.transports = list(transports)
        self.interval = 1.0 / rate if rate else 0.0  # stay under the server's 20 events a second
        self.last_emit = 0.0
        self.cond = threading.Condition()
        self.state = None
        self.errors = []
        self.sent = None          # (version acted on, perf_counter when sent)
        self.latencies = []       # seconds from sending an action to the state that answers it
        self.decisions = []       # seconds the policy took
        self.actions = 0
        self.gone = False
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("state", self._state)
        self.sio.on("error", self._error)
        self.sio.on("disconnect", self._disconnect)

    def _state(self, payload):
        now = time.perf_counter()
        with self.cond:
            if self.on_state is not None:
                self.on_state(payload)
            if self.sent is not None and payload["version"] == self.sent[0] + 1:
                self.latencies.append(now - self.sent[1])
                self.sent = None
            if self.state is None or payload["version"] >= self.state["version"]:
                self.state = payload
            self.cond.notify_all()

    def _error(self, payload):
        with self.cond:
            self.errors.append(payload)
            self.cond.notify_all()
        if payload.get("code") == "stale":  # a newer state is on its way or was missed: ask again
            self.sio.emit("join", {"game": self.game_id})

    def _disconnect(self, *args):
        with self.cond:
            self.gone = True
            self.cond.notify_all()

    def run(self):
        """Play until the game ends (or max_actions); return the summary."""
        self.sio.connect(self.url, headers={"Cookie": self.cookie}, transports=self.transports, wait_timeout=10)
        try:
            self.sio.emit("join", {"game": self.game_id})
            acted_on = -1
            while True:
                with self.cond:
                    ok = self.cond.wait_for(lambda acted_on=acted_on: self.gone or self.fatal() or self.ready(acted_on),
                                            timeout=self.timeout)
                    if self.gone:
                        raise BotError("the server closed the connection")
                    if self.fatal():
                        raise BotError(f"refused: {self.fatal()}")
                    if not ok:
                        raise BotError(f"no decision came within {self.timeout} s "
                                       f"(last version {self.state and self.state['version']})")
                    state = self.state
                if self.over(state) or (self.max_actions is not None and self.actions >= self.max_actions):
                    break
                started = time.perf_counter()
                action = self.player.choose(SentView(state), state["seat"])
                self.decisions.append(time.perf_counter() - started)
                acted_on = state["version"]
                wait = self.last_emit + self.interval - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                self.last_emit = time.perf_counter()
                with self.cond:
                    self.sent = (acted_on, time.perf_counter())
                self.sio.emit("action", {"game": self.game_id, "action": action, "version": acted_on})
                self.actions += 1
        finally:
            self.sio.disconnect()
        return self.summary()

    def fatal(self):
        bad = [e for e in self.errors if e.get("code") not in ("stale",)]
        return bad[0] if bad else None

    def ready(self, acted_on):
        st = self.state
        if st is None:
            return False
        if self.over(st):
            return True
        return st["version"] > acted_on and st["seat"] in st["waiting_for"] and bool(st["legal_actions"])

    @staticmethod
    def over(state):
        return state["status"] != "active" or state["view"]["result"] is not None

    def summary(self):
        st = self.state or {}
        ms = sorted(x * 1000 for x in self.latencies)
        return {"game": self.game_id, "seat": st.get("seat"), "version": st.get("version"),
                "status": st.get("status"), "result": (st.get("view") or {}).get("result"),
                "actions": self.actions, "latency_ms": figures(ms),
                "decision_ms": figures(sorted(x * 1000 for x in self.decisions))}


def figures(ms):
    if not ms:
        return None
    return {"n": len(ms), "median": round(statistics.median(ms), 2),
            "p95": round(ms[min(len(ms) - 1, int(0.95 * len(ms)))], 2), "max": round(ms[-1], 2)}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m webapp.tools.bot", description="Play Brigade over Socket.IO.")
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:5000")
    parser.add_argument("--name", required=True)
    parser.add_argument("--password", required=True)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", type=int, help="join this game")
    which.add_argument("--cpu", action="store_true", help="start a game against the CPU")
    parser.add_argument("--policy", choices=sorted(PLAYERS), default="baseline")
    parser.add_argument("--deck", type=int, help="deck id for --cpu (default: the first offered)")
    parser.add_argument("--difficulty", choices=("easy", "normal", "hard"), help="the CPU's level for --cpu")
    parser.add_argument("--seed", type=int, help="the policy's random seed")
    parser.add_argument("--register", action="store_true", help="register the account first if it is new")
    parser.add_argument("--max-actions", type=int, help="stop after this many actions (the game goes on)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for a decision")
    parser.add_argument("--polling", action="store_true", help="HTTP long-polling instead of WebSocket")
    args = parser.parse_args(argv)
    url = args.url.rstrip("/")
    http = requests.Session()
    try:
        log_in(http, url, args.name, args.password, register=args.register)
        game_id = start_cpu_game(http, url, args.deck, args.difficulty) if args.cpu else args.game
        print(json.dumps({"game": game_id}), flush=True)
        bot = Bot(url, http.cookies.get_dict(), game_id, args.policy, args.seed, args.timeout,
                  args.max_actions, transports=("polling",) if args.polling else ("websocket",))
        summary = bot.run()
    except (BotError, requests.RequestException, socketio.exceptions.SocketIOError) as exc:
        print(f"bot: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
