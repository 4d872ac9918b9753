"""Password hashing (webapp/accounts/passwords.py): right answers, and when serving with gevent the
scrypt work runs on a native thread of gevent's pool, not on the event loop every game shares."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from webapp.accounts.passwords import check_password, hash_password

#: These tests hash with the host's parameters (the rest of the suite stores cheaper hashes:
#: tests/conftest.py, QUICK_SCRYPT).
pytestmark = pytest.mark.real_password_hashes

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import os
os.environ["BRIGADE_SERVER"] = "gevent"
import webapp  # patches the standard library first (webapp/serving.py, its first import)
from gevent import monkey
from webapp.accounts import passwords

native = monkey.get_original("threading", "get_ident")
loop_thread = native()
elsewhere = passwords.off_the_loop(native)
stored = passwords.hash_password("correct horse")
print(webapp.SERVER, elsewhere != loop_thread, passwords.check_password(stored, "correct horse"),
      passwords.check_password(stored, "wrong horse"))
"""


def test_a_hash_checks_only_its_own_password():
    stored = hash_password("correct horse")
    assert stored.startswith("scrypt:32768:8:1$")  # werkzeug's scrypt: N = 2**15, 32 MB per hash
    assert check_password(stored, "correct horse")
    assert not check_password(stored, "correct horse ")


@pytest.mark.slow  # starts processes of its own: the whole run's, not the fast lane's (docs/testing.md)
def test_with_gevent_the_hash_runs_off_the_event_loop():
    env = dict(os.environ, BRIGADE_SERVER="gevent")
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["gevent", "True", "True", "False"]
