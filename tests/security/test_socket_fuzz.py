"""Socket fuzzing (issue 12): several real python-socketio clients send random events and payloads
to a real server process (its default serving mode, gevent): the protocol's events with valid-ish,
wrong-typed, huge and garbage payloads, Socket.IO's reserved names, unknown names, raw packets that
are not JSON, messages over the size limit. Meanwhile a bot plays a CPU game of its own.

Checks: the server stays up and answers /healthz, the bot's game advances, the database passes
``PRAGMA integrity_check``, no traceback is logged, and no payload a client received holds hidden
information (the play tests' leak oracle, tests/play/helpers.py ``assert_no_leak``, on every state;
no seed in anything).

BRIGADE_FUZZ_EVENTS sets the number of events (20,000 by default, the CI run; 100,000 for a long
run: CI runs the ``slow`` marker too, so the long run is opt-in)."""

import json
import os
import random
import threading
import time

import pytest
import requests
import socketio

from tests.online.helpers import close_all
from tests.play.helpers import assert_no_leak
from webapp.game import play
from webapp.tools.bot import Bot
from webapp.store import connect

from .socketkit import Client, ConfiguredServer, invite_and_join, start_cpu_game, user

pytestmark = pytest.mark.slow

EVENTS = int(os.environ.get("BRIGADE_FUZZ_EVENTS", "20000"))
FUZZERS = 4
NAMES = ["join", "action", "leave", "claim", "emote", "rematch"]
ODD_NAMES = ["connect", "disconnect", "connect_error", "disconnecting", "newListener", "removeListener", "*",
             "message", "json", "state", "error", "presence", "", " join", "JOIN", "\x00refused", "é" * 30]
RAW = ['2["join",NaN]', '2["action",{"game":1,"version":Infinity,"action":{"type":"x"}}]', '2["join","\\ud800"]',
       '2["join",1e400]', '2["join",' + "9" * 500 + "]", "2[]", "2{}", '2"x"', "2[7]", '2[{"a":1}]', "2x", "x", "",
       "0", "0{}", '0{"token":NaN}', "1", "3", "31[]", "4", "5", "51-[\"join\",{\"_placeholder\":true,\"num\":0}]",
       "6", "9", "2" + "[" * 3000 + "]" * 3000, '2/admin,["join",{}]', "2999999999999999999999[\"join\"]"]


class Fuzzer:
    def __init__(self, server, http, rng, games, own):
        self.server, self.http, self.rng, self.games, self.own = server, http, rng, games, own
        self.client = Client(server, http)
        self.clients = [self.client]
        self.sent = self.reconnects = 0

    def value(self, depth=0):
        r = self.rng
        kind = r.randrange(14 if depth < 3 else 9)
        if kind == 0:
            return None
        if kind == 1:
            return r.choice([True, False])
        if kind == 2:
            return r.randint(-5, 50)
        if kind == 3:
            return r.choice([2**53, -2**63, 2**64, 10**r.randint(17, 60), -(10**30)])
        if kind == 4:
            return r.choice([0.5, -1e308, 1e-320, float("nan"), float("inf")])
        if kind == 5:
            return "".join(chr(r.randrange(32, 0x2FFF)) for _ in range(r.randrange(0, 20)))
        if kind == 6:
            return r.choice(["\ud800", "p0c1", "p1c5", "H0", "L1", "resign", "end_turn", "greet", "x" * 5000])
        if kind == 7:
            return r.choice(self.games)
        if kind == 8:
            return "🂡" * r.randrange(1, 50)
        if kind in (9, 10):
            return [self.value(depth + 1) for _ in range(r.randrange(0, 6))]
        return {self.key(): self.value(depth + 1) for _ in range(r.randrange(0, 6))}

    def key(self):
        return self.rng.choice(["game", "version", "action", "emote", "type", "unit", "units", "to", "card",
                                "x" * 70, "", "__proto__", "constructor"])

    def payload(self, name):
        r = self.rng
        roll = r.random()
        game = r.choice(self.own) if roll < 0.6 else r.choice(self.games) if roll < 0.9 else self.value()
        latest = self.client.latest(game) if isinstance(game, int) and not isinstance(game, bool) else None
        out = {"game": game}
        if name == "action" or r.random() < 0.1:
            if latest and latest.get("legal_actions") and r.random() < 0.6:
                out["action"] = dict(r.choice(latest["legal_actions"]))
            else:
                out["action"] = self.value() if r.random() < 0.5 else {"type": r.choice(["resign", "end_turn", "march",
                                                                                          "summon", "x"]),
                                                                         self.key(): self.value()}
            out["version"] = latest["version"] if latest and r.random() < 0.7 else self.value()
        if name == "emote" or r.random() < 0.05:
            out["emote"] = r.choice(["greet", "wow", "hurry", "nope", ""]) if r.random() < 0.8 else self.value()
        if r.random() < 0.15:
            out[self.key()] = self.value()
        if r.random() < 0.1:
            out.pop(r.choice(list(out)), None)
        return out if r.random() < 0.9 else self.value()

    def ensure(self):
        if self.client.sio.connected:
            return
        self.client.close()
        deadline = time.monotonic() + 60
        while True:  # the server may not have counted the old socket out yet (SOCKETS_PER_USER): try again
            try:
                self.client = Client(self.server, self.http)
                break
            except socketio.exceptions.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.5)
        self.clients.append(self.client)
        self.reconnects += 1

    def step(self):
        r = self.rng
        self.ensure()
        roll = r.random()
        try:
            if roll < 0.06:
                self.client.raw(r.choice(RAW))
            elif roll < 0.065:
                self.client.sio.emit(r.choice(NAMES), {"game": self.games[0], "pad": "x" * 70_000})  # over 64 KiB
                deadline = time.monotonic() + 3  # the server closes the connection: wait for it, then connect again
                while self.client.sio.connected and time.monotonic() < deadline:
                    time.sleep(0.02)
            elif roll < 0.15:
                name = r.choice(ODD_NAMES) if r.random() < 0.7 else "".join(chr(r.randrange(33, 127))
                                                                              for _ in range(r.randrange(1, 300)))
                self.client.sio.emit(name, self.payload("join"))
            elif roll < 0.18:
                self.client.sio.emit(r.choice(NAMES), (self.payload("join"), self.value()))  # two arguments
            else:
                name = r.choice(NAMES)
                self.client.sio.emit(name, self.payload(name))
        except (socketio.exceptions.SocketIOError, OSError, ValueError):
            pass  # closed under us (too big, or flooding): counted, then connected again
        self.sent += 1
        if self.sent % 50 == 0:  # let the answers catch up a little, as a client that reads does
            time.sleep(0.02)

    def received(self):
        return [(n, p) for c in self.clients for n, p in c.got]

    def close(self):
        close_all(self.clients)


@pytest.fixture
def server(tmp_path):
    srv = ConfiguredServer(tmp_path / "instance", {"RATE_LIMIT": 5000, "ONLINE_CLOCK_MIN_MINUTES": 0,
                                                   "OUTBOX_LIMIT": 256})
    srv.start()
    yield srv
    srv.stop()


def test_random_events_from_several_clients_break_nothing_and_leak_nothing(server):
    rng = random.Random(int(os.environ.get("BRIGADE_FUZZ_SEED", "12")))
    players = [user(server, "fuzz") for _ in range(FUZZERS)]
    online_game = invite_and_join(server, players[0], players[1], clock="60")
    cpu_games = [start_cpu_game(p, server.url) for p in players]
    games = [online_game, *cpu_games]
    own = [[online_game, cpu_games[0]], [online_game, cpu_games[1]], *[[g] for g in cpu_games[2:]]]
    fuzzers = [Fuzzer(server, p, random.Random(rng.random()), games, own[n]) for n, p in enumerate(players)]

    honest = user(server, "honest")
    honest_game = start_cpu_game(honest, server.url)
    summary = {}

    def play_honestly():
        summary.update(Bot(server.url, honest.cookies.get_dict(), honest_game, seed=1, max_actions=25,
                           timeout=120).run())

    per_fuzzer = EVENTS // FUZZERS
    threads = [threading.Thread(target=lambda f=f: [f.step() for _ in range(per_fuzzer)], daemon=True)
               for f in fuzzers]
    bot = threading.Thread(target=play_honestly, daemon=True)
    started = time.monotonic()
    bot.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(1800)
    bot.join(300)
    elapsed = time.monotonic() - started
    count = -1
    while count != sum(len(f.received()) for f in fuzzers):  # until the answers in flight are in
        count = sum(len(f.received()) for f in fuzzers)
        time.sleep(1.0)
    sent = sum(f.sent for f in fuzzers)
    received = [m for f in fuzzers for m in f.received()]
    kinds = {}
    for name, payload in received:
        key = name if name != "error" else f"error:{payload.get('code')}"
        kinds[key] = kinds.get(key, 0) + 1
    print(f"\n{sent} events in {elapsed:.0f} s from {FUZZERS} clients; {sum(f.reconnects for f in fuzzers)} "
          f"reconnections; received {kinds}; the honest bot: {summary.get('actions')} actions")

    assert sent >= EVENTS - FUZZERS and all(not t.is_alive() for t in threads)
    assert requests.get(f"{server.url}/healthz", timeout=5).json() == {"ok": True}
    assert summary.get("actions") == 25 or summary.get("status") == "finished", summary
    assert kinds.get("error:internal", 0) == 0 and kinds.get("error:bad_request", 0) > 0
    log = server.log_text()
    assert "Traceback" not in log, log[log.index("Traceback") - 500:][:4000]

    db = connect(server.instance / "brigade.db")
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        seeds = [str(play.load_row(db, g)["seed"]) for g in [*games, honest_game]]
        checked = 0
        for game_id in games:
            states = [p for n, p in received if n == "state" and p.get("game") == game_id]
            checked += assert_no_leak(db, game_id, states)
        for name, payload in received:
            text = json.dumps(payload)
            assert not any(seed in text for seed in seeds), (name, text[:300])
        print(f"{checked} states checked by the leak oracle; versions now "
              f"{[play.load_row(db, g)['version'] for g in games]}")
        assert checked == sum(1 for n, p in received if n == "state" and p.get("game") in games) > 0
    finally:
        db.close()
    close_all(fuzzers)
