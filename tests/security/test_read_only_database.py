"""A database the server cannot write (docs/security.md, "The database"), as a host would meet it.

* A read-only database (the file, its folder or the whole mount): the server refuses to start, with
  one line that names the file and says what to fix, and no traceback. As root a chmod does not stop
  a write, so the test makes the folder truly read-only: a read-only bind mount in a mount namespace
  of the server's own (``unshare -m``), as a read-only volume or a remounted disk is.
* A write that fails while the server runs (the disk fills up: a small tmpfs of the server's own,
  filled from outside through ``/proc/PID/root``): the player's action is refused with a clear
  "nothing was changed, try again" error, the game stays at its version, the server goes on, and
  the same action goes through once there is room again. Nothing is lost or doubled.
* The CPU's own move meets the full disk (issue 26 F16): the players hear ``busy``, the log has one
  line and no traceback, and the CPU tries again after a back-off (the server's clock is advanced, not
  waited out) until its move is stored, once.
"""

import shutil
import subprocess
import sys

import pytest
import requests

from tests.play.test_real_server import Server, free_port
from webapp import ROOT, create_app
from webapp.sockets.cpurunner import CPU_RETRY_MOST

from .socketkit import Client, csrf_of, start_cpu_game, user

pytestmark = pytest.mark.slow

NAMESPACE = ["unshare", "--mount", "--propagation", "private"]


def can_mount():
    """Whether this machine lets the tests make mount namespaces (root with CAP_SYS_ADMIN, as CI is)."""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run([*NAMESPACE, "sh", "-c", "mount -t tmpfs none /mnt"], capture_output=True)
    return probe.returncode == 0


@pytest.fixture(scope="module", autouse=True)
def mounts():
    # Not a skip: a skip counts as a failure in CI (docs/testing.md), and CI runs as root on this kind.
    assert can_mount(), "these tests need `unshare --mount` (root): run them as CI does"


def prepared(instance):
    """An instance folder with a migrated, seeded database and a secret key, as after a first start."""
    create_app({"INSTANCE_PATH": str(instance), "DATABASE": str(instance / "brigade.db"), "SECRET_KEY": "k"})
    (instance / "secret_key").write_text("a" * 64 + "\n")
    return instance


def test_a_read_only_database_stops_the_server_at_start_with_a_clear_line(tmp_path):
    instance = prepared(tmp_path / "instance")
    before = (instance / "brigade.db").read_bytes()
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    for server in ("gevent", "threading"):
        run = subprocess.run(
            [*NAMESPACE, "sh", "-c", script, str(instance), sys.executable, "-m", "webapp", "--port", str(free_port())],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
            env={"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "BRIGADE_INSTANCE_PATH": str(instance), "BRIGADE_SERVER": server})
        said = run.stdout + run.stderr
        assert run.returncode == 2, said
        assert "Traceback" not in said and "running at" not in said, said
        assert str(instance / "brigade.db") in said and "cannot write" in said, said
        assert "read-only" in said and "permissions" in said, said
    assert (instance / "brigade.db").read_bytes() == before


class SmallDiskServer(Server):
    """The server on a 16 MB tmpfs of its own (its instance folder copied onto it at start); ``settings``,
    more lines of its config.py."""

    def __init__(self, instance, server, cpu_delay=0.0, settings=""):
        self.settings = settings
        super().__init__(instance, cpu_delay=cpu_delay, server=server)
        script = ('cp -a "$0" "$0.seed" && mount -t tmpfs -o size=16m tmpfs "$0" && cp -a "$0.seed/." "$0" '
                  '&& rm -rf "$0.seed" && exec "$@"')
        self.wrapper = [*NAMESPACE, "sh", "-c", script, str(instance)]

    def configure(self, cpu_delay):
        super().configure(cpu_delay)
        with open(self.instance / "config.py", "a") as f:
            f.write(self.settings)

    def inside(self, name):
        """A path in the server's own view of its instance folder (its mount namespace)."""
        return f"/proc/{self.proc.pid}/root{self.instance}/{name}"

    def fill(self):
        """Fill the tmpfs to the last byte, as a full disk is."""
        subprocess.run(["dd", "if=/dev/zero", f"of={self.inside('filler')}", "bs=1M"], capture_output=True)

    def free(self):
        subprocess.run(["rm", "-f", self.inside("filler")], check=True)

    def stored_actions(self, game_id, seat):
        """How many actions of the game's ``seat`` the database holds, read in the server's mount namespace
        (SQLite resolves /proc/PID/root to our own root, so it is read from inside, with nsenter)."""
        read = ("import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("
                "'SELECT count(*) FROM game_actions WHERE game_id = ? AND player = ?', "
                "(int(sys.argv[2]), int(sys.argv[3]))).fetchone()[0])")
        run = subprocess.run(["nsenter", "-t", str(self.proc.pid), "-m", sys.executable, "-c", read,
                              str(self.instance / "brigade.db"), str(game_id), str(seat)],
                             capture_output=True, text=True, check=True)
        return int(run.stdout)


@pytest.mark.parametrize("kind", ["gevent", "threading"])
def test_a_full_disk_refuses_the_action_loses_nothing_and_the_action_goes_through_later(tmp_path, kind):
    server = SmallDiskServer(tmp_path / "instance", kind)
    server.start()
    try:
        http = user(server, "full")
        game_id = start_cpu_game(http, server.url)
        c = Client(server, http)
        first = c.join(game_id)
        version, action, seat = first["version"], first["legal_actions"][0], first["seat"]
        stored = server.stored_actions(game_id, seat)

        server.fill()
        c.sio.emit("action", {"game": game_id, "action": action, "version": version})
        c.wait(lambda c: c.of("error"))
        refusal = c.of("error")[-1]
        assert refusal["code"] == "busy" and refusal["game"] == game_id, refusal
        assert "nothing was changed" in refusal["message"] and "try again" in refusal["message"]
        assert c.latest(game_id)["version"] == version  # no state moved on
        assert server.stored_actions(game_id, seat) == stored
        token = csrf_of(http.get(f"{server.url}/decks", timeout=10).text)
        page = http.post(f"{server.url}/logout", data={"csrf_token": token}, timeout=10)  # a page's write
        assert page.status_code == 503 and "try again" in page.text, page.status_code  # not a 500
        assert requests.get(f"{server.url}/healthz", timeout=10).status_code == 200

        server.free()
        again = c.join(game_id)  # a reload: the game as it was
        assert again["version"] == version and again["legal_actions"] == first["legal_actions"]
        c.sio.emit("action", {"game": game_id, "action": action, "version": version})
        c.wait(lambda c: (c.latest(game_id) or {}).get("version", 0) > version)
        assert server.stored_actions(game_id, seat) == stored + 1  # once, not twice
        c.sio.disconnect()
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "instance" / "server.log").read_text(errors="replace")


@pytest.mark.parametrize("kind", ["gevent", "threading"])
def test_the_cpus_move_on_a_full_disk_says_busy_and_arrives_once_when_there_is_room(tmp_path, kind):
    # The CPU waits 1.5 s before its move (CPU_DELAY): the disk is filled in that time, right after the
    # player's action is stored. CPU_PLAYER "random" moves at once; TESTING opens /testing/clock.
    server = SmallDiskServer(tmp_path / "instance", kind, cpu_delay=1.5,
                             settings="TESTING = True\nCPU_PLAYER = 'random'\n")
    server.start()
    try:
        http = user(server, "cpufull")
        game_id = start_cpu_game(http, server.url)
        c = Client(server, http)
        first = c.join(game_id)
        version, seat = first["version"], first["seat"]
        cpu = 1 - seat
        c.sio.emit("action", {"game": game_id, "action": first["legal_actions"][0], "version": version})
        c.wait(lambda c: (c.latest(game_id) or {}).get("version") == version + 1)  # the player's action is stored
        server.fill()
        assert server.stored_actions(game_id, seat) == 1

        c.wait(lambda c: c.of("error"))
        refusal = c.of("error")[0]
        assert refusal["code"] == "busy" and refusal["game"] == game_id, refusal
        assert "CPU's move" in refusal["message"] and "try again" in refusal["message"], refusal
        assert c.latest(game_id)["version"] == version + 1 and server.stored_actions(game_id, cpu) == 0
        said = (tmp_path / "instance" / "server.log").read_text(errors="replace")
        assert "Traceback" not in said, said
        assert said.count(f"the database refused the CPU's move in game {game_id}") == 1, said

        server.free()
        server.advance(CPU_RETRY_MOST)  # the back-off's wait, whatever it has grown to, is over
        c.wait(lambda c: (c.latest(game_id) or {}).get("version", 0) >= version + 2)
        assert server.stored_actions(game_id, cpu) == 1  # the CPU's move, once
        assert [s["version"] for s in c.states(game_id)].count(version + 2) == 1  # and pushed once
        c.sio.disconnect()
    finally:
        server.stop()
    said = (tmp_path / "instance" / "server.log").read_text(errors="replace")
    assert "Traceback" not in said, said
