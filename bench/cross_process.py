"""The cost of a push that crosses processes: an action's state reaching the opponent on another process.

    python bench/cross_process.py --games 3

Three layouts, each playing ``--games`` online games to their end with two python-socketio clients
(baseline policy on both seats, one action at a time, nothing else running on the servers):

* ``one process``: one server without Redis, both players on it (the default deployment);
* ``two, same``: two server processes sharing a Redis (``MESSAGE_QUEUE``, docs/deploy.md), both
  players on the first: every emit still goes through Redis to the other process (which has no one
  to give it to);
* ``two, across``: the same two processes, seat 0 on the first and seat 1 on the second: the
  opponent's state of every action crossed Redis.

For each action: the mover's latency (from sending it to the mover's own new state) and the
opponent's (from the sending to the opponent's new state), p50/p90/p99 in ms, and the servers'
CPU per action (all processes together, and Redis's). A figure, not a test: printed, never asserted.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from online_load import cpu_of, make_users, percentile, proc_cpu_seconds, start_pair, start_redis, start_server  # noqa: E402


class Seat:
    """One player's python-socketio client: when each version's state arrived, and the latest state."""

    def __init__(self, url, cookies, game_id):
        import socketio

        self.game_id = game_id
        self.arrived = {}
        self.latest = None
        self.cond = threading.Condition()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("state", self.on_state)
        cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.sio.connect(url, headers={"Cookie": cookie}, transports=["websocket"], wait_timeout=10)
        self.sio.emit("join", {"game": game_id})
        self.wait_for(0)

    def on_state(self, payload):
        now = time.perf_counter()
        with self.cond:
            if payload["game"] == self.game_id:
                self.arrived.setdefault(payload["version"], now)
                if self.latest is None or payload["version"] >= self.latest["version"]:
                    self.latest = payload
                self.cond.notify_all()

    def wait_for(self, version, timeout=30):
        with self.cond:
            if not self.cond.wait_for(lambda: self.latest is not None and self.latest["version"] >= version, timeout):
                raise RuntimeError(f"no state of version {version} within {timeout} s")
            return self.latest


def play(seats, policies):
    """Play the game to its end one action at a time; return [(mover ms, opponent ms)] per action."""
    from webapp.tools.bot import SentView

    out = []
    while True:
        state = seats[0].latest
        if state["status"] != "active":
            return out
        mover = min(state["waiting_for"])
        me, other = seats[mover], seats[1 - mover]
        mine = me.wait_for(state["version"])
        action = policies[mover].choose(SentView(mine), mover)
        version = mine["version"]
        sent = time.perf_counter()
        me.sio.emit("action", {"game": me.game_id, "action": action, "version": version})
        me.wait_for(version + 1)
        other.wait_for(version + 1)
        out.append(((me.arrived[version + 1] - sent) * 1000, (other.arrived[version + 1] - sent) * 1000))


def layout(name, urls, instance, games, pids, redis_pid):
    from webapp.ai import BaselinePlayer

    with open(os.path.join(instance, "secret_key")) as f:
        secret = f.read().strip()
    users, deck = make_users(os.path.join(instance, "brigade.db"), 2 * games)
    pairs = [start_pair(urls[0], secret, users[2 * i], users[2 * i + 1], deck, "60") for i in range(games)]
    timings = []
    cpu0 = cpu_of(pids)
    redis0 = proc_cpu_seconds(redis_pid) if redis_pid else 0.0
    for i, (game_id, ca, cb) in enumerate(pairs):
        seats = [Seat(urls[0], ca, game_id), Seat(urls[-1], cb, game_id)]
        try:
            timings += play(seats, [BaselinePlayer(seed=2 * i), BaselinePlayer(seed=2 * i + 1)])
        finally:
            for s in seats:
                s.sio.disconnect()
    cpu = cpu_of(pids) - cpu0
    redis_cpu = (proc_cpu_seconds(redis_pid) - redis0) if redis_pid else None
    mover = sorted(m for m, _ in timings)
    other = sorted(o for _, o in timings)

    def figures(values):
        return {q: round(percentile(values, p), 2) for q, p in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99))}

    return {"layout": name, "actions": len(timings), "mover_ms": figures(mover), "opponent_ms": figures(other),
            "server_cpu_ms_per_action": round(1000 * cpu / len(timings), 3),
            "redis_cpu_ms_per_action": round(1000 * redis_cpu / len(timings), 3) if redis_cpu is not None else None}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games played in each layout")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                        help="an environment variable for the servers, e.g. BRIGADE_SERVER=threading")
    args = parser.parse_args(argv)
    import socketio.packet
    socketio.packet.Packet.json = json  # the clients decode with the json module (see online_load.py)

    config = {"CPU_DELAY": 0.0, "ONLINE_CLOCK_MAX_MINUTES": 600, "RATE_LIMIT": 1000}
    made, results = [], []
    single = tempfile.mkdtemp(prefix="brigade-xproc-one-")
    shared = tempfile.mkdtemp(prefix="brigade-xproc-two-")
    try:
        proc, url = start_server(single, config, args.server_env)
        made.append(proc)
        results.append(layout("one process", [url], single, args.games, [proc.pid], None))
        print(json.dumps(results[-1]), flush=True)
        proc.terminate()

        redis_proc, queue = start_redis(shared)
        made.append(redis_proc)
        procs, urls = [], []
        for k in range(2):
            proc, url = start_server(shared, dict(config, MESSAGE_QUEUE=queue), args.server_env, log_name=f"server{k}.log")
            made.append(proc)
            procs.append(proc)
            urls.append(url)
        pids = [p.pid for p in procs]
        results.append(layout("two, same", [urls[0]], shared, args.games, pids, redis_proc.pid))
        print(json.dumps(results[-1]), flush=True)
        results.append(layout("two, across", urls, shared, args.games, pids, redis_proc.pid))
        print(json.dumps(results[-1]), flush=True)
    finally:
        for proc in made:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(single, ignore_errors=True)
        shutil.rmtree(shared, ignore_errors=True)
    print()
    print(f"{'layout':<14} {'actions':>7}  {'mover p50/p90/p99 ms':>22}  {'opponent p50/p90/p99 ms':>24}  "
          f"{'server CPU/action':>17}  {'Redis CPU/action':>16}")
    for r in results:
        m, o = r["mover_ms"], r["opponent_ms"]
        redis_cpu = "-" if r["redis_cpu_ms_per_action"] is None else f"{r['redis_cpu_ms_per_action']:.3f} ms"
        print(f"{r['layout']:<14} {r['actions']:>7}  {m['p50']:>6} / {m['p90']:>6} / {m['p99']:>6}  "
              f"{o['p50']:>7} / {o['p90']:>6} / {o['p99']:>6}  {r['server_cpu_ms_per_action']:>14.3f} ms  {redis_cpu:>16}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
