"""The host's admin area (``/admin``, docs/admin.md) and the password-reset page a host's link opens.

Only hosts (``users.is_admin``) see the area: a visitor is sent to log in, any other user gets 403,
on every route. Every change is a POST (so CSRF-checked by ``webapp.web.security``) and is written
to the audit log in the same transaction as the change itself.
"""

import contextlib
import sqlite3

from flask import (Blueprint, abort, current_app, flash, g, redirect, render_template, request, session,
                   url_for)

from webapp import accounts, hosttools
from webapp.game import play
from webapp.hosting.ratelimit import Window
from webapp.decks.packs import grant_pack, list_packs, source_label
from webapp.social import chat
from webapp.store import get_db, get_user, transaction
from webapp.store import admin as admin_store
from webapp.store.errors import StaleVersion, UserNotFound
from webapp.store.games import end_game, load_game, STATUSES
from webapp.store.settings import has_setting, set_setting
from webapp.store.users import user_count
from webapp.accounts.passwords import MAX_LENGTH, MIN_LENGTH, hash_password

bp = Blueprint("admin", __name__, url_prefix="/admin")
resets = Blueprint("reset", __name__)

#: Pack sources a host may grant (``webapp.decks.packs.source_label`` names them for players).
GRANT_SOURCES = ("gift", "win")
REASON_MAX = 200


@bp.before_request
def hosts_only():
    """Visitors log in first; users who are not hosts are refused (403) on every admin route."""
    if g.get("user") is None:
        return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
    if not g.user["is_admin"]:
        abort(403, description="This part of Brigade is for the server's host.")
    return None


def done(message, endpoint, **values):
    flash(message, "success")
    return redirect(url_for(endpoint, **values))


def refused(message, endpoint, **values):
    flash(message, "error")
    return redirect(url_for(endpoint, **values))


def form_int(name, low, high, default=None):
    """A whole number from the form within [low, high], or None."""
    raw = (request.form.get(name) or "").strip()
    if not raw and default is not None:
        return default
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if low <= value <= high else None


# ---------------------------------------------------------------- overview


@bp.get("/")
def index():
    db = get_db()
    return render_template(
        "admin/index.html", version=hosttools.version_running(),
        db_size=admin_store.db_size(current_app.config["DATABASE"]), last_backup=hosttools.last_backup(current_app.config["DATABASE"]),
        backup_dir=hosttools.backup_dir(current_app),
        mode=accounts.registration_mode(current_app.config, db),
        chosen=has_setting(db, accounts.MODE_SETTING),
        modes=accounts.REGISTRATION_MODES, settings=hosttools.shown_settings(current_app.config),
        active=admin_store.active_games_by_mode(db), users=user_count(db),
        audit=admin_store.list_audit(db, 10))


@bp.post("/backup")
def backup():
    db = get_db()
    record = hosttools.backup_now(current_app, db, g.user["id"])
    return done(f"Backed up to {record['path']} ({record['bytes']:,} bytes).", "admin.index")


@bp.post("/registration")
def registration():
    mode = request.form.get("mode")
    if mode not in accounts.REGISTRATION_MODES:
        return refused("Choose open, invite or closed.", "admin.index")
    db = get_db()
    with transaction(db):
        set_setting(db, accounts.MODE_SETTING, mode)
        admin_store.audit(db, g.user["id"], "registration mode", None, {"mode": mode})
    message = f"Registration is now {mode}."
    if mode == "invite" and accounts.registration_mode(current_app.config, db) == "closed":
        message += " No invitation code can be used yet: make one below, or nobody can register."
    return done(message, "admin.invitations" if mode == "invite" else "admin.index")


@bp.get("/audit")
def audit():
    return render_template("admin/audit.html", entries=admin_store.list_audit(get_db(), 500))


# ---------------------------------------------------------------- users


@bp.get("/users")
def users():
    query = (request.args.get("q") or "").strip()[:accounts.NAME_MAX]
    return render_template("admin/users.html", users=admin_store.search_users(get_db(), query), q=query)


def user_or_404(db, user_id):
    try:
        return get_user(db, user_id)
    except UserNotFound:
        abort(404)


@bp.get("/users/<int:user_id>")
def user(user_id):
    db = get_db()
    return render_user(db, user_or_404(db, user_id))


def render_user(db, person, reset_link=None):
    """One user's page; ``reset_link`` is shown once, on the page that answers its POST."""
    games = [r for r in admin_store.list_games(db, limit=1000)
             if person["name"] in (r["seat0"], r["seat1"])][:20]
    packs = list_packs(db, person["id"])
    return render_template("admin/user.html", person=person, games=games, packs=packs, source_label=source_label,
                           sources=GRANT_SOURCES, reset_link=reset_link,
                           config_host=hosttools.is_config_host(current_app.config, person["name"]))


@bp.post("/users/<int:user_id>/disable")
def disable(user_id):
    return set_disabled(user_id, True)


@bp.post("/users/<int:user_id>/enable")
def enable(user_id):
    return set_disabled(user_id, False)


def set_disabled(user_id, disabled):
    db = get_db()
    person = user_or_404(db, user_id)
    if disabled and user_id == g.user["id"]:
        return refused("You cannot disable your own account.", "admin.user", user_id=user_id)
    with transaction(db):
        admin_store.set_disabled(db, user_id, disabled)
        admin_store.audit(db, g.user["id"], "disable" if disabled else "enable", f"user:{user_id}",
                          {"name": person["name"]})
    word = "disabled: their sessions have ended and they cannot log in" if disabled else "enabled again"
    return done(f"{person['name']} is {word}.", "admin.user", user_id=user_id)


@bp.post("/users/<int:user_id>/host")
def make_host(user_id):
    db = get_db()
    person = user_or_404(db, user_id)
    host = request.form.get("host") != "0"
    if not host and user_id == g.user["id"]:
        return refused("You cannot stop being a host yourself: another host can do it.", "admin.user",
                       user_id=user_id)
    if not host and hosttools.is_config_host(current_app.config, person["name"]):
        return refused(f"{person['name']} is a host by HOST_ACCOUNTS in the server's config.py, which makes them "
                       "a host again at every start: take the name out there, then remove them here.",
                       "admin.user", user_id=user_id)
    with transaction(db):
        admin_store.set_host(db, user_id, host)
        admin_store.audit(db, g.user["id"], "make host" if host else "remove host", f"user:{user_id}",
                          {"name": person["name"]})
    return done(f"{person['name']} is {'now a host' if host else 'no longer a host'}.", "admin.user",
                user_id=user_id)


@bp.post("/users/<int:user_id>/reset-link")
def reset_link(user_id):
    """A one-time password-reset link for the host to hand over; shown once, on the next page."""
    db = get_db()
    person = user_or_404(db, user_id)
    with transaction(db):
        token = admin_store.create_reset(db, user_id, hosttools.reset_seconds(current_app.config))
        admin_store.audit(db, g.user["id"], "reset link", f"user:{user_id}", {"name": person["name"]})
    # Shown in this answer only: not in the URL (it would land in logs and history), not in the session
    # cookie (signed, not encrypted: anyone holding the cookie could read it), never cached.
    page = render_user(db, person, reset_link=url_for("reset.reset", token=token, _external=True))
    return page, 200, {"Cache-Control": "no-store"}


@bp.post("/users/<int:user_id>/grant-pack")
def grant(user_id):
    db = get_db()
    person = user_or_404(db, user_id)
    source = request.form.get("source") or GRANT_SOURCES[0]
    count = form_int("count", 1, 20, default=1)
    if source not in GRANT_SOURCES or count is None:
        return refused("Choose a kind of pack and 1 to 20 packs.", "admin.user", user_id=user_id)
    with transaction(db):
        ids = [grant_pack(db, user_id, source) for _ in range(count)]
        admin_store.audit(db, g.user["id"], "grant pack", f"user:{user_id}",
                          {"name": person["name"], "source": source, "packs": ids})
    return done(f"Gave {person['name']} {count} × {source_label(source)}.", "admin.user", user_id=user_id)


# ---------------------------------------------------------------- invitation codes


@bp.get("/invitations")
def invitations():
    db = get_db()
    return render_template("admin/invitations.html", codes=admin_store.list_codes(db),
                           mode=accounts.registration_mode(current_app.config, db))


@bp.post("/invitations")
def new_invitation():
    uses = form_int("uses", 1, 1000, default=1)
    days = form_int("days", 1, 3650, default=7)
    if uses is None or days is None:
        return refused("Uses: 1 to 1000; days: 1 to 3650.", "admin.invitations")
    note = (request.form.get("note") or "").strip()[:100]
    db = get_db()
    with transaction(db):
        code = admin_store.create_code(db, g.user["id"], uses, days, note)
        admin_store.audit(db, g.user["id"], "new invitation code", f"code:{code}",
                          {"uses": uses, "days": days, "note": note})
    message = f"New invitation code {code}: {uses} use{'s' if uses != 1 else ''}, for {days} days."
    if accounts.registration_mode(current_app.config, db) != "invite":
        message += " Registration is not in invite mode: switch it on the overview for codes to be asked for."
    return done(message, "admin.invitations")


@bp.post("/invitations/<code>/revoke")
def revoke_invitation(code):
    db = get_db()
    with transaction(db):
        if not admin_store.revoke_code(db, code):
            abort(404)
        admin_store.audit(db, g.user["id"], "revoke invitation code", f"code:{admin_store.normal_code(code)}")
    return done(f"The code {admin_store.normal_code(code)} admits nobody now.", "admin.invitations")


# ---------------------------------------------------------------- games


@bp.get("/games")
def games():
    status = request.args.get("status") or "active"
    if status not in (*STATUSES, "all"):
        abort(404)
    db = get_db()
    return render_template("admin/games.html", games=admin_store.list_games(db, None if status == "all" else status),
                           status=status, statuses=(*STATUSES, "all"))


@bp.post("/games/<int:game_id>/end")
def end(game_id):
    """End a stuck game (in progress or an open invitation) with the host's reason: it becomes
    "aborted" (players see "Abandoned"; nobody wins, nothing is rewarded)."""
    reason = (request.form.get("reason") or "").strip()[:REASON_MAX]
    if not reason:
        return refused("Say why the game is ended: the reason is recorded.", "admin.games")
    db = get_db()
    try:
        row = load_game(db, game_id)
    except LookupError:
        abort(404)
    if row["status"] not in ("active", "waiting"):
        return refused(f"Game {game_id} is over already.", "admin.games")
    result = {"winner": None, "reason": "host", "note": reason, "by": g.user["name"]}
    played = None
    try:
        with transaction(db):
            if row["status"] == "active":  # its state ends too, and both boards are told at once
                played = play.end_by_host(db, game_id, reason, by=g.user["name"])
            else:  # an open invitation: nothing was dealt
                end_game(db, game_id, row["version"], "aborted", result)
            admin_store.audit(db, g.user["id"], "end game", f"game:{game_id}",
                              {"reason": reason, "was": row["status"], "mode": row["mode"]})
    except StaleVersion:
        return refused(f"Game {game_id} moved on just now: look again and retry.", "admin.games")
    except play.Illegal:
        return refused(f"Game {game_id} is over already.", "admin.games")
    if played is not None:
        current_app.extensions["brigade_online"].ended_by_host(db, played)
    else:
        current_app.extensions["brigade_online"].cancelled(game_id)
    return done(f"Game {game_id} is ended.", "admin.games", status="aborted")


# ---------------------------------------------------------------- reported chat messages


@bp.get("/chat")
def chat_reports():
    """The chat messages players reported, newest report first (docs/admin.md "Reported chat")."""
    return render_template("admin/chat.html", messages=chat.reported(get_db()))


@bp.post("/chat/<int:message_id>/dismiss")
def dismiss_report(message_id):
    """Close a message's open reports (the host read it and dealt with it); written to the audit log."""
    db = get_db()
    with transaction(db):
        closed = chat.dismiss(db, message_id, g.user["id"])
        if closed:
            admin_store.audit(db, g.user["id"], "dismiss chat report", f"message:{message_id}", {"reports": closed})
    if not closed:
        return refused("That message has no open report.", "admin.chat_reports")
    return done("The report is dismissed.", "admin.chat_reports")


# ---------------------------------------------------------------- the reset page


@resets.route("/reset/<token>", methods=("GET", "POST"))
def reset(token):
    """Set a new password with a host's one-time link; the link works once and expires."""
    db = get_db()
    user_id = admin_store.reset_user(db, token) if len(token) <= 100 else None
    if user_id is None:
        return render_template("admin/reset.html", gone=True, min_length=MIN_LENGTH, max_length=MAX_LENGTH), 404
    name = get_user(db, user_id)["name"]
    error = None
    if request.method == "POST":
        password = request.form.get("password") or ""
        error = accounts.password_error(password, name)
        if error is None and password != (request.form.get("confirm") or ""):
            error = "The two passwords differ."
        if error is None:
            if admin_store.use_reset(db, token, hash_password(password)) is None:
                return render_template("admin/reset.html", gone=True, min_length=MIN_LENGTH,
                                       max_length=MAX_LENGTH), 404
            with transaction(db):
                admin_store.audit(db, user_id, "password reset used", f"user:{user_id}", {"name": name})
            session.clear()
            flash(f"The password of {name} is set. Log in with it.", "success")
            return redirect(url_for("auth.login"))
    return render_template("admin/reset.html", gone=False, name=name, error=error, min_length=MIN_LENGTH,
                           max_length=MAX_LENGTH), 400 if error else 200


#: Seconds between two ``last_seen`` writes for one user.
SEEN_EVERY = 300


def seen():
    """Before each request of a logged-in user: note when they were last seen, at most every
    SEEN_EVERY seconds per user (a write on every request would cost the server), never failing."""
    user = g.get("user")
    if user is None or request.path.startswith("/static/"):
        return
    if current_app.extensions["brigade_seen"].take(user["id"]):
        with contextlib.suppress(sqlite3.OperationalError):  # busy or read-only: next time
            admin_store.mark_seen(get_db(), user["id"])


def init_app(app):
    """The admin blueprint, the reset page, last-seen times, and the HOST_ACCOUNTS made hosts at start."""
    app.extensions["brigade_seen"] = Window(1, SEEN_EVERY)
    app.before_request(seen)
    app.register_blueprint(bp)
    app.register_blueprint(resets)
    hosttools.config_hosts(app)
