"""Who is asking, and may they: the signed-cookie session user, CSRF tokens, login throttling."""

import functools
import hmac
import math
import secrets
import time

from flask import abort, g, redirect, request, session, url_for

from webapp.store import get_db
from webapp.store.users import get_user
from webapp.web.sessions import RememberingCookieSessions

CSRF_FIELD = "csrf_token"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def csrf_token():
    """The session's CSRF token (made on first use); forms put it in a hidden field."""
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def check_csrf():
    """Refuse any state-changing request without the session's token (form field or X-CSRF-Token)."""
    if request.method in SAFE_METHODS:
        return None
    sent = request.form.get(CSRF_FIELD) or request.headers.get("X-CSRF-Token") or ""
    token = session.get("csrf") or ""
    if not token or not hmac.compare_digest(sent, token):
        abort(400, description="This form has expired or did not come from Brigade (CSRF check failed). "
                               "Reload the page and try again.")
    return None


def load_user():
    """Put the logged-in user (or None) on flask.g for this request."""
    uid = session.get("user_id")
    g.user = None
    if uid is not None:
        try:
            g.user = get_user(get_db(), uid)
        except LookupError:
            session.clear()


def login_required(view):
    """Send visitors to the login page, then back."""
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if g.get("user") is None:
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)
    return wrapped


class Throttle:
    """Failed attempts per key in a sliding window (in memory, per process): login rate limiting."""

    def __init__(self, limit, window, clock=time.monotonic):
        self.limit, self.window = limit, window
        self.clock = clock  # tests stop it, so a wait in seconds does not depend on how fast they run
        self.hits = {}

    def _recent(self, key, now):
        times = [t for t in self.hits.get(key, ()) if now - t < self.window]
        if times:
            self.hits[key] = times
        else:
            self.hits.pop(key, None)
        return times

    def blocked(self, key, now=None):
        """Seconds to wait before the next try, or 0."""
        now = self.clock() if now is None else now
        times = self._recent(key, now)
        if len(times) < self.limit:
            return 0
        return max(1, math.ceil(self.window - (now - times[0])))

    def fail(self, key, now=None):
        now = self.clock() if now is None else now
        self.hits.setdefault(key, []).append(now)

    def clear(self, key):
        self.hits.pop(key, None)


def nav_url(endpoint, **values):
    """url_for, or None when the endpoint does not exist (the nav shows only what is there)."""
    from flask import url_for as build
    from werkzeug.routing import BuildError
    try:
        return build(endpoint, **values)
    except BuildError:
        return None


def init_app(app):
    """Session cookie settings, CSRF on every POST, g.user on every request."""
    # Flask's defaults already hold these keys (SameSite None, Secure False): set, don't setdefault
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    if app.config.get("SESSION_COOKIE_SAMESITE") is None:
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    if app.config.get("PREFERRED_URL_SCHEME") == "https":
        app.config["SESSION_COOKIE_SECURE"] = True
    if app.config.get("PROXY_FIX"):  # behind nginx: the client's address from X-Forwarded-For
        from werkzeug.middleware.proxy_fix import ProxyFix
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    app.session_interface = RememberingCookieSessions()
    app.before_request(load_user)
    app.before_request(check_csrf)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["nav_url"] = nav_url
    app.extensions["login_throttle"] = {
        "account": Throttle(app.config.get("LOGIN_LIMIT_ACCOUNT", 5), app.config.get("LOGIN_WINDOW", 300)),
        "address": Throttle(app.config.get("LOGIN_LIMIT_ADDRESS", 20), app.config.get("LOGIN_WINDOW", 300)),
    }
