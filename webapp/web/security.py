"""Who is asking, and may they: the signed-cookie session user (and its revocation), CSRF tokens,
the rate limits of the web pages, the security headers of every response, and the error pages.

Every setting read here has its default and meaning in webapp/config.py (the one list; docs/security.md
explains them); a host overrides them in ``instance/config.py``.
"""

import functools
import hmac
import logging
import secrets
import sqlite3
from urllib.parse import urlsplit

from flask import abort, current_app, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from itsdangerous import BadSignature, URLSafeTimedSerializer
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import BuildError

from webapp import accounts
from webapp.hosting.ratelimit import Window
from webapp.store import db as store_db
from webapp.store import get_db
from webapp.store.users import get_user
from webapp.store.users import session_version as store_session_version
from webapp.accounts import passwords
from webapp.web.sessions import RememberingCookieSessions

log = logging.getLogger(__name__)

CSRF_FIELD = "csrf_token"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

DEVICE_COOKIE = "brigade_device"
DEVICE_SALT = "brigade-device"
DEVICE_MAX_USERS = 8


# ---------------------------------------------------------------- sessions


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
        abort(400, description=_("This form has expired or did not come from Brigade (CSRF check failed). "
                                 "Reload the page and try again."))
    return None


def load_user():
    """Put the logged-in user (or None) on flask.g for this request. A session whose version is not
    the user's any more (they logged out since) was already emptied by the session interface."""
    uid = session.get("user_id")
    g.user = None
    if uid is not None:
        try:
            g.user = get_user(get_db(), uid)
        except LookupError:
            session.clear()
        if g.user is not None and g.user.get("disabled"):  # disabled by a host (docs/admin.md)
            g.user = None
            session.clear()


def login_required(view):
    """Send visitors to the login page, then back."""
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if g.get("user") is None:
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)
    return wrapped


def session_version(app, user_id):
    """The user's current session version (``users.session_version``), or None without such a user.

    Read by the session interface each time it opens a session: for every HTTP request, and for
    each Socket.IO connection (its events then keep the session of their connect)."""
    if not app.config.get("DATABASE"):
        return 0
    return store_session_version(get_db(), user_id)


# ---------------------------------------------------------------- known devices


def device_serializer():
    return URLSafeTimedSerializer(current_app.secret_key, salt=DEVICE_SALT)


def device_users():
    """The user ids this browser has logged in as (its signed ``brigade_device`` cookie), or ()."""
    value = request.cookies.get(DEVICE_COOKIE)
    if not value or len(value) > 1000:
        return ()
    max_age = int(current_app.config["LOGIN_DEVICE_DAYS"]) * 86400
    try:
        ids = device_serializer().loads(value, max_age=max_age)
    except BadSignature:
        return ()
    return tuple(i for i in ids if isinstance(i, int)) if isinstance(ids, list) else ()


def remember_device(response, user_id):
    """Mark this browser as one ``user_id`` logs in from (accounts.LoginGuard lets it in while
    strangers are held back)."""
    ids = [i for i in device_users() if i != user_id][-(DEVICE_MAX_USERS - 1):] + [user_id]
    response.set_cookie(DEVICE_COOKIE, device_serializer().dumps(ids),
                        max_age=int(current_app.config["LOGIN_DEVICE_DAYS"]) * 86400, httponly=True,
                        samesite="Lax", secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")))
    return response


# ---------------------------------------------------------------- headers and error pages


def security_headers(response):
    """The headers every page and file is served with (docs/security.md)."""
    headers = response.headers
    policy = current_app.config.get("CONTENT_SECURITY_POLICY")
    if policy:
        headers.setdefault("Content-Security-Policy", policy)
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    # Same origin only: an invitation link (/join/<code>) never leaves in a Referer header.
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    return response


#: Titles of the error pages; the message is the error's own description when it has one.
ERROR_TITLES = {400: _l("That request did not work"), 403: _l("Not for you"), 404: _l("Nothing here"),
                405: _l("Not like that"), 409: _l("Not now"), 413: _l("Too large"), 429: _l("Slow down"),
                500: _l("Something went wrong"), 503: _l("Brigade is busy")}
PLAIN_MESSAGES = {
    404: _l("There is no page at this address. It may have been a game or an invitation that is gone, "
            "or a link that was mistyped."),
    500: _l("The server could not finish this. Nothing you did caused it; it has been logged. "
            "Go back and try again."),
    503: _l("The game's storage is busy or cannot be written to just now. Nothing was lost: wait a "
            "moment and try again."),
}


def error_page(status, message=None, retry_after=None):
    """The styled error page (templates/errors/error.html) as a response."""
    message = message or PLAIN_MESSAGES.get(status) or _l("That did not work.")
    response = current_app.make_response((render_template(
        "errors/error.html", status=status, title=ERROR_TITLES.get(status, _l("That did not work")),
        message=message), status))
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


def http_error(exc):
    """An HTTPException (abort(404), a CSRF refusal…) as the styled page with its description."""
    if exc.code is None or exc.code < 400:
        return exc
    described = exc.description if exc.description != type(exc).description else None
    response = error_page(exc.code, described)
    for key in ("Retry-After", "Allow"):
        if exc.get_response().headers.get(key):
            response.headers[key] = exc.get_response().headers[key]
    return response


def database_error(exc):
    """A locked, read-only or full database: the "try again" 503 page, logged once per kind."""
    kind = store_db.trouble(exc)
    if kind is None:
        log.error("a database error on %s %s", request.method, request.path, exc_info=exc)
        return error_page(500)
    if current_app.extensions["brigade_limits"]["db_trouble_log"].take(kind):
        log.error("the database is %s (%s): pages answer 503 'try again' until it is not; "
                  "this is logged once in 10 minutes", kind, exc)
    return error_page(503, retry_after=5)


def server_error(exc):
    """Any other failure: the styled 500 page (Flask has logged the traceback already)."""
    original = getattr(exc, "original_exception", None)
    if store_db.trouble(original):
        return database_error(original)
    return error_page(500)


# ---------------------------------------------------------------- the app's limits


def limits_of(config):
    """The web pages' rate limits (webapp.hosting.ratelimit.Window), by name."""
    return {
        "join_user": Window(config["JOIN_CODE_LIMIT"], config["JOIN_CODE_WINDOW"]),
        "join_address": Window(config["JOIN_CODE_LIMIT"], config["JOIN_CODE_WINDOW"]),
        "replays": Window(config["REPLAY_LIMIT"], config["REPLAY_WINDOW"]),
        "hints": Window(config["HINT_LIMIT"], config["HINT_WINDOW"]),
        "solo_games": Window(config["SOLO_GAME_LIMIT"], config["SOLO_GAME_WINDOW"]),
        # Each kind of database trouble ("locked", "readonly") is logged once in 10 minutes, not
        # once per request.
        "db_trouble_log": Window(1, 600),
    }


def nav_url(endpoint, **values):
    """url_for, or None when the endpoint does not exist (the nav shows only what is there)."""
    try:
        return url_for(endpoint, **values)
    except BuildError:
        return None


def init_app(app):
    """Session cookie settings, CSRF on every POST, g.user on every request, headers, error pages,
    rate limits."""
    # Flask's defaults already hold these keys (SameSite None, Secure False): set, don't setdefault
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    if app.config.get("SESSION_COOKIE_SAMESITE") is None:
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    if app.config.get("PREFERRED_URL_SCHEME") == "https":
        app.config["SESSION_COOKIE_SECURE"] = True
    if app.config.get("PROXY_FIX"):  # behind nginx: the client's address from X-Forwarded-For
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    app.session_interface = RememberingCookieSessions(version_of=session_version)
    app.before_request(load_user)
    app.before_request(check_csrf)
    app.after_request(security_headers)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(sqlite3.OperationalError, database_error)
    app.register_error_handler(500, server_error)
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["nav_url"] = nav_url
    app.extensions["login_throttle"] = accounts.LoginGuard(app.config)
    app.extensions["brigade_limits"] = limits_of(app.config)
    passwords.set_concurrency(app.config["PASSWORD_HASH_CONCURRENCY"])


def safe_next(target):
    """``target`` if it is a path on this site, else None (no open redirects)."""
    if not target or len(target) > 2000:
        return None
    # Browsers drop tabs and newlines and read "\" as "/", which turns "/\t/evil" or "/\evil"
    # into "//evil", another host.
    if "\\" in target or any(ord(c) < 32 or ord(c) == 127 for c in target):
        return None
    if not target.startswith("/") or target.startswith("//"):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


def spent(limit, key):
    """Count one use of the rate limit ``limit`` (``limits_of``) for ``key``; the seconds to wait when
    it is spent (nothing counted then), else 0."""
    window = current_app.extensions["brigade_limits"][limit]
    return 0 if window.take(key) else window.wait(key)
