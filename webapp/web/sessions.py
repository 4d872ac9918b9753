"""Flask's signed-cookie sessions, remembering the cookies already checked.

Every Socket.IO event runs in a Flask request context made from the socket's first request, and
Flask opens the session again each time: an HMAC check, base64 and JSON decoding of the same cookie
on every action, about a tenth of the server's time per action (docs/deploy.md). This interface
remembers the sessions of the last few thousand cookies it verified, until each one's signature
expires (PERMANENT_SESSION_LIFETIME), and hands out a fresh copy each time. The cookie's bytes
are the key, so only a cookie that passed the signature check is ever recognised; a changed
secret key starts over. Writing sessions is Flask's own, except on a public, immutable response (a file under a
content-hashed URL: static files, card faces, the card list): it is the same for everyone, so it
carries no session cookie and no ``Vary: Cookie``. Flask adds that header whenever the request read
the session (every request does, to know its user), and the session cookie's value changes as it is
refreshed, so a browser would miss its cache for every such file on the next visit.

Logging out revokes (docs/security.md): a session holds the ``users.session_version`` it was made
at (``"sv"``); ``version_of(app, user_id)`` gives the current one, and a session of another
version opens empty. Every HTTP request opens its session, and so does every Socket.IO connection
(its events keep the session of their connect and open nothing), so a cookie captured before a logout opens
neither a page nor a socket afterwards.
"""

import collections
import copy
import threading

from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

from webapp import clock

#: The key under which Flask-SocketIO keeps, in a socket's handshake environ, the session copied at
#: its connect; every later event of the socket runs with that session (manage_session=True).
SOCKET_SESSION = "saved_session"


class RememberingCookieSessions(SecureCookieSessionInterface):
    """SecureCookieSessionInterface that remembers verified cookies (see the module's docstring)."""

    def __init__(self, size=4096, version_of=None):
        self.size = size
        self.version_of = version_of
        self.known = collections.OrderedDict()  # (secret key, cookie) -> (data, expires at)
        self.lock = threading.Lock()

    def open_session(self, app, request):
        if SOCKET_SESSION in request.environ:
            # A Socket.IO event after its connect: Flask-SocketIO (manage_session) puts the session it
            # kept from the connect in place of whatever this returns, so neither the cookie nor the
            # user's session version is read again (a database connection per event, a third of the
            # server's time per action: docs/deploy.md). The connect itself is checked below.
            return self.session_class()
        value = request.cookies.get(self.get_cookie_name(app))
        serializer = self.get_signing_serializer(app)
        if not value or serializer is None:
            return super().open_session(app, request)
        key = (app.secret_key, value)
        with self.lock:
            hit = self.known.get(key)
        if hit is not None and hit[1] > clock.now():
            return self.checked(app, copy.deepcopy(hit[0]))
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        with self.lock:
            self.known[key] = (copy.deepcopy(data), signed.timestamp() + max_age)
            self.known.move_to_end(key)
            while len(self.known) > self.size:
                self.known.popitem(last=False)
        return self.checked(app, data)

    def save_session(self, app, session, response):
        if "immutable" in (response.headers.get("Cache-Control") or ""):
            return  # the same file for everyone: no cookie, no Vary (see the module's docstring)
        super().save_session(app, session, response)

    def checked(self, app, data):
        """The session of ``data``, or an empty one if its user has logged out since it was made."""
        uid = data.get("user_id") if isinstance(data, dict) else None
        if uid is not None and self.version_of is not None and self.version_of(app, uid) != data.get("sv", 0):
            return self.session_class()
        return self.session_class(data)
