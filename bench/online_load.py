"""Load run of online games: N pairs of bot clients play full games at once against one server.

    python bench/online_load.py --pairs 10
    python bench/online_load.py --pairs 50 --client-procs 2
    python bench/online_load.py --pairs 50 --processes 2     # two server processes and a Redis
    python bench/online_load.py --pairs 50 --compare REF     # REF's server and this tree's, alternating
    python bench/online_load.py --pairs 50 --cpu-split       # and the server's CPU per part of an action

Starts `python -m webapp` on a free port with a fresh instance folder (its own database), makes
2N users, and for each pair invites and joins over HTTP (the lobby's forms, as a browser does:
/lobby/invite, /join/<code>). Then every player connects its own python-socketio client over
WebSocket (webapp.tools.bot.Bot, one thread each, paced under the server's 20 events/s) and all N
games are played at once to their end, with the baseline policy on both seats by default.

The sessions are signed with the instance's secret key (what a log-in sets: the user id and a CSRF
token), so 2N scrypt log-ins do not load the server before the run; everything after that goes
through the server like a browser's traffic.

Prints progress lines every few seconds, then: games completed, actions/s, p50/p99 of the
action-to-update latency the clients measured (from sending an action to the state that answers
it), errors, and the server process's resident memory and CPU per action (read from /proc/<pid>/stat
and /proc/<pid>/status; the CPU is the whole process's: rules, SQLite commits, building and sending
both players' states, socket I/O, idle ping/pong), counted from the start (after every client
connected and joined), and the bytes the clients received per action (Socket.IO event packets as on
the wire). The clients run on the same machine: the server is pinned to one core and the client
processes to the others where there are two or more (--server-cpus, --client-cpus, --client-procs);
they join asking for updates as browsers do (--no-updates: whole states). See docs/deploy.md.

With ``--processes N`` it starts a redis-server of its own (Debian's, on a free port) and N server
processes on the one instance folder with ``MESSAGE_QUEUE`` set (docs/deploy.md "Several
processes"); seat 0's clients talk to the first process and seat 1's to the second, so every state
the opponent receives crossed Redis. CPU and memory are then the processes' sums.

With ``--cpu-split`` the server runs with bench/cpuprobe.py, which times the parts of an action
(the game's work, the write, the states pushed, the request context, the writes…) with
``time.thread_time``; the summary gains ``cpu_split_ms_per_action`` ({part: [calls, ms per action]}).

With ``--compare REF`` it exports REF's server (``git archive``) and runs the same bench against
that server and this tree's in turn, ``--rounds`` times each (default 3), printing one line per run
and the medians: on a shared host the load moves during a run, and alternating exposes both sides
to it alike.
"""

import argparse
import hashlib
import json
import multiprocessing
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(1, os.path.join(ROOT, "bench"))

import requests  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- the server process


def start_redis(folder):
    """A redis-server of the run's own on a free port (no saving); return (process, URL)."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("--processes needs redis-server (Debian: apt-get install redis-server)")
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", folder, "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    import redis

    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 20
    while True:
        try:
            redis.Redis.from_url(url).ping()
            return proc, url
        except redis.ConnectionError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("redis-server did not start") from None
            time.sleep(0.05)


#: ``python -c`` of a server started with the CPU probe (bench/cpuprobe.py, ``--cpu-split``).
PROBED = ("import sys; sys.path.insert(0, {bench!r}); import cpuprobe; cpuprobe.install(); "
          "import runpy; runpy.run_module('webapp', run_name='__main__', alter_sys=True)")


def start_server(instance, config, extra_env=(), log_name="server.log", cpus=None, root=ROOT, cpu_split=False):
    os.makedirs(instance, exist_ok=True)
    with open(os.path.join(instance, "config.py"), "w") as f:
        # Every player registers and plays from 127.0.0.1: lift the per-address limits on accounts,
        # log-ins, sockets and socket events (docs/security.md), which a crowd behind one address meets.
        lifted = {"REGISTER_LIMIT_ADDRESS": 10_000, "LOGIN_LIMIT_ADDRESS": 10_000, "SOCKETS_PER_ADDRESS": 100_000,
                  "RATE_LIMIT_ADDRESS": 1_000_000}
        for key, value in dict(lifted, **config).items():
            f.write(f"{key} = {value!r}\n")
    port = free_port()
    env = dict(os.environ, BRIGADE_INSTANCE_PATH=instance)
    env.pop("BRIGADE_DB", None)
    env.update(kv.split("=", 1) for kv in extra_env)
    if cpu_split:  # the probe starts the server itself: without this, ``python -m webapp`` starts again
        env.setdefault("BRIGADE_SERVER", "gevent")
    with open(os.path.join(instance, log_name), "w") as log:  # the server keeps its own copy of the file
        # ``root``: the tree whose webapp runs (the folder ``python -m`` starts in comes first on sys.path)
        start = ["-c", PROBED.format(bench=os.path.join(ROOT, "bench"))] if cpu_split else ["-m", "webapp"]
        proc = subprocess.Popen([sys.executable, *start, "--port", str(port)], cwd=root, env=env,
                                stdout=log, stderr=subprocess.STDOUT,
                                preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(f"{url}/healthz", timeout=1).status_code == 200:
                return proc, url
        except requests.RequestException:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise SystemExit("the server did not start; see " + os.path.join(instance, log_name))
        time.sleep(0.1)


def proc_cpu_seconds(pid, split=False):
    """utime + stime of the process, in seconds (/proc/<pid>/stat fields 14 and 15); (utime, stime) if split."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    user, system = int(fields[11]) / TICK, int(fields[12]) / TICK
    return (user, system) if split else user + system


def proc_memory(pid):
    """(VmRSS, VmHWM, Threads) of the process: resident and peak resident MB, thread count."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "Threads"):
                out[key] = int(value.split()[0])
    return out.get("VmRSS", 0) / 1024, out.get("VmHWM", 0) / 1024, out.get("Threads", 0)


# ---------------------------------------------------------------- users, sessions, games


def make_users(database, count):
    """2N users straight into the database (they never log in: see the module's docstring)."""
    from webapp.store import connect, create_user, get_loaner

    db = connect(database)
    try:
        stamp = int(time.time())
        users = [create_user(db, f"load{stamp % 100000}-{i}", "scrypt:not-a-real-hash") for i in range(count)]
        return users, get_loaner(db, "princes-brigade")["id"]
    finally:
        db.close()


def session_cookie(secret_key, user_id):
    """The signed session cookie a log-in would set (Flask's cookie session): user id and CSRF token."""
    from flask import Flask
    from flask.sessions import SecureCookieSessionInterface

    app = Flask("bench")
    app.secret_key = secret_key
    token = hashlib.sha256(f"{secret_key}:{user_id}".encode()).hexdigest()
    value = SecureCookieSessionInterface().get_signing_serializer(app).dumps({"user_id": user_id, "csrf": token})
    return {"session": value}, token


def start_pair(url, secret, inviter, friend, deck, clock_minutes):
    """Invite (inviter) and join (friend) over HTTP; return the game id."""
    a, b = requests.Session(), requests.Session()
    ca, ta = session_cookie(secret, inviter["id"])
    cb, tb = session_cookie(secret, friend["id"])
    a.cookies.update(ca)
    b.cookies.update(cb)
    answer = a.post(f"{url}/lobby/invite", data={"csrf_token": ta, "deck": deck, "clock": clock_minutes},
                    allow_redirects=False, timeout=30)
    m = re.search(r"/lobby/invite/(\d+)$", answer.headers.get("Location", ""))
    if not m:
        raise RuntimeError(f"invite failed: {answer.status_code}")
    game_id = int(m.group(1))
    page = a.get(f"{url}/lobby/invite/{game_id}", timeout=30).text
    code = re.search(r'id="invite-code">(\w+)<', page).group(1)
    answer = b.post(f"{url}/join/{code}", data={"csrf_token": tb, "deck": deck}, allow_redirects=False, timeout=30)
    if not answer.headers.get("Location", "").endswith(f"/play/{game_id}"):
        raise RuntimeError(f"join failed: {answer.status_code}")
    return game_id, ca, cb


# ---------------------------------------------------------------- the clients


def updating(Bot):
    """A Bot class whose socket joins asking for updates and makes whole states of them, as the browser's
    transport does (static/js/play-transport.js, docs/protocol.md "Updates")."""
    from webapp.sockets.updates import apply_update

    class UpdatingBot(Bot):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.sio.on("update", self._update)
            self.missed = 0
            emit = self.sio.emit

            def emit_asking_updates(event, data=None, **kw):
                if event == "join":
                    data = dict(data, updates=True)
                return emit(event, data, **kw)

            self.sio.emit = emit_asking_updates

        def _update(self, payload):
            with self.cond:
                held = self.state
            if held is not None and payload["version"] <= held["version"]:
                return
            try:
                new = apply_update(held, payload)
            except ValueError:  # a version was missed: ask for the whole state
                self.missed += 1
                self.sio.emit("join", {"game": self.game_id})
                return
            self._state(new)

    return UpdatingBot


def cpu_of(pids, split=False):
    """proc_cpu_seconds summed over the server processes."""
    each = [proc_cpu_seconds(pid, split=True) for pid in pids]
    user, system = sum(u for u, _ in each), sum(s for _, s in each)
    return (user, system) if split else user + system


def memory_of(pids):
    """proc_memory summed over the server processes."""
    each = [proc_memory(pid) for pid in pids]
    return tuple(sum(x[i] for x in each) for i in range(3))



def run_bots(url, seats, policy, timeout, results, start_at, rate=15.0, max_actions=None, updates=True):
    """Play the given seats, one thread and one python-socketio client each; put summaries on ``results``."""
    from webapp.tools.bot import Bot

    if updates:
        Bot = updating(Bot)  # noqa: N806

    def one(game_id, seat, cookies, seed):
        server = url if isinstance(url, str) else url[seat % len(url)]  # seat 0 on the first process, 1 on the second
        bot = Bot(server, cookies, game_id, policy, seed=seed, timeout=timeout, rate=rate, max_actions=max_actions)
        try:
            # connect before the start (Bot.run would connect first thing): all play from start_at on
            bot.sio.connect(bot.url, headers={"Cookie": bot.cookie}, transports=bot.transports, wait_timeout=60)
            bot.sio.connect = lambda *args, **kwargs: None
            # and join, so the seat is present from now on (a seat away on its move is claimed: with
            # --max-actions after ONLINE_AUTO_AFTER = 3 s)
            bot.sio.emit("join", {"game": game_id})
        except Exception as exc:
            results.put({"game": game_id, "seat": seat, "error": f"connect: {type(exc).__name__}: {exc}",
                         "status": None, "actions": 0, "latencies": [], "decisions_s": 0, "errors": [], "stale": 0})
            return
        delay = start_at - time.time()
        if delay > 0:
            time.sleep(delay)
        try:
            summary = bot.run()
            error = None
        except Exception as exc:  # a refused action, a lost connection, a timeout: an error of the run
            summary, error = bot.summary(), f"{type(exc).__name__}: {exc}"
        results.put({"game": game_id, "seat": seat, "error": error, "status": summary.get("status"),
                     "actions": bot.actions, "latencies": bot.latencies, "decisions_s": sum(bot.decisions),
                     "errors": [e for e in bot.errors if e.get("code") != "stale"],
                     "stale": sum(1 for e in bot.errors if e.get("code") == "stale"),
                     "missed": getattr(bot, "missed", 0)})

    threads = [threading.Thread(target=one, args=seat, daemon=True) for seat in seats]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def worker(url, seats, policy, timeout, results, start_at, rate, max_actions, cpus=None, updates=True):
    if cpus:
        os.sched_setaffinity(0, cpus)  # the clients keep off the server's core (--server-cpus)
    # The clients trust this local server: decode with the json module itself, not engineio's
    # wrapper, whose per-integer Python hook (a guard against huge numbers) was most of the clients' CPU.
    import socketio
    import socketio.packet
    socketio.packet.Packet.json = json
    received = {}  # event name -> [messages, characters]: what the server sent, as on the wire
    lock = threading.Lock()
    handle = socketio.Client._handle_eio_message

    def counting(self, data):
        if isinstance(data, str) and data[:1] == "2":  # an EVENT packet: 2["name",{...}]
            name = data[3:data.find('"', 3)] if data.startswith('2["') else "?"
            with lock:
                entry = received.setdefault(name, [0, 0])
                entry[0] += 1
                entry[1] += len(data.encode())
        return handle(self, data)

    socketio.Client._handle_eio_message = counting
    run_bots(url, seats, policy, timeout, results, start_at, rate, max_actions, updates)
    t = os.times()
    results.put({"client_cpu_s": t.user + t.system, "received": received})


# ---------------------------------------------------------------- the run


def percentile(sorted_values, q):
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def placement(server, clients):
    """(server cores, client cores) as sets (None: not pinned) from the --server-cpus/--client-cpus words."""
    allowed = sorted(os.sched_getaffinity(0))

    def cores(text):
        return {int(x) for x in text.split(",") if x.strip()}

    if server == "none":
        server_set = None
    elif server == "auto":
        server_set = {allowed[0]} if len(allowed) >= 2 else None
    else:
        server_set = cores(server)
    if clients == "none":
        client_set = None
    elif clients == "auto":
        client_set = (set(allowed) - server_set) if server_set else None
    else:
        client_set = cores(clients)
    return server_set, client_set


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=10, help="games played at once (2 clients each)")
    parser.add_argument("--policy", default="baseline", help="webapp.ai player of every seat")
    parser.add_argument("--client-procs", type=int, default=1, help="processes the client threads are spread over")
    parser.add_argument("--clock", default="60", help="each player's clock, minutes (long: no timeouts)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a client waits for its turn")
    parser.add_argument("--rate", type=float, default=15.0,
                        help="at most this many actions a second per client (15: as fast as allowed; "
                             "0.5: a player who thinks 2 s per decision)")
    parser.add_argument("--max-actions", type=int, default=None,
                        help="each client stops after this many actions (the games are then left unfinished)")
    parser.add_argument("--auto-after", type=float, default=3.0,
                        help="with --max-actions: seconds after which the server claims a game for the player whose "
                             "opponent stopped (ONLINE_AUTO_AFTER); it also counts while the crowd connects, so on a "
                             "busy host with hundreds of clients raise it (e.g. 45) or games end before they start")
    parser.add_argument("--progress", type=float, default=5.0, help="seconds between progress lines")
    parser.add_argument("--keep", action="store_true", help="keep the instance folder (database, server log)")
    parser.add_argument("--updates", action=argparse.BooleanOptionalAction, default=True,
                        help="the clients join asking for updates, as browsers do (--no-updates: whole states "
                             "only, as webapp.tools.bot and servers before updates)")
    parser.add_argument("--server-cpus", default="auto",
                        help="cores the server process is pinned to, e.g. 0 (auto: core 0 when there are two or more; "
                             "none: no pinning)")
    parser.add_argument("--client-cpus", default="auto",
                        help="cores the client processes are pinned to, e.g. 1 (auto: every core but the server's)")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes sharing the games through a Redis of the run's own (docs/deploy.md)")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                        help="an environment variable for the server, e.g. MALLOC_ARENA_MAX=2 (repeatable)")
    parser.add_argument("--compare", metavar="REF",
                        help="a git ref whose server runs side by side with this tree's: the same run alternating "
                             "between the two, --rounds times each, then the medians (a busy host moves both alike)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side with --compare")
    parser.add_argument("--cpu-split", action="store_true",
                        help="time the server's parts of an action (bench/cpuprobe.py; adds a little CPU)")
    parser.add_argument("--server-root", default=ROOT, help=argparse.SUPPRESS)  # --compare's other tree
    args = parser.parse_args(argv)
    if args.compare:
        return compare(args, argv if argv is not None else sys.argv[1:])

    instance = tempfile.mkdtemp(prefix="brigade-load-")
    config = {"CPU_DELAY": 0.0, "ONLINE_CLOCK_MAX_MINUTES": 600}
    if args.max_actions:  # a client that stopped leaves its opponent waiting: the server claims for them soon
        config.update(ONLINE_CLAIM_AFTER=1.0, ONLINE_AUTO_AFTER=args.auto_after)
    args.server_cpus, args.client_cpus = placement(args.server_cpus, args.client_cpus)
    redis_proc, procs, urls = None, [], []
    try:
        if args.processes > 1:
            redis_proc, config["MESSAGE_QUEUE"] = start_redis(instance)
        for k in range(args.processes):
            proc, url = start_server(instance, config, args.server_env, log_name=f"server{k or ''}.log",
                                     root=args.server_root, cpu_split=args.cpu_split)
            if args.server_cpus:
                for tid in os.listdir(f"/proc/{proc.pid}/task"):  # every thread it has now; later ones inherit
                    os.sched_setaffinity(int(tid), args.server_cpus)
            procs.append(proc)
            urls.append(url)
        return run(args, instance, procs, urls if len(urls) > 1 else urls[0])
    finally:
        for proc in procs + ([redis_proc] if redis_proc else []):
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if not args.keep:
            shutil.rmtree(instance, ignore_errors=True)
        else:
            print(f"instance kept at {instance}")


def run(args, instance, procs, url):
    from webapp.store import connect

    database = os.path.join(instance, "brigade.db")
    with open(os.path.join(instance, "secret_key")) as f:
        secret = f.read().strip()
    pids = [proc.pid for proc in procs]
    home = url if isinstance(url, str) else url[0]  # the lobby's forms go to the first process
    n = args.pairs
    load_before = list(os.getloadavg())
    users, deck = make_users(database, 2 * n)
    t0 = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        started = list(pool.map(lambda i: start_pair(home, secret, users[2 * i], users[2 * i + 1], deck, args.clock),
                                range(n)))
    print(f"{n} games created over HTTP in {time.monotonic() - t0:.1f} s; server pids {pids}, "
          f"RSS {memory_of(pids)[0]:.0f} MB", flush=True)

    seats = []
    for i, (game_id, ca, cb) in enumerate(started):
        seats.append((game_id, 0, ca, 2 * i))
        seats.append((game_id, 1, cb, 2 * i + 1))
    ctx = multiprocessing.get_context("fork")
    results = ctx.Queue()
    start_at = time.time() + 2.0 + 0.02 * len(seats)  # everyone connects, then all start together
    clients = [ctx.Process(target=worker, args=(url, seats[k::args.client_procs], args.policy, args.timeout,
                                              results, start_at, args.rate, args.max_actions, args.client_cpus,
                                              args.updates))
             for k in range(args.client_procs)]
    for p in clients:
        p.start()
    delay = start_at - time.time()
    if delay > 0:
        time.sleep(delay)
    cpu0, wall0 = cpu_of(pids), time.monotonic()
    split0 = cpu_of(pids, split=True)
    peak_rss = peak_threads = 0.0
    db = connect(database)
    got = []
    last_print = wall0
    ids = [g for g, _, _ in started]
    marks = ",".join("?" * len(ids))
    finished_at = None
    try:
        while sum(1 for r in got if "game" in r) < len(seats):
            while not results.empty():
                got.append(results.get())
            rss, hwm, threads = memory_of(pids)
            peak_rss, peak_threads = max(peak_rss, rss), max(peak_threads, threads)
            now = time.monotonic()
            done = db.execute(f"SELECT count(*) FROM games WHERE id IN ({marks}) AND status = 'finished'",
                              ids).fetchone()[0]
            if done == n and finished_at is None:
                finished_at = now
                cpu_end, split_end = cpu_of(pids), cpu_of(pids, split=True)
            if now - last_print >= args.progress:
                actions = db.execute(f"SELECT count(*) FROM game_actions WHERE game_id IN ({marks})", ids).fetchone()[0]
                cpu = cpu_of(pids) - cpu0
                print(f"[{now - wall0:6.1f} s] games done {done}/{n}, actions {actions} "
                      f"({actions / (now - wall0):.0f}/s), server CPU {cpu:.1f} s "
                      f"({100 * cpu / (now - wall0):.0f}%), RSS {rss:.0f} MB, threads {threads}", flush=True)
                last_print = now
            if not any(p.is_alive() for p in clients) and results.empty():
                break
            time.sleep(0.2)
        while not results.empty():
            got.append(results.get())
        for p in clients:
            p.join(timeout=60)
        while not results.empty():
            got.append(results.get())
        if finished_at is None:
            finished_at, cpu_end = time.monotonic(), cpu_of(pids)
            split_end = cpu_of(pids, split=True)
        elapsed = finished_at - wall0
        actions = db.execute(f"SELECT count(*) FROM game_actions WHERE game_id IN ({marks})", ids).fetchone()[0]
        done = db.execute(f"SELECT count(*) FROM games WHERE id IN ({marks}) AND status = 'finished'", ids).fetchone()[0]
        reasons = dict(db.execute(f"SELECT json_extract(result, '$.reason'), count(*) FROM games WHERE id IN ({marks}) "
                                  "AND status = 'finished' GROUP BY 1", ids).fetchall())
    finally:
        db.close()
    rss, hwm, threads = memory_of(pids)
    client_cpu = sum(r["client_cpu_s"] for r in got if "client_cpu_s" in r)
    received = {}
    for r in got:
        for name, (count, size) in r.get("received", {}).items():
            entry = received.setdefault(name, [0, 0])
            entry[0] += count
            entry[1] += size
    got = [r for r in got if "game" in r]  # the per-process figures were read above
    lat = sorted(x * 1000 for r in got for x in r["latencies"])
    errors = [r for r in got if r["error"] or r["errors"]]
    cpu = cpu_end - cpu0
    summary = {
        "pairs": n, "connections": 2 * n, "processes": args.processes, "server_env": args.server_env, "rate": args.rate,
        "max_actions": args.max_actions, "client_procs": args.client_procs, "policy": args.policy,
        "games_completed": done, "results": reasons, "actions": actions, "seconds": round(elapsed, 1),
        "actions_per_s": round(actions / elapsed, 1) if elapsed else None,
        "latency_ms": {"n": len(lat), "p50": round(percentile(lat, 0.5), 1) if lat else None,
                       "p99": round(percentile(lat, 0.99), 1) if lat else None,
                       "max": round(lat[-1], 1) if lat else None,
                       "mean": round(statistics.fmean(lat), 1) if lat else None},
        "errors": len(errors), "stale_answers": sum(r["stale"] for r in got),
        "updates": args.updates, "updates_missed": sum(r.get("missed", 0) for r in got),
        "server_cpu_s": round(cpu, 2),
        "server_user_sys_s": [round(split_end[0] - split0[0], 2), round(split_end[1] - split0[1], 2)],
        "server_cpu_ms_per_action": round(1000 * cpu / actions, 3) if actions else None,
        "server_rss_mb": {"peak_seen": round(peak_rss, 1), "hwm": round(hwm, 1), "end": round(rss, 1)},
        "server_threads_peak": int(peak_threads),
        "clients_cpu_s": round(client_cpu, 1),
        "clients_policy_s": round(sum(r["decisions_s"] for r in got), 1),
        "placement": {"server_cpus": sorted(args.server_cpus) if args.server_cpus else "any",
                      "client_cpus": sorted(args.client_cpus) if args.client_cpus else "any",
                      "load_before": load_before, "load_after": list(os.getloadavg())},
        # what the server sent the clients (Socket.IO event packets as on the wire, without WebSocket framing)
        "received_bytes_per_action": round(sum(size for _, size in received.values()) / actions) if actions else None,
        "received": {name: {"messages": count, "bytes": size, "mean_bytes": round(size / count)}
                     for name, (count, size) in sorted(received.items())},
    }
    if args.cpu_split:  # {part: [calls, server CPU ms per action]}, from the probe's last totals
        from cpuprobe import read
        summary["cpu_split_ms_per_action"] = read(instance, lambda data: data["parts"]["act (the game's work)"][0])
    for r in errors[:5]:
        print("error:", r["game"], r["seat"], r["error"], r["errors"][:2], flush=True)
    print(json.dumps(summary, indent=1), flush=True)
    return 0 if not errors and (done == n or args.max_actions) else 1


#: What the server needs of a tree to run (git archive of REF for --compare).
SERVER_TREE = ["webapp", "cards", "templates", "static", "translations", "babel.cfg"]


def compare(args, argv):
    """Run this bench against REF's server and this tree's, alternating, ``--rounds`` times each (the
    clients are this tree's bot either way), and print each run's figures and the medians."""
    drop = {"--compare", "--rounds"}
    rest, skip = [], False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in drop:
            skip = "=" not in arg
            continue
        rest.append(arg)
    tmp = tempfile.mkdtemp(prefix="brigade-load-ref-")
    try:
        tree = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar", args.compare, *SERVER_TREE],
                              check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=tree, check=True)
        sides = [(args.compare, tmp), ("this tree", ROOT)]
        figures = {label: [] for label, _ in sides}
        for r in range(args.rounds):
            for label, root in sides:
                out = subprocess.run([sys.executable, os.path.abspath(__file__), *rest, "--server-root", root],
                                     capture_output=True, text=True)
                found = re.search(r"^\{.*^\}", out.stdout, re.S | re.M)
                if out.returncode != 0 or found is None:
                    print(out.stdout[-2000:], out.stderr[-2000:], flush=True)
                    raise SystemExit(f"the run of {label} failed")
                summary = json.loads(found.group(0))
                figures[label].append(summary)
                load = summary["placement"]["load_before"][0], summary["placement"]["load_after"][0]
                print(f"round {r + 1}: {label:>12}: {summary['server_cpu_ms_per_action']:.3f} ms server CPU per action, "
                      f"{summary['actions']} actions, {summary['actions_per_s']} /s, latency p50/p99 "
                      f"{summary['latency_ms']['p50']}/{summary['latency_ms']['p99']} ms, errors {summary['errors']}, "
                      f"RSS peak {summary['server_rss_mb']['peak_seen']} MB, "
                      f"{summary['received_bytes_per_action']} bytes/action, load {load[0]:.1f} -> {load[1]:.1f}",
                      flush=True)
        old, new = (statistics.median(s["server_cpu_ms_per_action"] for s in figures[label]) for label, _ in sides)
        print(f"median server CPU per action: {args.compare} {old:.3f} ms, this tree {new:.3f} ms "
              f"({100 * (new - old) / old:+.1f} %)", flush=True)
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
