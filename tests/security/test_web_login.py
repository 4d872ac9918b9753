"""A stranger guessing a friend's password slows down, and never locks the friend out (issue 12).

The attack on the old server: five wrong passwords from a stranger's address locked the victim's
account for everyone, the victim's correct password from home included.
"""

import pytest

from tests.security.conftest import PASSWORD, post, text
from webapp import create_app
from webapp.store import connect
from webapp.store.users import create_user
from werkzeug.security import generate_password_hash

HOME, STRANGER = "198.51.100.20", "203.0.113.66"
#: The victim's password as a real scrypt hash with a smaller work factor (N = 2**10 rather than 2**15):
#: every wrong guess below is checked against it for real, at a 32nd of the CPU. What these tests
#: check is the throttle, which never looks at the hash (tests/web/test_passwords.py checks hashing).
VICTIM_HASH = generate_password_hash(PASSWORD, "scrypt:1024:8:1")


@pytest.fixture
def site(tmp_path):
    """The default limits (docs/security.md), and a victim who has logged in from home before."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance"})
    db = connect(app.config["DATABASE"])
    create_user(db, "victim", VICTIM_HASH)
    db.close()
    home = app.test_client()
    assert log_in(home, "victim", PASSWORD, HOME).status_code == 302
    post(home, "/logout", environ_base={"REMOTE_ADDR": HOME})
    return app, home


def log_in(client, name, password, address):
    return post(client, "/login", {"name": name, "password": password}, environ_base={"REMOTE_ADDR": address})


class Clock:
    def __init__(self, app):
        self.now = 10_000.0
        app.extensions["login_throttle"].set_clock(lambda: self.now)


@pytest.mark.parametrize("tries", [5, 50])
def test_a_strangers_wrong_passwords_do_not_lock_the_victim_out(site, tries):
    app, home = site
    stranger = app.test_client()
    answers = [log_in(stranger, "victim", f"guess number {n}", STRANGER).status_code for n in range(tries)]
    # The victim logs in from home at once, and from their own browser anywhere ...
    assert log_in(app.test_client(), "victim", PASSWORD, HOME).status_code == 302
    assert log_in(home, "victim", PASSWORD, "192.0.2.77").status_code == 302  # the device cookie
    # ... while the stranger was slowed down, and stays so.
    assert set(answers) <= {401, 429} and 429 in answers
    assert log_in(stranger, "victim", "one more guess", STRANGER).status_code == 429


def test_the_strangers_waits_grow(site):
    app, _ = site
    clock = Clock(app)
    stranger = app.test_client()
    waits, guesses = [], 0
    while guesses < 45:
        answer = log_in(stranger, "victim", "still guessing", STRANGER)
        if answer.status_code == 429:
            waits.append(int(answer.headers["Retry-After"]))
            clock.now += waits[-1]  # the stranger waits exactly as long as told, then tries again
        else:
            assert answer.status_code == 401
            guesses += 1
    print("waits the stranger was told (s):", waits)
    assert waits[0] <= 10 and max(waits) >= 600  # a typo costs seconds; guessing costs hours
    # 45 guesses took the stranger more than two hours: about 20 an hour, at best.
    assert clock.now - 10_000.0 >= 2 * 3600


def test_once_strangers_spent_the_accounts_budget_only_known_places_may_try(site):
    app, home = site
    for n in range(app.config["LOGIN_LIMIT_ACCOUNT"]):
        log_in(app.test_client(), "victim", "wrong", f"203.0.113.{n + 1}")  # a botnet, one try each
    fresh = log_in(app.test_client(), "victim", PASSWORD, "192.0.2.200")   # a new place, no cookie
    assert fresh.status_code == 429 and "Try again in" in text(fresh)
    assert log_in(app.test_client(), "victim", PASSWORD, HOME).status_code == 302
    assert log_in(home, "victim", PASSWORD, "192.0.2.201").status_code == 302


def test_a_forged_device_cookie_is_no_key(site):
    app, _ = site
    for n in range(app.config["LOGIN_LIMIT_ACCOUNT"]):
        log_in(app.test_client(), "victim", "wrong", f"203.0.113.{n + 1}")
    forger = app.test_client()
    forger.set_cookie("brigade_device", "WzFd.forged.signature")
    assert log_in(forger, "victim", PASSWORD, "192.0.2.200").status_code == 429


def test_known_places_are_stored_as_keyed_hashes(site):
    app, _ = site
    db = connect(app.config["DATABASE"])
    places = [r[0] for r in db.execute("SELECT place FROM known_logins")]
    db.close()
    assert places and all(HOME not in p for p in places)
