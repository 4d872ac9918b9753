"""The session interface that remembers verified cookies (webapp/web/sessions.py): same answers as
Flask's own for good, tampered, expired and missing cookies, and a copy each time."""

import time

from flask import Flask, session

from webapp.web.sessions import RememberingCookieSessions


def make_app(secret="s3cret", lifetime=3600):
    app = Flask("t")
    app.secret_key = secret
    app.config["PERMANENT_SESSION_LIFETIME"] = lifetime
    app.session_interface = RememberingCookieSessions(size=2)

    @app.get("/set/<int:uid>")
    def set_user(uid):
        session["user_id"] = uid
        session["tags"] = ["a"]
        return "ok"

    @app.get("/who")
    def who():
        out = f"{session.get('user_id')}:{','.join(session.get('tags', []))}"
        session.setdefault("tags", []).append("changed")  # must not leak into the remembered copy
        session.modified = False
        return out

    return app


def cookie_of(client):
    return client.get_cookie("session").value


def test_a_good_cookie_reads_the_same_every_time_and_each_reader_gets_its_own_copy():
    app = make_app()
    c = app.test_client()
    c.get("/set/7")
    assert [c.get("/who").text for _ in range(3)] == ["7:a"] * 3
    assert len(app.session_interface.known) == 1


def test_a_tampered_cookie_is_an_empty_session_and_is_not_remembered():
    app = make_app()
    c = app.test_client()
    c.get("/set/7")
    good = cookie_of(c)
    c.set_cookie("session", good[:-2] + ("AA" if not good.endswith("AA") else "BB"))
    assert c.get("/who").text == "None:"
    assert list(app.session_interface.known) == []


def test_another_secret_key_does_not_recognise_a_remembered_cookie():
    app = make_app()
    c = app.test_client()
    c.get("/set/7")
    good = cookie_of(c)
    assert c.get("/who").text == "7:a"
    app.secret_key = "another"
    c.set_cookie("session", good)
    assert c.get("/who").text == "None:"


def test_an_expired_signature_is_refused_even_when_remembered(monkeypatch, clock):
    app = make_app(lifetime=60)
    c = app.test_client()
    c.get("/set/7")
    assert c.get("/who").text == "7:a"
    clock.advance(120)  # the remembered session's expiry has passed on the app's clock
    later = time.time() + 120
    monkeypatch.setattr(time, "time", lambda: later)  # ... and on the signature's (itsdangerous reads time.time)
    assert c.get("/who").text == "None:"


def test_only_the_last_few_cookies_are_kept():
    app = make_app()
    for uid in range(5):
        c = app.test_client()
        c.get(f"/set/{uid}")
        assert c.get("/who").text == f"{uid}:a"
    assert len(app.session_interface.known) == 2
