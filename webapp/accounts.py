"""Accounts: who may register and with what name and password, and who may log in (and how often).

The web layer (``webapp.web.auth``) only reads forms and renders; every decision is made here.
"""

import hmac
import re
import secrets

from webapp.store import transaction
from webapp.store.errors import NameTaken
from webapp.store.users import create_user, get_user_by_name, record_login, user_count
from webapp.web.passwords import MAX_LENGTH, MIN_LENGTH, check_password, hash_password

NAME_MAX = 32
# ASCII only: the store compares names with SQLite's NOCASE, which folds ASCII letters alone,
# so "Ärger" and "ärger" would otherwise be two accounts that look the same.
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]+")
REGISTRATION_MODES = ("open", "invite")


class RegistrationRefused(ValueError):
    """The form cannot make an account; ``errors`` maps each bad field to what is wrong with it."""

    def __init__(self, errors):
        super().__init__("; ".join(errors.values()))
        self.errors = errors


class LoginFailed(Exception):
    """Wrong name or password (the same message whether the name exists or not)."""

    def __init__(self):
        super().__init__("Wrong name or password.")


class Throttled(Exception):
    """Too many failed tries lately from this address or for this account; ``wait`` is in seconds."""

    def __init__(self, wait, what="log-ins"):
        super().__init__(f"Too many failed {what} for this account or from your address. "
                         f"Try again in {wait_text(wait)}.")
        self.wait = wait


def wait_text(seconds):
    """``seconds`` as a short phrase: "1 second", "45 seconds", "3 minutes" (rounded up)."""
    seconds = max(1, int(seconds))
    if seconds < 90:
        return f"{seconds} second{'' if seconds == 1 else 's'}"
    minutes = -(-seconds // 60)
    return f"{minutes} minutes"


def name_error(name):
    """What is wrong with a (stripped) user name, or None."""
    if not name:
        return "Choose a name."
    if len(name) > NAME_MAX:
        return f"A name has at most {NAME_MAX} characters (this one has {len(name)})."
    if not NAME_PATTERN.fullmatch(name):
        return "A name may hold only letters A–Z, digits, _ and -."
    return None


def password_error(password):
    """What is wrong with a new password, or None."""
    if len(password) < MIN_LENGTH:
        return f"A password needs at least {MIN_LENGTH} characters."
    if len(password) > MAX_LENGTH:
        return f"A password has at most {MAX_LENGTH} characters."
    return None


def registration_mode(config):
    """ "open", "invite", or "closed" (an unknown mode, or invite mode without a code, admits nobody)."""
    mode = config.get("REGISTRATION", "open")
    if mode not in REGISTRATION_MODES or (mode == "invite" and not config.get("INVITE_CODE")):
        return "closed"
    return mode


def invite_ok(config, code):
    """Whether ``code`` is the host's invite code (compared in constant time)."""
    expected = str(config.get("INVITE_CODE") or "")
    return bool(expected) and hmac.compare_digest((code or "").strip().encode(), expected.encode())


def starter_hook():
    """``webapp.packs.grant_starter`` if that module exists, else None."""
    try:
        from webapp.packs import grant_starter
    except ImportError as exc:
        if exc.name != "webapp.packs":  # a broken packs module must not pass for a missing one
            raise
        return None
    return grant_starter


def register(db, config, name, password, confirm, invite_code=None, throttle=None, address=None):
    """Check the form fully, then make the account (the first one an admin) with its starter cards.

    Raise RegistrationRefused (nothing stored) or Throttled (too many wrong invite codes from
    ``address`` in the ``throttle``'s window).
    """
    mode = registration_mode(config)
    if mode == "closed":
        raise RegistrationRefused({"form": "Registration is closed on this server."})
    if mode == "invite":
        key = f"invite:{address}"
        if throttle is not None and (wait := throttle.blocked(key)):
            raise Throttled(wait, what="invite codes")
        if not invite_ok(config, invite_code):
            if throttle is not None:
                throttle.fail(key)
            # Stop here: without the code nobody learns which names are taken.
            raise RegistrationRefused({"invite_code": "That invite code is not right."})

    name = (name or "").strip()
    password = password or ""
    errors = {}
    if problem := name_error(name):
        errors["name"] = problem
    elif get_user_by_name(db, name) is not None:
        errors["name"] = taken(name)
    if problem := password_error(password):
        errors["password"] = problem
    elif not hmac.compare_digest(password.encode(), (confirm or "").encode()):
        errors["confirm"] = "The two passwords differ."
    if errors:
        raise RegistrationRefused(errors)

    password_hash = hash_password(password)  # slow on purpose: outside the write lock
    grant_starter = starter_hook()
    try:
        with transaction(db):
            user = create_user(db, name, password_hash, is_admin=user_count(db) == 0)
            if grant_starter is not None:
                grant_starter(db, user["id"])
    except NameTaken:  # registered by someone else since the check above
        raise RegistrationRefused({"name": taken(name)}) from None
    return user


def taken(name):
    return f"The name {name!r} is taken (names are the same whatever their letter case)."


_dummy_hash = None


def dummy_hash():
    """A hash of a random password, so an unknown name costs as long to refuse as a known one."""
    global _dummy_hash
    if _dummy_hash is None:
        _dummy_hash = hash_password(secrets.token_urlsafe(16))
    return _dummy_hash


def log_in(db, throttles, name, password, address):
    """The user whose name and password these are; failures count against the account and the address.

    ``throttles`` is ``app.extensions["login_throttle"]`` ({"account": Throttle, "address": Throttle}).
    Raise Throttled (before the password is even checked) or LoginFailed.
    """
    name = (name or "").strip()
    password = password or ""
    account = name.lower() if name_error(name) is None else None  # nobody can own a malformed name
    keys = [("address", address)] + ([("account", account)] if account else [])
    if wait := max(throttles[kind].blocked(key) for kind, key in keys):
        raise Throttled(wait)

    user = get_user_by_name(db, name) if account else None
    if len(password) > MAX_LENGTH:
        ok = False  # no account has such a password, and hashing megabytes costs the server
    elif user is None:
        check_password(dummy_hash(), password)
        ok = False
    else:
        ok = check_password(user["password_hash"], password)
    if not ok:
        for kind, key in keys:
            throttles[kind].fail(key)
        raise LoginFailed()

    # The address keeps its count: one good account must not reset guessing at others.
    throttles["account"].clear(account)
    record_login(db, user["id"])
    return user
