"""Two server processes sharing one database through a real Redis (MESSAGE_QUEUE, webapp/hosting/cluster.py,
docs/deploy.md "Several processes"): real python-socketio clients on different processes play an
online game to its end with a spectator on each and one process killed and restarted mid-game; a
disconnect is claimed once; a clock runs out once; a CPU game moves between processes and its CPU
thinks once per move; the socket caps count both processes' sockets. No proxy: each client talks to
one process's port.

Debian's ``redis-server`` (scripts/test installs it) runs on a free port in a temp folder; without
it these tests skip, saying so."""

import json
import os
import re
import shutil
import subprocess
import time
from types import SimpleNamespace

import pytest
import redis
import requests
import socketio

from tests.online.helpers import close_all, closing_clients
from tests.online.test_real_server import GRACE, Client, final_of, invite, join, let_anyone_watch, user
from tests.play.helpers import assert_no_leak
from tests.play.test_real_server import Server, free_port
from webapp import ROOT
from webapp.game import cpuseats, play
from webapp.ai import BaselinePlayer, RandomPlayer
from webapp.tools.bot import SentView, start_cpu_game
from webapp.hosting.cluster import Cluster
from webapp.sockets.cpurunner import CPU_WATCH
from webapp.store import list_actions, load_game

pytestmark = pytest.mark.slow

CAP = 4  # SOCKETS_PER_USER in these servers
RESTART_AT = 10  # the version at which the first test kills a process


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A redis-server of the test's own (no saving), on a free port; its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (scripts/test installs Debian's redis-server)")
    folder = tmp_path_factory.mktemp("redis")
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder), "--save", "",
                             "--appendonly", "no", "--daemonize", "no"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 20
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("redis-server did not start") from None
            time.sleep(0.05)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


class Node(Server):
    """One of several server processes on one instance folder (one database, one secret key), with
    the online tests' short grace periods, the message queue and JSON logs."""

    def __init__(self, instance, redis_url, name, server):
        self.redis_url = redis_url
        super().__init__(instance, cpu_delay=0.05, server=server, log_name=f"{name}.log")

    def configure(self, cpu_delay):
        super().configure(cpu_delay)
        with open(self.instance / "config.py", "a") as f:
            for key, value in dict(GRACE, RATE_LIMIT=1000, MESSAGE_QUEUE=self.redis_url, LOG_FORMAT="json",
                                   SOCKETS_PER_USER=CAP, TESTING=True).items():
                f.write(f"{key} = {value!r}\n")

    def lines(self):
        """The process's JSON log lines (what a host reads with jq)."""
        out = []
        for text in (self.instance / self.log_name).read_text().splitlines():
            if text.startswith("{"):
                out.append(json.loads(text))
        return out

    def metric(self, name):
        text = requests.get(f"{self.url}/metrics", timeout=10).text
        m = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
        return float(m.group(1)) if m else 0.0


@pytest.fixture(scope="module")
def nodes(redis_url, tmp_path_factory):
    """Two processes, one gevent and one threading (docs/deploy.md), on one database."""
    instance = tmp_path_factory.mktemp("cluster") / "instance"
    made = [Node(instance, redis_url, "one", "gevent"), Node(instance, redis_url, "two", "threading")]
    for node in made:
        node.start()
    yield made
    for node in made:
        node.stop()


@pytest.fixture
def clients():
    """clients(node, http) -> a real python-socketio Client of that user on that process (closed after)."""
    yield from closing_clients(Client)


def newest(clients, game):
    return max((c.latest(game) or {"version": -1})["version"] for c in clients)


def play_on(players, game, watchers=(), until=None, timeout=600):
    """Play the game with ``players`` = {seat: (client, policy)} until it ends (or reaches version
    ``until``); every client waits for the newest version before acting, so each one's state came
    over the other process too. Returns the last state."""
    everyone = [c for c, _ in players.values()] + list(watchers)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        top = newest(everyone, game)
        for seat, (client, policy) in players.items():
            client.wait(lambda c, top=top: (c.latest(game) or {}).get("version", -1) >= top, timeout=30)
            state = client.latest(game)
            if state["status"] != "active" or (until is not None and state["version"] >= until):
                return state
            if seat in state["waiting_for"]:
                client.act(game, policy.choose(SentView(state), seat), state["version"])
                assert not client.of("error"), client.of("error")
                break
        else:  # nobody here is waited for (the CPU moves): wait for its next state
            for client, _ in players.values():
                client.wait(lambda c, top=top: (c.latest(game) or {}).get("version", -1) > top, timeout=60)
    raise AssertionError("the game did not end in time")


def lapse(cluster, name):
    """Let the lease ``name`` run out now, as if its seconds had passed without a renewal: leases live
    in Redis, whose clock no test moves; its key is given 1 ms to live, and gone once Redis says so."""
    key = cluster.key("lease", name)
    cluster.redis.pexpire(key, 1)
    deadline = time.monotonic() + 10
    while cluster.redis.exists(key):
        assert time.monotonic() < deadline, f"the lease {name} did not lapse"
        time.sleep(0.005)


def tries_for(commands, key, count, timeout=10 + 3 * CPU_WATCH):
    """Wait until Redis's MONITOR stream ``commands`` shows ``count`` tries to take the lease ``key``
    (redis-py's Lock: ``SET key token NX PX ms``)."""
    deadline, tries = time.monotonic() + timeout, 0
    while tries < count:
        assert time.monotonic() < deadline, f"{tries} tries for {key}, not {count}"
        words = commands.next_command()["command"].split()  # redis.TimeoutError after 10 s of nothing
        tries += len(words) > 2 and words[0].upper() == "SET" and words[1] == key and "NX" in (w.upper() for w in words)


def advance(nodes, seconds):
    """Move every process's clock forward by the same ``seconds`` (webapp/web/testing_clock.py)."""
    for node in nodes:
        node.advance(seconds)


def ticked(nodes, looks=3):
    """Wait until every process's online ticker has looked ``looks`` more times (its looks counter in
    /metrics): what a look would do after the time moved has been done."""
    before = [n.metric("brigade_online_ticker_looks_total") for n in nodes]
    deadline = time.monotonic() + 10
    while any(n.metric("brigade_online_ticker_looks_total") < b + looks for n, b in zip(nodes, before, strict=True)):
        assert time.monotonic() < deadline, "the ticker did not look"
        time.sleep(GRACE["ONLINE_TICK"])


def logged(pick, enough, timeout=10.0):
    """``pick()`` (lines of the processes' host logs) once ``enough(lines)``: a line is written up to
    hostlog.FLUSH_AFTER after it was logged (docs/deploy.md#logs)."""
    deadline = time.monotonic() + timeout
    while not enough(lines := pick()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return lines


def action_lines(nodes, user_ids):
    """Per process, the host log's lines of the actions these users made."""
    return [[x for x in n.lines() if x.get("event") == "action" and x.get("outcome") == "ok" and x["user"] in user_ids]
            for n in nodes]


def over_lines(nodes, game):
    return [x for n in nodes for x in n.lines() if x["logger"] == "brigade.game" and x["message"].startswith(f"game {game} ")]


def test_an_online_game_across_two_processes_to_its_end_with_one_restarted(nodes, clients):
    one, two = nodes
    ann, ben = user(one, "ann"), user(two, "ben")  # registered on different processes
    watcher = user(one, "cy")
    game_id, code = invite(one, ann)
    assert join(two, ben, code).url.endswith(f"/play/{game_id}")
    let_anyone_watch(one, ann)
    let_anyone_watch(two, ben)
    ca, cb = clients(one, ann), clients(two, ben)
    w1, w2 = clients(one, watcher), clients(two, watcher)  # a spectator on either process
    for c in (ca, cb, w1, w2):
        c.join(game_id)
    ca.wait(lambda c: c.of("presence") and all(p["connected"] for p in c.of("presence")[-1]["presence"]))
    leaders = logged(lambda: [x for n in nodes for x in n.lines() if "clock ticker" in x["message"]], len)
    assert [x["message"].endswith("runs the clock ticker of the online games") for x in leaders] == [True]

    policies = {0: BaselinePlayer(seed=1), 1: RandomPlayer(seed=2)}
    # The deal is the join's (drawn then, so the inviter cannot foretell it): the restart comes at
    # version 10, before any game of these two players can end (the shortest of 2,000 random deals
    # with these players and decks ended at version 15; at version 30, 10 % had ended).
    mid = play_on({0: (ca, policies[0]), 1: (cb, policies[1])}, game_id, watchers=(w1, w2), until=RESTART_AT)
    assert mid["status"] == "active", "the game ended before the restart"
    # Both spectators saw every version so far, whichever process the mover was on.
    for w in (w1, w2):
        w.wait(lambda c: c.latest(game_id)["version"] == mid["version"])

    # A line reaches the host log up to hostlog.FLUSH_AFTER after it was logged, and a crash loses
    # what waits (docs/deploy.md#logs): wait for the lines of the actions so far before the crash.
    ids = user_ids(one, ann, ben)
    db = one.db()
    try:
        so_far = len(list_actions(db, game_id))
    finally:
        db.close()
    logged(lambda: action_lines(nodes, ids), lambda ok: len(ok[0]) + len(ok[1]) >= so_far)
    two.kill()  # a crash: ben's socket and the second spectator's go with it
    cb2 = clients(one, ben)  # ben comes back on the other process, at the same version
    assert cb2.join(game_id)["version"] == mid["version"]
    two.start()
    ca.close()
    ca2 = clients(two, ann)  # and ann moves to the restarted one
    assert ca2.join(game_id)["version"] == mid["version"]

    final = play_on({0: (ca2, policies[0]), 1: (cb2, policies[1])}, game_id, watchers=(w1,))
    assert final["status"] == "finished"
    assert final_of(cb2, game_id)["view"]["result"] == final["view"]["result"]
    assert final_of(w1, game_id)["version"] == final["version"]
    db = one.db()
    try:
        row = load_game(db, game_id)
        assert (row["status"], row["version"], row["result"]) == ("finished", final["version"], final["view"]["result"])
        assert play.rebuild(db, game_id).to_json() == row["state"]
        assert_no_leak(db, game_id, w1.states(game_id))  # the spectator on the process that stayed up
        moves = len(list_actions(db, game_id))
    finally:
        db.close()
    assert len(logged(lambda: over_lines(nodes, game_id), len)) == 1
    # Each action was handled once, by the process of the socket that sent it (the JSON host log).
    ok = logged(lambda: action_lines(nodes, ids), lambda ok: len(ok[0]) + len(ok[1]) >= moves)
    assert len(ok[0]) + len(ok[1]) == moves and ok[0] and ok[1]
    print(f"\n{moves} actions: {len(ok[0])} through the first process, {len(ok[1])} through the second")


def user_ids(node, *https):
    db = node.db()
    try:
        return {db.execute("SELECT id FROM users WHERE name = ?", [h.name]).fetchone()[0] for h in https}
    finally:
        db.close()


def test_a_disconnect_on_one_process_is_claimed_once_from_the_other(nodes, clients):
    one, two = nodes
    ann, ben = user(one, "ann"), user(two, "ben")
    game_id, code = invite(one, ann)
    join(two, ben, code)
    ca, cb = clients(one, ann), clients(two, ben)
    state = ca.join(game_id)
    cb.join(game_id)
    ca.act(game_id, state["legal_actions"][0], 0)  # ann chose her leader: the game waits for ben alone
    cb.close()
    # ann's process hears (from the other process, over Redis) that ben is away, then that she may claim
    ca.wait(lambda c: c.of("presence") and not c.of("presence")[-1]["presence"][1]["connected"])
    advance(nodes, GRACE["ONLINE_CLAIM_AFTER"])
    ca.sio.emit("claim", {"game": game_id})
    final = final_of(ca, game_id)
    assert final["view"]["result"] == {"winner": 0, "reason": "disconnect"}
    ca.sio.emit("claim", {"game": game_id})  # a second claim is refused
    ca.wait(lambda c: c.of("error"))
    assert ca.of("error")[-1]["code"] == "illegal"
    advance(nodes, GRACE["ONLINE_AUTO_AFTER"])  # the automatic claim's time passes: nothing more happens
    ticked(nodes)
    db = one.db()
    try:
        row = load_game(db, game_id)
        assert (row["version"], row["result"]) == (final["version"], final["view"]["result"]) and row["version"] == 2
    finally:
        db.close()
    assert len(over_lines(nodes, game_id)) == 1


def test_a_clock_runs_out_once_with_two_processes_ticking(nodes, clients):
    one, two = nodes
    ann, ben = user(two, "ann"), user(one, "ben")
    game_id, code = invite(two, ann, clock="1")  # 60 s each
    join(one, ben, code)
    ca, cb = clients(two, ann), clients(one, ben)
    state = ca.join(game_id)
    cb.join(game_id)
    ca.act(game_id, state["legal_actions"][0], 0)  # ann chose; ben's clock runs out
    advance(nodes, 60)
    final = final_of(cb, game_id, timeout=15)
    assert final["view"]["result"] == {"winner": 0, "reason": "timeout"}
    assert final_of(ca, game_id)["version"] == final["version"] == 2
    ticked(nodes)  # the other process's ticker looked too: it ends nothing twice
    db = one.db()
    try:
        assert load_game(db, game_id)["version"] == 2
    finally:
        db.close()
    assert len(over_lines(nodes, game_id)) == 1


def test_a_cpu_game_moves_between_processes_and_its_cpu_thinks_once_per_move(nodes, clients):
    one, two = nodes
    ann = user(one, "ann")
    game_id = start_cpu_game(ann, one.url)
    before = sum(n.metric("brigade_cpu_move_seconds_count") for n in nodes)
    policy = BaselinePlayer(seed=4)
    c1 = clients(one, ann)
    c1.join(game_id)
    mid = play_on({0: (c1, policy)}, game_id, until=12)
    c1.close()  # mid-game, perhaps while the CPU is moving: ann goes on on the other process
    c2 = clients(two, ann)
    c2.join(game_id)
    final = play_on({0: (c2, policy)}, game_id) if mid["status"] == "active" else mid
    assert final["status"] == "finished"
    db = one.db()
    try:
        row = load_game(db, game_id)
        seat = next(iter(cpuseats.cpu_seats(row)))
        cpu = sum(1 for a in list_actions(db, game_id) if a["player"] == seat)
    finally:
        db.close()
    assert row["status"] == "finished" and cpu > 3
    # one CPU decision thought per CPU move stored, over both processes: no process played it twice
    assert sum(n.metric("brigade_cpu_move_seconds_count") for n in nodes) - before == cpu


def test_a_cpu_whose_process_died_is_taken_over_once_its_lease_lapses(nodes, clients, redis_url):
    """A process that held a game's CPU lease and died (here: a lease taken by the test, never renewed):
    the process the player acts on does not play the CPU while the lease lives, then takes over."""
    one, _ = nodes
    ann = user(one, "ann")
    game_id = start_cpu_game(ann, one.url)
    gone = Cluster(redis_url)  # the dead process
    assert gone.take(gone.lease(f"cpu:{game_id}", 6.0))
    c = clients(one, ann)
    state = c.join(game_id)
    with redis.Redis.from_url(redis_url, socket_timeout=10).monitor() as commands:  # what Redis is asked
        c.act(game_id, state["legal_actions"][0], state["version"])  # ann's leader: now the CPU's move
        mine = c.latest(game_id)["version"]
        # the process tries the lease when the CPU is to move, then looks again every CPU_WATCH s
        # whether its holder still plays: two tries, both refused
        tries_for(commands, gone.key("lease", f"cpu:{game_id}"), 2)
    assert c.latest(game_id)["version"] == mine, "the CPU moved while another process held its lease"
    lapse(gone, f"cpu:{game_id}")  # the dead process's lease runs out now, not in 6 s
    c.wait(lambda c: c.latest(game_id)["version"] > mine, timeout=30)
    assert logged(lambda: [x for x in one.lines() if "this one plays it" in x["message"]], len)


def test_the_socket_cap_counts_both_processes(nodes):
    one, two = nodes
    ann = user(one, "ann")
    cookie = "; ".join(f"{k}={v}" for k, v in ann.cookies.get_dict().items())
    opened = []
    try:
        for node in (one, two, one, two):
            c = socketio.Client(reconnection=False)
            c.connect(node.url, headers={"Cookie": cookie}, transports=["websocket"], wait_timeout=10)
            opened.append(c)
        for node in (one, two):  # a fifth on either process is refused, saying why
            c = socketio.Client(reconnection=False)
            why = []
            c.on("connect_error", why.append)
            with pytest.raises(socketio.exceptions.ConnectionError):
                c.connect(node.url, headers={"Cookie": cookie}, transports=["websocket"], wait_timeout=10)
            assert why == [{"message": f"you have {CAP} connections open (at most {CAP}): close a tab"}], why
        opened.pop().disconnect()  # one closes on the second process: the first takes a new one
        deadline = time.monotonic() + 10
        while True:  # as soon as the second process has counted the close
            c = socketio.Client(reconnection=False)
            try:
                c.connect(one.url, headers={"Cookie": cookie}, transports=["websocket"], wait_timeout=10)
                break
            except socketio.exceptions.ConnectionError:
                assert time.monotonic() < deadline, "the closed socket still counted"
                time.sleep(0.02)
        opened.append(c)
    finally:
        close_all(opened)


def test_event_limits_and_leases_are_shared(redis_url):
    """Two Cluster objects stand for two processes: the per-user limit counts both; a lease is one
    process's until it gives it back or it lapses."""
    a, b = Cluster(redis_url, prefix="t-limits"), Cluster(redis_url, prefix="t-limits")
    verdicts = [(a if i % 2 else b).admit(7, f"addr{i}", 5, 100, seconds=30) for i in range(8)]
    assert verdicts == [0] * 5 + [1] * 3  # the user's sixth event is refused, whichever process has it
    assert b.admit(8, "addr0", 5, 100, seconds=30) == 0  # another user from that address goes on
    assert [a.admit(9, "same", 100, 2, seconds=30), b.admit(10, "same", 100, 2, seconds=30),
            a.admit(11, "same", 100, 2, seconds=30)] == [0, 0, 2]
    first, second = a.lease("ticker", 1.0), b.lease("ticker", 1.0)
    assert a.take(first) and not b.take(second)
    assert a.take(first)  # renewed by its holder
    lapse(a, "ticker")  # the holder stops renewing (it died): the lease lapses
    assert b.take(second) and not a.take(first)
    b.give_back(second)
    assert a.take(first)


# ---------------------------------------------------------------- behind nginx, as docs/deploy.md says


def nginx_config(deploy_md, ports, listen, folder):
    """An nginx.conf for a test from the blocks docs/deploy.md gives a host: its ``upstream`` with
    ``ip_hash`` (the ports replaced), its WebSocket ``map``, its proxy headers and its ``/socket.io/``
    and ``/`` locations; without TLS, on ``listen``, with every file in ``folder``."""
    blocks = re.findall(r"```nginx\n(.*?)```", deploy_md, re.S)
    upstream = next(b for b in blocks if b.startswith("upstream") and "ip_hash;" in b)
    for doc_port, port in zip(re.findall(r"server 127\.0\.0\.1:(\d+);", upstream), ports, strict=True):
        upstream = upstream.replace(f"127.0.0.1:{doc_port};", f"127.0.0.1:{port};")
    site = next(b for b in blocks if "listen 443" in b)
    wanted = [re.search(r"map \$http_upgrade.*?\n\}", site, re.S).group(0)]
    headers = re.findall(r"^ {4}proxy_set_header .*$", site, re.M)
    locations = [re.search(rf"^ {{4}}location {re.escape(path)} \{{.*?^ {{4}}\}}", site, re.S | re.M).group(0)
                 for path in ("/socket.io/", "/")]
    temp = "\n".join(f"  {kind}_temp_path {folder}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # The site is on 443 there and on a free port here: the Host nginx passes must keep the port
    # ($http_host), or Socket.IO refuses the connection as coming from another origin.
    return f"""
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 256; }}
http {{
  log_format upstreams '$request_uri $status $upstream_addr';
  access_log {folder}/access.log upstreams;
{temp}
{wanted[0]}
{upstream}
  server {{
    listen 127.0.0.1:{listen};
{chr(10).join(headers)}
{chr(10).join(locations)}
  }}
}}
""".replace("$host", "$http_host")


@pytest.fixture
def nginx(nodes, tmp_path):
    """nginx in front of the two processes with docs/deploy.md's blocks; its URL."""
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if binary is None:
        pytest.skip("nginx is not installed (scripts/test installs Debian's nginx)")
    folder = tmp_path / "nginx"
    folder.mkdir()
    folder.chmod(0o777)  # nginx's workers may run as another user
    port = free_port()
    deploy = (ROOT / "docs" / "deploy.md").read_text()
    (folder / "nginx.conf").write_text(nginx_config(deploy, [n.port for n in nodes], port, folder))
    proc = subprocess.Popen([binary, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            if requests.get(f"{url}/healthz", timeout=1).status_code == 200:
                break
        except requests.RequestException:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("nginx did not start: " + (folder / "error.log").read_text())
        time.sleep(0.05)
    yield SimpleNamespace(url=url, log=folder / "access.log")
    proc.terminate()
    proc.wait(timeout=10)


def test_behind_nginx_with_sticky_sessions_long_polling_and_websocket_play_to_the_end(nodes, nginx, clients):
    """docs/deploy.md's nginx blocks in front of both processes: one player on HTTP long-polling (the
    fallback that needs sticky sessions: each poll must reach the process holding its session), the
    other on WebSocket; a whole game through nginx."""
    ann, ben = user(nginx, "ann"), user(nginx, "ben")
    game_id, code = invite(nginx, ann)
    assert join(nginx, ben, code).url.endswith(f"/play/{game_id}")
    ca, cb = clients(nginx, ann, "polling"), clients(nginx, ben, "websocket")
    assert ca.sio.transport() == "polling" and cb.sio.transport() == "websocket"
    ca.join(game_id)
    cb.join(game_id)
    final = play_on({0: (ca, BaselinePlayer(seed=8)), 1: (cb, RandomPlayer(seed=9))}, game_id)
    assert final["status"] == "finished" and final_of(cb, game_id)["version"] == final["version"]
    polls = [line.split() for line in nginx.log.read_text().splitlines() if line.startswith("/socket.io/")]
    assert len(polls) > final["version"]  # long-polling: at least one request per action
    assert {p[2] for p in polls} in ({f"127.0.0.1:{nodes[0].port}"}, {f"127.0.0.1:{nodes[1].port}"})
    assert all(p[1] in ("200", "101") for p in polls), [p for p in polls if p[1] not in ("200", "101")][:3]
