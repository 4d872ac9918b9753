"""Against a real server (`python -m webapp` in a subprocess): the bot client, a real python-socketio
client's bad input, and a restart in the middle of a game."""

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest
import requests
import socketio

from webapp import ROOT
from webapp.game import play
from webapp.tools.bot import Bot, csrf_of, log_in, start_cpu_game
from webapp.store import connect, list_actions, load_game

from .conftest import PASSWORD

pytestmark = pytest.mark.slow


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m webapp`` on a free port with its own instance folder (and so its own database)."""

    def __init__(self, instance, cpu_delay=0.0, server="threading", log_name="server.log"):
        self.instance = instance
        self.server = server  # BRIGADE_SERVER: "threading" or "gevent" (docs/deploy.md)
        self.log_name = log_name  # several processes on one instance folder each write their own
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None
        self.wrapper = []  # a command the server runs under (e.g. ``unshare``: tests/security/test_read_only_database.py)
        self.configure(cpu_delay)

    def configure(self, cpu_delay):
        self.instance.mkdir(parents=True, exist_ok=True)
        # Every test user registers from 127.0.0.1: lift the per-address limit on new accounts.
        (self.instance / "config.py").write_text(f"CPU_DELAY = {cpu_delay!r}\nREGISTER_LIMIT_ADDRESS = 10_000\n")

    def start(self):
        env = dict(os.environ, BRIGADE_INSTANCE_PATH=str(self.instance), BRIGADE_SERVER=self.server)
        env.pop("BRIGADE_DB", None)
        with open(self.instance / self.log_name, "a") as log:  # the server keeps its own copy of the file
            self.proc = subprocess.Popen([*self.wrapper, sys.executable, "-m", "webapp", "--port", str(self.port)], cwd=ROOT, env=env,
                                         stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("the server did not start: " + (self.instance / self.log_name).read_text())
            time.sleep(0.1)

    def kill(self):
        """Stop the server at once, as a crash would (SIGKILL: no clean shutdown)."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def db(self):
        return connect(self.instance / "brigade.db")

    def advance(self, seconds):
        """Move the server's clock forward (webapp/web/testing_clock.py: the server must run with TESTING
        on, as ``configure`` of a subclass writes it), instead of waiting ``seconds`` out."""
        http = requests.Session()
        page = http.get(f"{self.url}/login", timeout=10).text
        answer = http.post(f"{self.url}/testing/clock", data={"csrf_token": csrf_of(page), "advance": seconds}, timeout=10)
        assert answer.status_code == 200, answer.text
        return answer.json()["offset"]


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "instance")
    srv.start()
    yield srv
    srv.stop()


def session_for(server, name):
    """A requests session logged in as a newly registered user."""
    http = requests.Session()
    log_in(http, server.url, name, PASSWORD, register=True)
    return http


def bot_command(server, *args):
    return [sys.executable, "-m", "webapp.tools.bot", "--url", server.url, "--password", PASSWORD, *args]


def test_the_bot_plays_a_whole_cpu_game_against_a_real_server(server):
    run = subprocess.run(bot_command(server, "--name", "alice", "--register", "--cpu", "--seed", "1"),
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    summary = lines[-1]
    assert summary["status"] == "finished" and summary["result"]["winner"] in (0, 1, None)
    assert summary["latency_ms"]["n"] == summary["actions"] > 10
    print("\nreal server, bot vs CPU:", json.dumps(summary))
    db = server.db()
    try:
        row = load_game(db, summary["game"])
        assert (row["status"], row["version"], row["result"]) == ("finished", summary["version"], summary["result"])
        assert play.rebuild(db, summary["game"]).to_json() == row["state"]
    finally:
        db.close()


def test_a_real_client_is_refused_cleanly_and_the_server_goes_on(server):
    alice, bob = session_for(server, "alice"), session_for(server, "bob")
    game_id = start_cpu_game(alice, server.url)
    got = []

    def client(http):
        c = socketio.Client(reconnection=False)
        c.on("state", lambda p: got.append(("state", p)))
        c.on("error", lambda p: got.append(("error", p)))
        c.connect(server.url, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in http.cookies.get_dict().items())},
                  transports=["websocket"])
        return c

    def wait_for(n, timeout=10):
        deadline = time.monotonic() + timeout
        while len(got) < n and time.monotonic() < deadline:
            time.sleep(0.01)
        return list(got)

    with pytest.raises(socketio.exceptions.ConnectionError):  # no session: refused at connect
        socketio.Client(reconnection=False).connect(server.url, transports=["websocket"])

    intruder = client(bob)
    intruder.emit("action", {"game": game_id, "action": {"type": "resign"}, "version": 0})
    intruder.emit("action", {"game": game_id, "action": {"type": "r" * 50_000}, "version": 0})
    intruder.emit("join", {"game": "1; DROP TABLE games"})
    answers = wait_for(3)
    assert [(n, p["code"]) for n, p in answers] == [("error", "forbidden"), ("error", "bad_request"),
                                                    ("error", "bad_request")]
    intruder.disconnect()

    got.clear()
    player = client(alice)
    player.emit("join", {"game": game_id})
    state = wait_for(1)[0][1]
    player.emit("action", {"game": game_id, "action": state["legal_actions"][0], "version": 5})
    assert wait_for(2)[1][1]["code"] == "stale"
    got.clear()
    for _ in range(200):  # a flood: refused, then the connection is closed
        if not player.connected:
            break
        player.emit("join", {"game": game_id})
    deadline = time.monotonic() + 10
    while player.connected and time.monotonic() < deadline:
        time.sleep(0.05)
    codes = [p.get("code") for n, p in got if n == "error"]
    assert "rate_limited" in codes and not player.connected
    assert sum(1 for n, _ in got if n == "state") <= 20 + 1

    db = server.db()
    try:
        assert (load_game(db, game_id)["version"], list_actions(db, game_id)) == (0, [])
    finally:
        db.close()
    assert requests.get(f"{server.url}/healthz", timeout=5).json() == {"ok": True}
    got.clear()
    again = client(alice)  # the same user comes back and plays on
    again.emit("join", {"game": game_id})
    state = wait_for(1)[0][1]
    again.emit("action", {"game": game_id, "action": state["legal_actions"][0], "version": 0})
    assert [p["version"] for n, p in wait_for(3) if n == "state"][:2] == [0, 1]
    again.disconnect()


def test_after_a_crash_and_a_restart_the_game_goes_on_from_the_same_version(tmp_path):
    server = Server(tmp_path / "instance", cpu_delay=2.0)  # the CPU waits: the crash comes before it moves
    server.start()
    try:
        http = session_for(server, "alice")
        game_id = start_cpu_game(http, server.url)
        cookies = http.cookies.get_dict()
        # The human chooses leaders (the CPU answers), then ends the turn; the server dies while the
        # CPU still waits to move.
        Bot(server.url, cookies, game_id, seed=5, max_actions=1, timeout=30).run()
        seen = []
        client = socketio.Client(reconnection=False)
        client.on("state", seen.append)
        client.connect(server.url, headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())},
                       transports=["websocket"])
        client.emit("join", {"game": game_id})
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
        assert {"type": "end_turn"} in seen[-1]["legal_actions"]
        client.emit("action", {"game": game_id, "action": {"type": "end_turn"}, "version": seen[-1]["version"]})
        while seen[-1]["waiting_for"] != [1] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert seen[-1]["waiting_for"] == [1]
        db = server.db()
        try:
            before = load_game(db, game_id)
        finally:
            db.close()
        assert before["version"] == seen[-1]["version"]
        server.kill()
        client.disconnect()

        server.configure(0.0)
        server.start()  # same instance folder: same database and secret key, so the cookie still works
        states = []  # joining finds the CPU to move: it moves, and the human's turn comes
        Bot(server.url, cookies, game_id, seed=6, max_actions=0, timeout=30, on_state=states.append).run()
        assert states[0]["version"] == before["version"] and states[0]["waiting_for"] == [1]
        assert states[-1]["version"] > before["version"] and 0 in states[-1]["waiting_for"]
        assert load_state(server, game_id, before["version"]) == before["state"]
        summary = Bot(server.url, cookies, game_id, seed=6, timeout=60).run()
        assert summary["status"] == "finished"
        db = server.db()
        try:
            row = load_game(db, game_id)
            assert row["status"] == "finished" and row["version"] > before["version"]
            assert play.rebuild(db, game_id).to_json() == row["state"]
        finally:
            db.close()
    finally:
        server.stop()


def load_state(server, game_id, version):
    db = server.db()
    try:
        return play.rebuild(db, game_id, upto=version).to_json()
    finally:
        db.close()
