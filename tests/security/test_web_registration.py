"""Registration cannot be used to fill the server or its memory, nor to pick a guessable password
(issue 12, Low). The attacks on the old server: 30 accounts from one address in 12–18 s; 48
registrations at once took it from 60 MB to 374 MB (gevent) / 830 MB (threads), scrypt's 32 MB per
hash with nothing bounding how many ran at once; "12345678", "password" and one's own name were
accepted as passwords.
"""

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.online.helpers import wait_until
from tests.security.conftest import PASSWORD, post, text
from webapp import create_app
from webapp.store import connect
from webapp.accounts import passwords

#: What the server process may reach, at most, while 48 registrations arrive at once (its peak
#: resident memory, VmHWM). Each scrypt hash holds 32 MB while it runs; with
#: PASSWORD_HASH_CONCURRENCY = 2 the hashes hold 64 MB, on top of the server's own ~55–60 MB (measured:
#: 129 MB with gevent, 131 MB with threads).
#: Without the bound the same burst took 374 MB (gevent) and 830 MB (threads). docs/security.md.
RSS_BOUND_MB = 200


def register(client, name, password=PASSWORD, address="127.0.0.1"):
    return post(client, "/register", {"name": name, "password": password, "confirm": password},
                environ_base={"REMOTE_ADDR": address})


def user_names(app):
    db = connect(app.config["DATABASE"])
    try:
        return [r[0] for r in db.execute("SELECT name FROM users ORDER BY id")]
    finally:
        db.close()


def test_one_address_makes_only_a_few_accounts(app):
    limit = app.config["REGISTER_LIMIT_ADDRESS"]
    for n in range(limit):
        assert register(app.test_client(), f"sock{n}", address="203.0.113.5").status_code == 302
    refused = register(app.test_client(), "sockmore", address="203.0.113.5")
    assert refused.status_code == 429 and "Try again in" in text(refused) and int(refused.headers["Retry-After"]) > 0
    assert "sockmore" not in user_names(app)
    assert register(app.test_client(), "friend", address="198.51.100.1").status_code == 302


@pytest.mark.parametrize("password", ["12345678", "password", "Password1", "qwertyuiop", "iloveyou", "11111111",
                                      "brigade123"])
def test_the_most_common_passwords_are_refused(app, password):
    response = register(app.test_client(), "alice", password)
    assert response.status_code == 400 and "choose another" in text(response)
    assert user_names(app) == []


@pytest.mark.parametrize("password", ["alicealice", "ALICE-in-wonderland", "my name is Alice!"])
def test_a_password_holding_ones_name_is_refused(app, password):
    response = register(app.test_client(), "alice", password)
    assert response.status_code == 400 and "must not hold your name" in text(response)
    assert user_names(app) == []


def test_a_password_equal_to_a_short_name_is_refused_too(app):
    assert register(app.test_client(), "jo", "jo").status_code == 400  # too short anyway
    assert register(app.test_client(), "abcdefghij", "ABCDEFGHIJ").status_code == 400


def test_at_most_the_set_number_of_hashes_run_at_once(monkeypatch):
    """Twelve threads ask for hashes at once with a gate of two: two hash, ten wait at the gate (each
    hash is held until every thread has come to the gate), and no more than two ever run together."""
    running, peak, arrived, lock = [0], [0], [0], threading.Lock()
    release = threading.Event()

    def held_hash(password, method):
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        assert release.wait(30), "the hashes were never let go"
        with lock:
            running[0] -= 1
        return "hash"

    monkeypatch.setattr(passwords, "generate_password_hash", held_hash)
    passwords.set_concurrency(2)
    gate = passwords._gate

    class CountedGate:
        """The gate set_concurrency made, counting the threads that came to it."""

        def __enter__(self):
            with lock:
                arrived[0] += 1
            return gate.__enter__()

        def __exit__(self, *exc):
            return gate.__exit__(*exc)

    monkeypatch.setattr(passwords, "_gate", CountedGate())
    with ThreadPoolExecutor(max_workers=12) as pool:
        hashes = [pool.submit(passwords.hash_password, "x" * 10) for _ in range(24)]
        wait_until(lambda: arrived[0] == 12 and running[0] == 2)  # all twelve at the gate, two through it
        assert peak[0] == 2
        release.set()
        assert [h.result(timeout=30) for h in hashes] == ["hash"] * 24
    assert peak[0] == 2 and arrived[0] == 24


def test_the_setting_sizes_the_gate(tmp_path):
    create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "i", "PASSWORD_HASH_CONCURRENCY": 3})
    assert passwords._gate_size == 3
    create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "j"})
    assert passwords._gate_size == 2


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1)) / 1024


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["gevent", "threading"])
def test_48_registrations_at_once_keep_the_server_under_the_bound(tmp_path, mode):
    from tests.play.test_real_server import Server

    server = Server(tmp_path / "instance", server=mode)
    with open(server.instance / "config.py", "a") as f:
        f.write("REGISTER_LIMIT_ADDRESS = 1000\n")
    server.start()
    try:
        before = peak_rss_mb(server.proc.pid)

        def one(n):
            http = requests.Session()
            page = http.get(f"{server.url}/register", timeout=60).text
            token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
            password = f"long enough {n} pass"
            return http.post(f"{server.url}/register", data={"csrf_token": token, "name": f"burst{n}",
                                                             "password": password, "confirm": password},
                             allow_redirects=False, timeout=120).status_code

        with ThreadPoolExecutor(max_workers=48) as pool:
            answers = list(pool.map(one, range(48)))
        peak = peak_rss_mb(server.proc.pid)
        print(f"{mode}: peak RSS {before:.0f} MB at start, {peak:.0f} MB after 48 registrations at once "
              f"(bound {RSS_BOUND_MB} MB)")
        assert answers == [302] * 48
        assert peak < RSS_BOUND_MB
    finally:
        server.stop()
