"""Action-to-update latency of a live game, alone and while other CPU games keep the CPU thinking.

    python bench/play_latency.py [--games 2] [--busy 1] [--cpu-delay 0] [--busy-difficulty normal|hard]

Starts `python -m webapp` on a free port with a fresh instance folder, then plays `--games` games
with the bot client (baseline policy, over WebSocket) against the CPU: first alone, then again
while `--busy` other bots (separate processes) play their own CPU games at the same time (with CPU_DELAY = 0 the
server's CPU tasks then think all the time). With `--busy-difficulty hard` the other games are against
the Hard CPU, which thinks flat out in the server's worker processes (CPU_HARD_SECONDS per decision).
The latency is the bot's: from sending an action to receiving the state that answers it. Prints both
figures (median, p95, p99) and their ratios (the issue asks p99 within 1.5×), and the server's and its workers' resident memory.
"""

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import requests  # noqa: E402

from webapp.tools.bot import Bot, log_in, start_cpu_game  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PASSWORD = "correct horse battery"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(instance, cpu_delay):
    os.makedirs(instance, exist_ok=True)
    with open(os.path.join(instance, "config.py"), "w") as f:
        f.write(f"CPU_DELAY = {cpu_delay!r}\nREGISTER_LIMIT_ADDRESS = 10_000\n")  # every player is on 127.0.0.1
    port = free_port()
    env = dict(os.environ, BRIGADE_INSTANCE_PATH=instance)
    env.pop("BRIGADE_DB", None)
    proc = subprocess.Popen([sys.executable, "-m", "webapp", "--port", str(port)], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            requests.get(f"{url}/healthz", timeout=1)
            return proc, url
        except requests.RequestException:
            if time.monotonic() > deadline:
                proc.kill()
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)


def player(url, name):
    http = requests.Session()
    log_in(http, url, name, PASSWORD, register=True)
    return http


def play_game(url, http, seed, latencies):
    game_id = start_cpu_game(http, url)
    bot = Bot(url, http.cookies.get_dict(), game_id, seed=seed, timeout=120)
    bot.run()
    latencies.extend(x * 1000 for x in bot.latencies)
    return bot


def resident_mb(pid):
    """{"server": MB, "workers": MB of its child processes (the CPU's worker pool)} from /proc."""
    def rss(p):
        try:
            with open(f"/proc/{p}/status") as f:
                return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
        except (OSError, StopIteration):
            return 0.0

    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            children = [int(c) for c in f.read().split()]
    except OSError:
        children = []
    return {"server": round(rss(pid), 1), "workers": round(sum(rss(c) for c in children), 1),
            "worker_count": len(children)}


def figures(ms):
    ms = sorted(ms)
    return {"n": len(ms), "median": round(statistics.median(ms), 2),
            "p95": round(ms[int(0.95 * (len(ms) - 1))], 2), "p99": round(ms[int(0.99 * (len(ms) - 1))], 2),
            "max": round(ms[-1], 2)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="measured games in each condition")
    ap.add_argument("--busy", type=int, default=1, help="other CPU games played at the same time")
    ap.add_argument("--cpu-delay", type=float, default=0.0)
    ap.add_argument("--busy-difficulty", choices=("easy", "normal", "hard"), default="normal")
    args = ap.parse_args()
    instance = tempfile.mkdtemp(prefix="brigade-bench-")
    proc, url = start_server(instance, args.cpu_delay)
    try:
        measured = player(url, "measured")
        alone = []
        for g in range(args.games):
            play_game(url, measured, g, alone)

        stop = threading.Event()

        def keep_busy(k):  # another process, so its bot does not share this one's interpreter
            seed = 1000 * (k + 1)
            while not stop.is_set():
                subprocess.run([sys.executable, "-m", "webapp.tools.bot", "--url", url, "--name", f"busy{k}",
                                "--password", PASSWORD, "--register", "--cpu", "--seed", str(seed),
                                "--difficulty", args.busy_difficulty],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                seed += 1

        threads = [threading.Thread(target=keep_busy, args=(k,), daemon=True) for k in range(args.busy)]
        for t in threads:
            t.start()
        time.sleep(3.0)  # let the other games get going
        loaded = []
        for g in range(args.games):
            play_game(url, measured, 100 + g, loaded)
        memory = resident_mb(proc.pid)
        stop.set()
        a, b = figures(alone), figures(loaded)
        print(json.dumps({"alone_ms": a, "with_busy_cpu_games_ms": b, "busy_games": args.busy,
                          "busy_difficulty": args.busy_difficulty, "resident_mb": memory,
                          "cpu_delay": args.cpu_delay, "median_ratio": round(b["median"] / a["median"], 2),
                          "p95_ratio": round(b["p95"] / a["p95"], 2), "p99_ratio": round(b["p99"] / a["p99"], 2),
                          "load_average": [round(x, 2) for x in os.getloadavg()]}, indent=1))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(instance, ignore_errors=True)


if __name__ == "__main__":
    main()
