"""Request and socket-event log lines (webapp/hosting/hostlog.py): what they hold, and what they never hold."""

import json
import logging

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
