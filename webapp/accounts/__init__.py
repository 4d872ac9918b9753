"""Accounts: who may register and with what name and password, and who may log in (and how often).

The web layer (``webapp.web.auth``) only reads forms and renders; every decision is made here.
"""

import hashlib
import hmac
import re
import secrets

from flask_babel import gettext, ngettext  # the request's language; English outside a request

from webapp import clock as app_clock
from webapp.accounts.commonpasswords import is_common
from webapp.decks.packs import grant_starter
from webapp.config import DEFAULTS
from webapp.hosting.ratelimit import Window
from webapp.store import transaction
from webapp.store.admin import any_usable_code, usable_code, use_code
from webapp.store.settings import get_setting
from webapp.store.errors import NameTaken
from webapp.store.users import (create_user, get_user_by_name, known_place, record_login, remember_place,
                                user_count)
from webapp.accounts.passwords import MAX_LENGTH, MIN_LENGTH, check_password, hash_password

NAME_MAX = 32
# ASCII only: the store compares names with SQLite's NOCASE, which folds ASCII letters alone,
# so "Ärger" and "ärger" would otherwise be two accounts that look the same.
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]+")
REGISTRATION_MODES = ("open", "invite", "closed")
#: The settings key of the registration mode a host chose on the admin page.
MODE_SETTING = "registration_mode"


class RegistrationRefused(ValueError):
    """The form cannot make an account; ``errors`` maps each bad field to what is wrong with it."""

    def __init__(self, errors):
        super().__init__("; ".join(errors.values()))
        self.errors = errors


class LoginFailed(Exception):
    """Wrong name or password (the same message whether the name exists or not)."""

    def __init__(self):
        super().__init__(gettext("Wrong name or password."))


class AccountDisabled(LoginFailed):
    """The right password, but the host has disabled the account (docs/admin.md)."""

    def __init__(self):
        Exception.__init__(self, gettext("This account is disabled. Ask the server's host."))


class Throttled(Exception):
    """Too many tries lately from this address or for this account; ``wait`` is in seconds."""

    def __init__(self, wait, what="log-ins", message=None):
        if message is None:
            message = (gettext("Too many failed invite codes for this account or from your address.") if what == "invite codes"
                       else gettext("Too many failed log-ins for this account or from your address."))
        super().__init__(message + " " + gettext("Try again in %(wait)s.", wait=wait_text(wait)))
        self.wait = wait


class LoginGuard:
    """Failed log-ins, and who they hold back (docs/security.md). Three limits, each a Window:

    * per account and address, a growing wait: the ``LOGIN_DELAYS`` steps (failures, seconds) —
      3 within 10 s, 6 within a minute, 10 within 10 minutes, 20 within an hour by default;
    * per address, ``LOGIN_LIMIT_ADDRESS`` failures whatever the accounts (guessing many names);
    * per account, ``LOGIN_LIMIT_ACCOUNT`` failures from places it never logged in from; once that
      is spent, only its known places may try: a browser holding the account's device cookie, or
      an address it logged in from before (kept as a keyed hash in ``known_logins``).

    So a stranger guessing a friend's password slows down more and more and never locks the
    friend out: the friend's own browser and address are not the stranger's. Also counts invite
    code failures and accounts made per address (``register``). In memory, per process."""

    def __init__(self, config, clock=app_clock.monotonic):
        """``config`` holds the settings (their defaults are in ``webapp.config``)."""
        window = config["LOGIN_WINDOW"]
        self.steps = [Window(n, seconds, clock) for n, seconds in config["LOGIN_DELAYS"]]
        self.address = Window(config["LOGIN_LIMIT_ADDRESS"], window, clock)
        self.account = Window(config["LOGIN_LIMIT_ACCOUNT"], window, clock)
        self.registrations = Window(config["REGISTER_LIMIT_ADDRESS"], config["REGISTER_WINDOW"], clock)
        self.secret = str(config.get("SECRET_KEY") or "").encode()

    def windows(self):
        return [*self.steps, self.address, self.account, self.registrations]

    def set_clock(self, clock):
        """Run every window on ``clock`` (tests stop time)."""
        for w in self.windows():
            w.clock = clock

    def place(self, address):
        """The address as stored in known_logins: a keyed hash, not the address itself."""
        return hmac.new(self.secret, str(address).encode(), hashlib.sha256).hexdigest()[:32]

    def wait(self, account, address, known):
        """Seconds before the next try of ``account`` from ``address`` (0: try now)."""
        waits = [self.address.wait(address)]
        if account:
            waits += [w.wait((account, address)) for w in self.steps]
            if not known:
                waits.append(self.account.wait(account))
        return max(waits)

    def failed(self, account, address, known):
        self.address.hit(address)
        if account:
            for w in self.steps:
                w.hit((account, address))
            if not known:
                self.account.hit(account)

    def succeeded(self, account, address):
        """The right password: this account's waits from this address start over. The address
        keeps its count (one good account must not reset guessing at others), and so does the
        account's count from unknown places (a stranger's guesses go on counting)."""
        for w in self.steps:
            w.clear((account, address))


def wait_text(seconds):
    """``seconds`` as a short phrase: "1 second", "45 seconds", "3 minutes" (rounded up)."""
    seconds = max(1, int(seconds))
    if seconds < 90:
        return ngettext("%(num)s second", "%(num)s seconds", seconds)
    minutes = -(-seconds // 60)
    return ngettext("%(num)s minute", "%(num)s minutes", minutes)


def name_error(name):
    """What is wrong with a (stripped) user name, or None."""
    if not name:
        return gettext("Choose a name.")
    if len(name) > NAME_MAX:
        return gettext("A name has at most %(max)s characters (this one has %(n)s).", max=NAME_MAX, n=len(name))
    if not NAME_PATTERN.fullmatch(name):
        return gettext("A name may hold only letters A–Z, digits, _ and -.")
    return None


def password_error(password, name=None):
    """What is wrong with a new password (for the user ``name``), or None: too short or long, one
    of the most common passwords (``webapp.accounts.commonpasswords``), or the name itself or holding it."""
    if len(password) < MIN_LENGTH:
        return gettext("A password needs at least %(n)s characters.", n=MIN_LENGTH)
    if len(password) > MAX_LENGTH:
        return gettext("A password has at most %(n)s characters.", n=MAX_LENGTH)
    if is_common(password):
        return gettext("That password is one of the first that anyone guessing would try: choose another.")
    low, plain = password.lower(), (name or "").strip().lower()
    if plain and (low == plain or (len(plain) >= 3 and plain in low)):
        return gettext("A password must not hold your name: choose another.")
    return None


def registration_mode(config, db=None):
    """ "open", "invite", or "closed". The host's choice on the admin page (the ``registration_mode``
    setting in the database, when ``db`` is given) wins over the REGISTRATION setting. An unknown mode,
    or invite mode with neither INVITE_CODE nor a usable invitation code in ``db``, admits nobody."""
    mode = config.get("REGISTRATION", DEFAULTS["REGISTRATION"])
    if db is not None:
        mode = get_setting(db, MODE_SETTING, mode)
    if mode not in REGISTRATION_MODES:
        return "closed"
    if mode == "invite" and not config.get("INVITE_CODE") and (db is None or not any_usable_code(db)):
        return "closed"
    return mode


def invite_ok(config, code):
    """Whether ``code`` is the host's INVITE_CODE setting (compared in constant time)."""
    expected = str(config.get("INVITE_CODE") or "")
    return bool(expected) and hmac.compare_digest((code or "").strip().encode(), expected.encode())


def register(db, config, name, password, confirm, invite_code=None, guard=None, address=None):
    """Check the form fully, then make the account (the first one an admin) with its starter cards.

    Raise RegistrationRefused (nothing stored) or Throttled: too many wrong invite codes from
    ``address``, or REGISTER_LIMIT_ADDRESS accounts made from it within REGISTER_WINDOW (the
    ``guard``'s windows).
    """
    mode = registration_mode(config, db)
    if mode == "closed":
        raise RegistrationRefused({"form": gettext("Registration is closed on this server.")})
    host_code = False  # an invitation code made on the admin page: one of its uses is spent below
    if mode == "invite":
        key = ("invite", address)
        if guard is not None and (wait := guard.address.wait(key)):
            raise Throttled(wait, what="invite codes")
        host_code = not invite_ok(config, invite_code) and usable_code(db, invite_code)
        if not host_code and not invite_ok(config, invite_code):
            if guard is not None:
                guard.address.hit(key)
            # Stop here: without the code nobody learns which names are taken.
            raise RegistrationRefused({"invite_code": gettext("That invite code is not right.")})

    name = (name or "").strip()
    password = password or ""
    errors = {}
    if problem := name_error(name):
        errors["name"] = problem
    elif get_user_by_name(db, name) is not None:
        errors["name"] = taken(name)
    if problem := password_error(password, name):
        errors["password"] = problem
    elif not hmac.compare_digest(password.encode(), (confirm or "").encode()):
        errors["confirm"] = gettext("The two passwords differ.")
    if errors:
        raise RegistrationRefused(errors)
    if guard is not None and not guard.registrations.take(address):
        raise Throttled(guard.registrations.wait(address),
                        message=gettext("Several accounts were made from your address lately."))

    password_hash = hash_password(password)  # slow on purpose: outside the write lock
    try:
        with transaction(db):
            user = create_user(db, name, password_hash, is_admin=user_count(db) == 0)
            if host_code and not use_code(db, invite_code, user["id"]):
                raise CodeSpent()  # its last use went to someone else since the check above
            if guard is not None and address is not None:
                remember_place(db, user["id"], guard.place(address))  # a known place from now on
            grant_starter(db, user["id"])
    except NameTaken:  # registered by someone else since the check above
        raise RegistrationRefused({"name": taken(name)}) from None
    except CodeSpent:
        raise RegistrationRefused({"invite_code": "That invite code has no uses left."}) from None
    return user


class CodeSpent(Exception):
    """An invitation code's last use was taken while this registration was being made."""


def taken(name):
    return gettext("The name %(name)s is taken (names are the same whatever their letter case).", name=repr(name))


_dummy_hash = None


def dummy_hash():
    """A hash of a random password, so an unknown name costs as long to refuse as a known one."""
    global _dummy_hash
    if _dummy_hash is None:
        _dummy_hash = hash_password(secrets.token_urlsafe(16))
    return _dummy_hash


def log_in(db, guard, name, password, address, device=()):
    """The user whose name and password these are; failures count in the ``guard`` (LoginGuard).

    ``device`` holds the user ids this browser logged in as before (its device cookie): with the
    addresses in ``known_logins``, the places a stranger's failures never lock the user out of.
    Raise Throttled (before the password is even checked) or LoginFailed.
    """
    name = (name or "").strip()
    password = password or ""
    account = name.lower() if name_error(name) is None else None  # nobody can own a malformed name
    user = get_user_by_name(db, name) if account else None
    known = user is not None and (user["id"] in device or known_place(db, user["id"], guard.place(address)))
    if wait := guard.wait(account, address, known):
        raise Throttled(wait)

    if len(password) > MAX_LENGTH:
        ok = False  # no account has such a password, and hashing megabytes costs the server
    elif user is None:
        check_password(dummy_hash(), password)
        ok = False
    else:
        ok = check_password(user["password_hash"], password)
    if not ok:
        guard.failed(account, address, known)
        raise LoginFailed()

    guard.succeeded(account, address)
    if user.get("disabled"):  # said only to whoever knows the password
        raise AccountDisabled()
    with transaction(db):
        record_login(db, user["id"])
        remember_place(db, user["id"], guard.place(address))
    return user
