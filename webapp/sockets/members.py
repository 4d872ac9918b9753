"""The connected sockets: ``Member`` (one socket's user, address and games), the address it connected
from, and whether its account still holds the session it connected with."""

import contextlib

from flask import request

from webapp import clock, store
from webapp.store.users import session_version

#: Seconds between two checks of a socket's account (logged out everywhere, disabled by a host: the
#: session version moved on) while it sends events; its next event after the change is refused and
#: the socket closed (docs/security.md). One small read per socket per window, not per event.
ACCOUNT_RECHECK = 1.0


class Member:
    """One connected socket: its user, its address and the games it joined (game id -> seat)."""

    __slots__ = ("user_id", "address", "games", "updates", "marks", "version", "checked")

    def __init__(self, user_id, address, version=0):
        self.user_id = user_id
        self.address = address
        self.games = {}
        self.updates = set()  # the games it joined asking for updates
        self.marks = {}  # the account's language mark, read once per socket, not per event (seatnames.user_lang)
        self.version = version  # the account's session version when the socket connected
        self.checked = clock.monotonic()  # when that version was last found current (still_allowed)


def still_allowed(member, lease=contextlib.nullcontext):
    """Whether the socket's account keeps the session it connected with (not logged out everywhere,
    not disabled: both move the session version on), read at most every ACCOUNT_RECHECK seconds, on
    the connection ``lease()`` lends as ``store.get_db()`` (the hub's pool: never one opened and
    closed for the read)."""
    now = clock.monotonic()
    if now - member.checked < ACCOUNT_RECHECK:
        return True
    with lease():
        version = session_version(store.get_db(), member.user_id)
    if version != member.version:
        return False
    member.checked = now
    return True


def client_address(app):
    """The address a socket connected from: the last X-Forwarded-For entry behind a proxy
    (``PROXY_FIX``, like the pages' ProxyFix with x_for=1), else the peer's address. A socket's
    request context carries the environ of its handshake, which the pages' ProxyFix never saw."""
    if app.config.get("PROXY_FIX"):
        forwarded = request.headers.get("X-Forwarded-For", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last[:64]
    return request.remote_addr or "?"
