"""What a host does to the server beyond the game (docs/admin.md): host accounts (the command line's
``admin create-host NAME`` and the ``HOST_ACCOUNTS`` setting), password-reset links, backups from the
admin page, the database's size, the version running, and which settings can change at run time.

The pages (``webapp.web.admin``) and the command line call these; the store's queries are in
``webapp.store.admin``.
"""

import argparse
import functools
import logging
import os
import secrets
import subprocess
from importlib import metadata

from flask import Config

from webapp import clock
from webapp.accounts import name_error
from webapp.config import DEFAULTS
from webapp.decks.packs import grant_starter
from webapp.serving import ROOT
from webapp.store import connect, migrate, transaction
from webapp.store.admin import audit, create_reset, set_host
from webapp.store.files import backup, configured_path, last_backup
from webapp.store.users import create_user, get_user_by_name
from webapp.accounts.passwords import hash_password

log = logging.getLogger(__name__)

#: Seconds a password-reset link works (app setting ``RESET_LINK_HOURS`` overrides, in hours).
RESET_LINK_HOURS = DEFAULTS["RESET_LINK_HOURS"]

#: The settings a host can see on the admin page: (key, what it does). Only the registration mode
#: changes at run time (it is stored in the database); the others are read from instance/config.py
#: at start, so changing them means editing that file and restarting.
SHOWN_SETTINGS = (
    ("REGISTRATION", "registration mode at start (the admin page's choice overrides it)"),
    ("INVITE_CODE", "one fixed invite code from config.py"),
    ("HOST_ACCOUNTS", "names made hosts at start"),
    ("COLLECTION", "'earn' or 'all': every card owned"),
    ("MAX_ACTIVE_GAMES", "CPU and story games in progress per player"),
    ("LOGIN_LIMIT_ADDRESS", "failed log-ins per address"),
    ("REGISTER_LIMIT_ADDRESS", "accounts made per address"),
    ("PROXY_FIX", "behind nginx: the client's address from X-Forwarded-For"),
    ("LOG_LEVEL", "log level (DEBUG, INFO, WARNING…)"),
    ("LOG_FORMAT", "'text' or 'json' log lines"),
    ("METRICS_TOKEN", "bearer token for /metrics from other machines"),
    ("BACKUP_DIR", "where 'Back up now' writes"),
    ("PUBLIC_URL", "the site's address, for links the command line prints"),
)
#: Settings whose values are secrets: the page says only whether they are set.
SECRET_SETTINGS = {"INVITE_CODE", "METRICS_TOKEN", "SECRET_KEY"}


def reset_seconds(config):
    return int(float(config.get("RESET_LINK_HOURS", RESET_LINK_HOURS)) * 3600)


def reset_path(token):
    """The path of the reset page for ``token`` (``webapp.web.admin``'s ``/reset/<token>``)."""
    return f"/reset/{token}"


def make_host(db, config, name, actor_id=None):
    """Make ``name`` a host: mark an existing user, or create the account with an unusable password.
    Returns (user, token): ``token`` is a fresh password-reset token for a new account, else None."""
    name = (name or "").strip()
    if problem := name_error(name):
        raise ValueError(problem)
    with transaction(db):
        user = get_user_by_name(db, name)
        token = None
        if user is None:
            # Nobody knows this password: the host sets their own through the reset link.
            user = create_user(db, name, hash_password(secrets.token_urlsafe(32)), is_admin=True)
            grant_starter(db, user["id"])
            token = create_reset(db, user["id"], reset_seconds(config))
            action = "create host"
        else:
            set_host(db, user["id"], True)
            action = "make host"
        audit(db, actor_id, action, f"user:{user['id']}", {"name": user["name"]})
    return get_user_by_name(db, name), token


def config_host_names(config):
    """The names of ``HOST_ACCOUNTS`` (a list, or one string of names split by commas or spaces), in
    order. The setting wins over the admin area: it makes these hosts at every start, so the admin
    area does not offer to remove them (webapp/web/admin.py ``make_host``)."""
    names = config.get("HOST_ACCOUNTS") or ()
    if isinstance(names, str):
        names = [n for n in names.replace(",", " ").split() if n]
    return list(names)


def is_config_host(config, name):
    """Whether ``name`` is one of ``HOST_ACCOUNTS`` (names compare ignoring case, as accounts do)."""
    return name.lower() in {n.lower() for n in config_host_names(config)}


def config_hosts(app):
    """Make every name in the ``HOST_ACCOUNTS`` setting a host at start; a new account's one-time
    reset link is logged (stderr: journald) for the host to open."""
    names = config_host_names(app.config)
    if not names or not app.config.get("DATABASE"):
        return

    db = connect(app.config["DATABASE"])
    try:
        for name in names:
            existing = get_user_by_name(db, name)
            if existing is not None and existing["is_admin"]:
                continue
            try:
                user, token = make_host(db, app.config, name)
            except ValueError as exc:
                log.error("HOST_ACCOUNTS: %r is not a possible name: %s", name, exc)
                continue
            if token:
                log.warning("HOST_ACCOUNTS: made the host account %s; set its password at %s%s "
                            "(works once, for %d hours)", user["name"], public_url(app.config),
                            reset_path(token), reset_seconds(app.config) // 3600)
            else:
                log.info("HOST_ACCOUNTS: %s is a host", user["name"])
    finally:
        db.close()


def public_url(config):
    """The site's address for links printed outside a request (``PUBLIC_URL``), without a final /."""
    return str(config.get("PUBLIC_URL") or "http://127.0.0.1:5000").rstrip("/")


# ---------------------------------------------------------------- the server's state


def backup_dir(app):
    return app.config.get("BACKUP_DIR") or os.path.join(app.instance_path, "backups")


def backup_now(app, db, actor_id=None):
    """Back the database up into BACKUP_DIR (SQLite's online backup, safe while playing); audit it.
    Returns the record {"at", "path", "bytes"}."""
    folder = backup_dir(app)
    os.makedirs(folder, exist_ok=True)
    stamp = clock.utcnow().strftime("%Y%m%d-%H%M%S-%f")
    dest = os.path.join(folder, f"brigade-{stamp}.db")
    backup(app.config["DATABASE"], dest, quiet=True)  # records it (record_backup)
    record = last_backup(app.config["DATABASE"])
    with transaction(db):
        audit(db, actor_id, "backup", None, {"path": dest, "bytes": record["bytes"]})
    return record


@functools.lru_cache(maxsize=1)
def version_running():
    """The package version and, in a git checkout, the commit: "0.1.0 (abc1234)"."""
    try:
        version = metadata.version("brigade")
    except metadata.PackageNotFoundError:
        version = "unknown"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{version} ({commit})" if commit else version


def shown_settings(config):
    """[(key, value shown, what it does)] for the admin page; secrets show only whether they are set."""
    shown = []
    for key, what in SHOWN_SETTINGS:
        value = config.get(key)
        if key in SECRET_SETTINGS:
            value = "set" if value else "not set"
        shown.append((key, "—" if value is None else value, what))
    return shown


# ---------------------------------------------------------------- the command line


def cli(argv=None, prog="python -m webapp admin"):
    """``python -m webapp admin create-host NAME``: make NAME a host (creating the account if needed) and
    print a one-time link to set its password (docs/admin.md)."""
    parser = argparse.ArgumentParser(prog=prog, description="Host accounts of a Brigade server.")
    parser.add_argument("--db", help="database file (default: the app's, see docs/storage.md)")
    commands = parser.add_subparsers(dest="command", required=True)
    create = commands.add_parser("create-host", help="make NAME a host; a new account gets a password-reset link")
    create.add_argument("name", metavar="NAME")
    create.add_argument("--url", help="the site's address for the link (default: PUBLIC_URL or http://127.0.0.1:5000)")
    args = parser.parse_args(argv)

    instance = str(os.environ.get("BRIGADE_INSTANCE_PATH") or ROOT / "instance")
    config = Config(os.path.abspath(instance))
    config.from_pyfile("config.py", silent=True)
    path = args.db or configured_path()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with connect(path) as db:
        migrate(db)
        try:
            user, token = make_host(db, config, args.name)
        except ValueError as exc:
            parser.exit(2, f"error: {exc}\n")
    if token is None:
        print(f"{user['name']} is a host (the account existed: its password is unchanged).")
        return 0
    base = (args.url or public_url(config)).rstrip("/")
    print(f"Made the host account {user['name']}. Open this link to set its password "
          f"(it works once, for {reset_seconds(config) // 3600} hours):")
    print(f"{base}{reset_path(token)}")
    return 0
