"""Request and socket-event log lines (webapp/hosting/hostlog.py): what they hold, and what they never hold."""

import io
import json
import logging
import os
import re
import signal
import subprocess
import sys

import pytest

from tests.online.helpers import wait_until
from webapp import ROOT
from webapp.hosting import hostlog

from .conftest import PASSWORD, post


def request_lines(caplog):
    return [r for r in caplog.records if r.name == "brigade.request"]


def test_one_line_per_request_without_password_cookie_or_query(app, caplog):
    caplog.set_level(logging.DEBUG)
    client = app.test_client()
    post(client, "/register", {"name": "carol", "password": PASSWORD, "confirm": PASSWORD})
    client.get("/decks?next=%2Fsecret-place&code=SECRETCODE")
    post(client, "/logout")
    post(client, "/login", {"name": "carol", "password": PASSWORD})
    lines = request_lines(caplog)
    messages = [r.getMessage() for r in lines]
    assert any(m.startswith("POST /register 302 ") and m.endswith("user=1") for m in messages), messages
    assert any(m.startswith("GET /decks 200 ") for m in messages), messages
    assert any(m.startswith("POST /login 302 ") for m in messages), messages
    cookie = client.get_cookie("session").value
    everything = "\n".join(caplog.text.splitlines() + [str(r.__dict__) for r in caplog.records])
    for secret in (PASSWORD, "secret-place", "SECRETCODE", cookie, "csrf"):
        assert secret not in everything, secret
    register = next(r for r in lines if r.getMessage().startswith("POST /register"))
    assert (register.method, register.path, register.status, register.user) == ("POST", "/register", 302, 1)
    assert register.ms >= 0


def test_secret_parts_of_a_path_are_hidden(app, caplog, make_user):
    caplog.set_level(logging.INFO)
    client = app.test_client()
    client.get("/reset/SoMeSeCrEtToKeN")
    client.get("/join/ABCDEFGHJK")
    text = "\n".join(r.getMessage() for r in request_lines(caplog))
    assert "SoMeSeCrEtToKeN" not in text and "ABCDEFGHJK" not in text
    assert "GET /reset/… 404" in text


def test_errors_are_logged_with_their_traceback(app, caplog):
    @app.get("/boom-for-test")
    def boom():
        raise RuntimeError("kaboom")
    app.config["PROPAGATE_EXCEPTIONS"] = False
    caplog.set_level(logging.INFO)
    r = app.test_client().get("/boom-for-test")
    assert r.status_code == 500
    errors = [rec for rec in caplog.records if rec.levelno >= logging.ERROR]
    assert errors and errors[0].exc_info and "kaboom" in str(errors[0].exc_info[1])
    assert errors[0].getMessage() == "Exception on /boom-for-test [GET]"
    assert any(m.getMessage().startswith("GET /boom-for-test 500") for m in request_lines(caplog))


def test_json_lines_carry_the_fields_and_tracebacks():
    f = hostlog.formatter("json")
    record = logging.LogRecord("brigade.request", logging.INFO, __file__, 1, "GET %s", ("/x",), None)
    record.method, record.path, record.status, record.ms, record.user = "GET", "/x", 200, 1.5, 7
    line = json.loads(f.format(record))
    assert line["message"] == "GET /x" and line["status"] == 200 and line["user"] == 7 and line["level"] == "INFO"
    try:
        raise ValueError("bad")
    except ValueError:
        import sys
        err = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    assert "ValueError: bad" in json.loads(f.format(err))["traceback"]


def test_log_event_for_the_socket_layer(caplog):
    caplog.set_level(logging.INFO)
    hostlog.log_event("action", 3, 12.345, "ok")
    rec = [r for r in caplog.records if r.name == "brigade.socket"][-1]
    assert rec.getMessage() == "event action ok 12.3ms user=3"
    assert (rec.event, rec.outcome, rec.user) == ("action", "ok", 3)
    hostlog.log_event("connect", None, None, "refused")  # no time, no user
    assert [r for r in caplog.records if r.name == "brigade.socket"][-1].getMessage() == "event connect refused - user=-"


def test_level_and_format_settings(tmp_path):
    from webapp import create_app
    create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "i", "LOG_LEVEL": "warning", "LOG_FORMAT": "json"})
    assert logging.getLogger().level == logging.WARNING
    assert isinstance(hostlog._handler.formatter, hostlog.JsonFormatter)
    import pytest
    with pytest.raises(SystemExit):
        hostlog.configure({"LOG_LEVEL": "LOUD"})
    hostlog.configure({})
    assert logging.getLogger().level == logging.INFO


def test_an_error_on_a_secret_path_does_not_log_the_secret(app, caplog, monkeypatch):
    from webapp.store import admin as admin_store

    def broken(db, token):
        raise RuntimeError("the store broke")
    monkeypatch.setattr(admin_store, "reset_user", broken)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    caplog.set_level(logging.INFO)
    assert app.test_client().get("/reset/TopSecretToken123").status_code == 500
    assert "TopSecretToken123" not in caplog.text
    assert "Exception on /reset/… [GET]" in caplog.text


@pytest.fixture
def alone(monkeypatch):
    """alone(settings) -> a StringIO the host log's handler writes to, the root logger's only handler
    (pytest's capturing handlers set aside); pytest's and a handler on the real stderr put back after."""
    root = logging.getLogger()
    saved = list(root.handlers)

    def configure(settings):
        stream = io.StringIO()
        monkeypatch.setattr(sys, "stderr", stream)
        root.handlers = [h for h in root.handlers if h is hostlog._handler]
        hostlog.configure(settings)
        return stream
    yield configure
    monkeypatch.undo()
    hostlog._handler.close()
    root.handlers = [h for h in saved if not isinstance(h, hostlog.BufferedHandler)]
    hostlog._handler = None
    hostlog.configure({})


def test_socket_lines_wait_and_are_written_together_in_their_format(alone):
    stderr = alone({"LOG_LEVEL": "INFO"})
    handler = hostlog._handler
    assert isinstance(handler, hostlog.BufferedHandler) and hostlog.only_to(handler)
    hostlog.log_event("action", 3, 12.345, "ok")
    hostlog.log_event("connect", None, None, "refused")
    assert stderr.getvalue() == ""  # waiting: written together
    handler.flush()
    lines = stderr.getvalue().splitlines()
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}"
    assert re.fullmatch(stamp + " INFO brigade.socket: event action ok 12.3ms user=3", lines[0])
    assert re.fullmatch(stamp + " INFO brigade.socket: event connect refused - user=-", lines[1])
    logging.getLogger("brigade.game").warning("a warning")  # written at once, after what waited
    hostlog.log_event("leave", 4, 1.0, "ok")
    assert stderr.getvalue().splitlines()[2].endswith("WARNING brigade.game: a warning")
    assert len(stderr.getvalue().splitlines()) == 3
    handler.delay = 0.05  # the timer writes a line nobody follows
    hostlog.log_event("join", 4, 2.0, "ok")
    wait_until(lambda: len(stderr.getvalue().splitlines()) == 5)
    assert stderr.getvalue().splitlines()[3].endswith("event leave ok 1.0ms user=4")


def test_socket_lines_as_json_hold_the_same_fields_both_ways(alone):
    stderr = alone({"LOG_LEVEL": "INFO", "LOG_FORMAT": "json"})
    assert hostlog.only_to(hostlog._handler)
    hostlog.log_event("action", 3, 12.345, "stale")  # the short path
    seen = []
    listener = logging.Handler()
    listener.emit = seen.append
    logging.getLogger("brigade").addHandler(listener)  # someone else listens: the ordinary logging path
    try:
        assert not hostlog.only_to(hostlog._handler)
        hostlog.log_event("action", 3, 12.345, "stale")
    finally:
        logging.getLogger("brigade").removeHandler(listener)
    assert [(r.event, r.user) for r in seen] == [("action", 3)]
    hostlog._handler.close()  # writes what waits
    both = [json.loads(line) for line in stderr.getvalue().splitlines()]
    assert len(both) == 2
    for line in both:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", line.pop("time"))
    assert both[0] == both[1] == {"level": "INFO", "logger": "brigade.socket", "message": "event action stale 12.3ms user=3",
                                  "event": "action", "outcome": "stale", "ms": 12.3, "user": 3}


def test_a_sigterm_writes_the_waiting_lines_and_still_stops_the_process():
    code = ("import os, signal\n"
            "from webapp.hosting import hostlog\n"
            "hostlog.configure({'LOG_LEVEL': 'INFO'})\n"
            "hostlog._handler.delay = 60\n"  # a line that would wait a minute
            "hostlog.log_event('action', 3, 1.0, 'ok')\n"
            "os.kill(os.getpid(), signal.SIGTERM)\n"
            "signal.pause()\n")  # the SIGTERM's end comes here (a process that outlived it would hang: the timeout)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert run.returncode == -signal.SIGTERM
    assert run.stderr.endswith("INFO brigade.socket: event action ok 1.0ms user=3\n"), run.stderr
