"""The server's own work per online action, without the network: the socket handlers in one process.

    python bench/handler_path.py --games 20 [--seed 1] 2>/dev/null

Makes an app on a fresh instance folder (a real SQLite file), two users and online games between
them (an invitation joined by the friend, both with the loaner deck), connects each seat with
Flask-SocketIO's test client asking for updates as browsers do, and plays the games to their end
with uniformly random legal actions read from what the server sent each seat (never resigning; a
compact entry gives a random one of its choices). Each action is the
``action`` event through Flask-SocketIO's dispatch, the Flask request context, the handlers'
checks, the rules, the SQLite write and both seats' updates (views, legal actions, log, diff) —
everything bench/online_load.py's server does per action except Engine.IO, WebSocket framing and
the sockets. The test client encodes every packet the server sends and decodes it again (its
stand-in for the wire), which is counted too: the figure is an upper bound of that part.

The host log's line per event goes to stderr as a server's does (send it to a file or to /dev/null,
as a server's output would be, not to a terminal). Prints the CPU time (``time.process_time``) per
action: median, p90, p99 and the mean. Compare it with bench/online_load.py's server CPU per action:
the difference is what the transport (python-engineio, simple-websocket, gevent's loop and the
socket calls) costs on top, and with bench/socket_floor.py's cost of an event that does nothing.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class Table:
    """One game's two test clients (seat 0, seat 1) and what each was sent: version, legal actions,
    whom the game waits for, its status."""

    def __init__(self, game_id, seats):
        self.game_id, self.seats = game_id, seats
        self.legal, self.version, self.waiting, self.status = [None, None], [0, 0], [[], []], "active"
        for c in seats:
            c.emit("join", {"game": game_id, "updates": True})
        self.read()

    def read(self):
        for k, client in enumerate(self.seats):
            for m in client.get_received():
                name, payload = m["name"], (m["args"][0] if m["args"] else None)
                if name == "error":
                    raise SystemExit(f"the server refused an action: {payload}")
                if name in ("state", "update") and payload.get("game") == self.game_id \
                        and payload["version"] >= self.version[k]:
                    self.version[k] = payload["version"]
                    if "legal_actions" in payload:
                        self.legal[k] = payload["legal_actions"]
                    self.status = payload["status"]
                    self.waiting[k] = payload.get("waiting_for") or []

    def to_act(self):
        k = next((s for s in (0, 1) if s in self.waiting[s] and self.legal[s]), None)
        if k is None:
            raise SystemExit(f"game {self.game_id}: nobody to act at version {self.version}")
        return k

    def close(self):
        for c in self.seats:
            c.disconnect()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-actions", type=int, default=600, help="a game still going after this many is left")
    args = parser.parse_args(argv)

    from webapp import create_app
    from webapp.accounts.passwords import hash_password
    from webapp.engine.choices import random_action_of
    from webapp.game import invitations
    from webapp.store import connect, create_user, get_loaner

    folder = tempfile.mkdtemp(prefix="brigade-handler-")
    app = create_app({"INSTANCE_PATH": folder, "CPU_DELAY": 0, "RATE_LIMIT": 1_000_000, "STATES_PER_SECOND": 1_000_000})
    socketio = app.extensions["socketio"]
    db = connect(app.config["DATABASE"])
    secret = hash_password("correct horse battery staple")
    alice, bob = (create_user(db, name, secret) for name in ("alice", "bob"))
    loaner = get_loaner(db, "princes-brigade")["id"]

    def client_of(user):
        http = app.test_client()
        with http.session_transaction() as sess:
            sess["user_id"] = user["id"]
            sess["csrf"] = "bench"
        return socketio.test_client(app, flask_test_client=http)

    rng = random.Random(args.seed)
    times, finished = [], 0
    for n in range(args.games):
        game_id, code = invitations.create_invitation(db, alice, loaner, 60 * 60_000)
        row = invitations.join(db, code, bob, loaner)
        app.extensions["brigade_online"].track(db, row)
        table = Table(game_id, [client_of(alice), client_of(bob)])
        for _ in range(args.max_actions):
            if table.status != "active":
                break
            k = table.to_act()
            entries = [e for e in table.legal[k] if e.get("type") != "resign"] or table.legal[k]  # play, don't give up
            action = random_action_of(rng.choice(entries), rng)
            begun = time.process_time()
            table.seats[k].emit("action", {"game": game_id, "action": action, "version": table.version[k]})
            times.append(time.process_time() - begun)
            table.read()
        finished += table.status != "active"
        table.close()
        print(f"game {n + 1}/{args.games}: {'over' if table.status != 'active' else 'left'} at version "
              f"{table.version[0]}, {len(times)} actions so far, {1e3 * sum(times) / len(times):.3f} ms CPU per action",
              flush=True)
    app.extensions["brigade_online"].stop()
    ms = [t * 1000 for t in times]
    print(f"games {args.games} ({finished} finished), actions {len(times)}")
    print(f"CPU per action (ms): median {statistics.median(ms):.3f}, p90 {percentile(ms, 0.9):.3f}, "
          f"p99 {percentile(ms, 0.99):.3f}, mean {statistics.fmean(ms):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
