"""The server's cost of one Socket.IO round trip that does no game work: the floor under every action.

    python bench/socket_floor.py --clients 20 --seconds 20

Starts `python -m webapp` like bench/online_load.py (fresh instance folder), connects N logged-in
python-socketio clients over WebSocket, and has each send an unknown event at ~15 a second (under
the 20/s limit); the server answers each with an ``error`` (``bad_request``) after the same steps
as an action: Engine.IO and WebSocket framing, Flask-SocketIO's request context and session, the
handlers' socket check and rate limit, and one emit. Prints events/s, the round trip's p50/p99 and
the server process's CPU per event (from /proc), to compare with the CPU per action of
bench/online_load.py: the difference is the game's own work (rules, SQLite, the states).
"""

import argparse
import json
import os
import statistics
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from online_load import make_users, proc_cpu_seconds, proc_memory, session_cookie, start_server  # noqa: E402


def client(url, cookies, seconds, rate, start_at, out):
    import socketio

    sio = socketio.Client(reconnection=False)
    answered = threading.Event()
    sent_at = [0.0]
    times = []

    @sio.on("error")
    def on_error(payload):
        times.append(time.perf_counter() - sent_at[0])
        answered.set()

    cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
    sio.connect(url, headers={"Cookie": cookie}, transports=["websocket"], wait_timeout=10)
    time.sleep(max(0.0, start_at - time.time()))
    end = time.monotonic() + seconds
    gap = 1.0 / rate
    while time.monotonic() < end:
        answered.clear()
        sent_at[0] = time.perf_counter()
        sio.emit("ping_floor", {})
        answered.wait(10)
        rest = gap - (time.perf_counter() - sent_at[0])
        if rest > 0:
            time.sleep(rest)
    sio.disconnect()
    out.extend(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=15.0, help="events a second per client")
    parser.add_argument("--cpu-split", action="store_true",
                        help="time the server's parts of an event (bench/cpuprobe.py; adds a little CPU)")
    args = parser.parse_args(argv)
    import shutil
    import tempfile

    import socketio.packet
    socketio.packet.Packet.json = json  # the clients decode with the json module (see online_load.py)

    instance = tempfile.mkdtemp(prefix="brigade-floor-")
    proc, url = start_server(instance, {"CPU_DELAY": 0.0}, cpu_split=args.cpu_split)
    try:
        with open(os.path.join(instance, "secret_key")) as f:
            secret = f.read().strip()
        users, _ = make_users(os.path.join(instance, "brigade.db"), args.clients)
        out = []
        start_at = time.time() + 2.0
        threads = [threading.Thread(target=client, args=(url, session_cookie(secret, u["id"])[0], args.seconds,
                                                        args.rate, start_at, out), daemon=True) for u in users]
        for t in threads:
            t.start()
        time.sleep(max(0.0, start_at - time.time()))
        cpu0, t0 = proc_cpu_seconds(pid := proc.pid), time.monotonic()
        for t in threads:
            t.join()
        cpu, wall = proc_cpu_seconds(pid) - cpu0, time.monotonic() - t0
        lat = sorted(x * 1000 for x in out)
        summary = {"clients": args.clients, "events": len(lat), "events_per_s": round(len(lat) / wall, 1),
                   "round_trip_ms": {"p50": round(statistics.median(lat), 2), "p99": round(lat[int(0.99 * len(lat))], 2)},
                   "server_cpu_ms_per_event": round(1000 * cpu / len(lat), 3),
                   "server_rss_mb": round(proc_memory(pid)[0], 1)}
        if args.cpu_split:  # {part: [calls, server CPU ms per event]}, from the probe's last totals
            from cpuprobe import read
            summary["cpu_split_ms_per_event"] = read(instance, lambda data: data["events"])
        print(json.dumps(summary, indent=1))
    finally:
        proc.terminate()
        proc.wait(timeout=15)
        shutil.rmtree(instance, ignore_errors=True)


if __name__ == "__main__":
    main()
