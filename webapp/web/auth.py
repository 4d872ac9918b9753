"""Register, log in, log out: forms in, one call to ``webapp.accounts``, a page or a redirect out."""

from flask import (Blueprint, current_app, flash, g, redirect, render_template, request, session,
                   url_for)
from flask_babel import gettext

from webapp import accounts, i18n
from webapp.store import get_db, transaction
from webapp.store.users import revoke_sessions
from webapp.accounts.passwords import MAX_LENGTH, MIN_LENGTH
from webapp.web.security import csrf_token, device_users, remember_device, safe_next

bp = Blueprint("auth", __name__)


@bp.route("/register", methods=("GET", "POST"))
def register():
    """Show the registration form; make the account and log it in."""
    next_url = safe_next(request.values.get("next"))
    if g.user is not None:
        return redirect(next_url or url_for("pages.index"))
    mode = accounts.registration_mode(current_app.config, get_db())
    if request.method == "GET":
        return render_register(mode, next_url)
    form = request.form
    try:
        user = accounts.register(get_db(), current_app.config, form.get("name"), form.get("password"),
                                 form.get("confirm"), invite_code=form.get("invite_code"),
                                 guard=guard(), address=request.remote_addr)
    except accounts.Throttled as exc:
        return render_register(mode, next_url, errors={"form": str(exc)}, status=429, wait=exc.wait)
    except accounts.RegistrationRefused as exc:
        return render_register(mode, next_url, errors=exc.errors, status=403 if mode == "closed" else 400)
    start_session(user)
    flash(gettext("Welcome to Brigade, %(name)s!", name=user["name"]), "success")
    return remember_device(redirect(next_url or url_for("pages.index")), user["id"])


@bp.route("/login", methods=("GET", "POST"))
def login():
    """Show the login form; log the user in."""
    next_url = safe_next(request.values.get("next"))
    if g.user is not None:
        return redirect(next_url or url_for("pages.index"))
    if request.method == "GET":
        return render_login(next_url)
    try:
        user = accounts.log_in(get_db(), guard(), request.form.get("name"), request.form.get("password"),
                               request.remote_addr, device=device_users())
    except accounts.Throttled as exc:
        return render_login(next_url, error=str(exc), status=429, wait=exc.wait)
    except accounts.LoginFailed as exc:
        return render_login(next_url, error=str(exc), status=401)
    start_session(user)
    i18n.logged_in(user)  # the greeting in the account's language
    flash(gettext("Welcome back, %(name)s.", name=user["name"]), "success")
    return remember_device(redirect(next_url or url_for("pages.index")), user["id"])


@bp.post("/logout")
def logout():
    """Log out everywhere and go to the landing page: the user's session version moves on, so every
    cookie made before (this browser's, another device's, a copy someone captured) stops working for
    pages and sockets alike (docs/security.md)."""
    if g.user is not None:
        db = get_db()
        with transaction(db):
            revoke_sessions(db, g.user["id"])
    session.clear()
    flash(gettext("You have logged out."), "info")
    return redirect(url_for("pages.index"))


def start_session(user):
    """A fresh session for ``user``: nothing from before the login survives, the CSRF token included."""
    session.clear()
    session.permanent = True  # stay logged in across browser restarts (PERMANENT_SESSION_LIFETIME)
    session["user_id"] = user["id"]
    session["sv"] = user.get("session_version", 0)  # checked on every request and socket connect
    csrf_token()


def guard():
    """The app's accounts.LoginGuard."""
    return current_app.extensions["login_throttle"]


def render_register(mode, next_url, errors=None, status=200, wait=None):
    response = current_app.make_response((render_template(
        "auth/register.html", mode=mode, next_url=next_url, errors=errors or {},
        name=(request.form.get("name") or "").strip()[:accounts.NAME_MAX * 4],
        name_max=accounts.NAME_MAX, min_length=MIN_LENGTH, max_length=MAX_LENGTH), status))
    if wait:
        response.headers["Retry-After"] = str(wait)
    return response


def render_login(next_url, error=None, status=200, wait=None):
    response = current_app.make_response((render_template(
        "auth/login.html", next_url=next_url, error=error,
        name=(request.form.get("name") or "").strip()[:accounts.NAME_MAX * 4],
        name_max=accounts.NAME_MAX, max_length=MAX_LENGTH), status))
    if wait:
        response.headers["Retry-After"] = str(wait)
    return response
