"""Socket.IO handlers: check the payload's shape, call ``webapp.game.play``, emit what it returns.

Rooms: every socket that joins game 12 is in ``game:12`` and in one room of its own kind:
``game:12:0`` or ``game:12:1`` for the seat its session user holds, ``game:12:watch`` for a
spectator who reads English (``game:12:watch-ja`` for one who reads Japanese: the log is in the
spectator's language), or the same name with ``+`` (``game:12:0+``) for a socket that joined asking for
updates (docs/protocol.md "Updates"). A ``state`` is built per seat from ``Game.view(seat)`` and
sent to that seat's rooms only, so each socket gets its own view and nobody else's (R18.6); the
rooms also carry over a message queue when several server processes share the games
(ARCHITECTURE.md "Server").

Online games between friends (clocks, presence, claims, emotes, rematches) are ``webapp.game.online``'s:
the handlers here only check payloads and hand over. An action goes to the game service directly
(``play.apply``), an online game's through ``Online.act``, which adds its clocks. The ``Hub`` is the
services' notifier (``webapp.game.notify.Notifier``: ``to_game``, ``push``, ``watch_clocks``) and
the one owner of the app's background tasks: the CPU's moves (one task per game) and the online
games' clock ticker (one per process).
"""

import collections
import contextlib
import json
import logging
import re
import sqlite3
import threading
import time

import orjson
from flask import g, request, session
from flask_babel import gettext
from flask_socketio import ConnectionRefusedError, disconnect, join_room, leave_room
from socketio.pubsub_manager import PubSubManager

from webapp.hosting import hostlog, metrics
from webapp.game import play
from webapp import clock, store
from webapp.game import online as online_games
from webapp.hosting.ratelimit import Window
from webapp.store.users import session_version

from .updates import diff

log = logging.getLogger(__name__)

#: The largest payload a handler reads, as compact JSON (real ones are a few hundred bytes).
MAX_PAYLOAD = 4096
#: Limits on the action dict inside an ``action`` payload.
MAX_KEYS, MAX_STRING, MAX_LIST = 8, 64, 40
MAX_INT = 2**53  # what a browser's numbers hold exactly
#: Refused events (over the rate limit) within FLOOD_WINDOW seconds that end the connection.
FLOOD_WINDOW, FLOOD_REFUSALS = 5.0, 60

#: The flood limits derived from RATE_LIMIT when their key is None (webapp/config.py, docs/protocol.md
#: "Flood control"): a test that lifts RATE_LIMIT lifts them all.
DERIVED = {"RATE_LIMIT_USER": 2.0, "RATE_LIMIT_ADDRESS": 5.0, "STATES_PER_SECOND": 0.5}
#: Event names Socket.IO keeps for itself (python-socketio's ``connect``/``disconnect``, the
#: JavaScript client's ``connect_error``, ``disconnecting``, ``newListener``, ``removeListener``) and
#: ``*``, python-socketio's catch-all. A client that sends one as an event is refused by the packet
#: reader (``webapp.sockets.JsonPacket``): it never reaches the server's connect or disconnect handler
#: (docs/protocol.md, docs/security.md).
RESERVED = frozenset({"connect", "disconnect", "connect_error", "disconnecting", "newListener",
                      "removeListener", "*"})
#: The event a refused packet is turned into; only ``register``'s handler of this name reads it, and
#: it answers ``bad_request`` with the reason (a client sending this name is refused too).
REFUSED = "\x00refused"
#: SQLite's words for a write that could not get the database (another writer held it past the
#: busy timeout, or the file is read-only): the player is told to try again (code ``busy``).
UNAVAILABLE = ("database is locked", "database is busy", "readonly database", "disk I/O error")


#: Seconds a CPU task's lease lives without renewal (renewed between moves; a Hard move that thinks
#: longer only risks a second process thinking too: the game's version lets one move in). A process
#: that sees another's lease looks every CPU_WATCH seconds whether that process still plays.
CPU_LEASE, CPU_WATCH = 15.0, 1.0


class LeaseLost(Exception):
    """This process's lease on a game's CPU lapsed and another process took it."""


#: The spectators' room kinds, one per language of the log ({kind: lang}).
WATCH = {"watch": "en", "watch-ja": "ja"}


def watch_kind(user_id):
    """The spectators' room kind of a user: by the language they read the game in (``play.user_lang``)."""
    lang = play.user_lang(user_id)
    return next((kind for kind, lang_of in WATCH.items() if lang_of == lang), "watch")


def room(game_id, seat=None, updates=False):
    """The room of a game, or of one seat's sockets in it (0, 1, or a ``WATCH`` kind): those that take full
    ``state``s, or with ``updates`` those that take ``update``s (docs/protocol.md "Updates")."""
    if seat is None:
        return f"game:{game_id}"
    return f"game:{game_id}:{seat}+" if updates else f"game:{game_id}:{seat}"


class Built:
    """One seat's view and legal actions at one version, built once: encoded (``view`` and ``legal``,
    orjson Fragments the packet encoder copies as they are, and ``legal_json``, their bytes) and the
    view itself (``tree``, what the next version's update is the difference from)."""

    __slots__ = ("view", "legal", "waiting", "tree", "view_size", "legal_json")

    def __init__(self, tree, view_json, legal_json, waiting):
        self.tree, self.waiting = tree, waiting
        self.view, self.legal = orjson.Fragment(view_json), orjson.Fragment(legal_json)
        self.view_size, self.legal_json = len(view_json), legal_json

    def parts(self):
        """(view, legal actions, waiting_for) as ``play.state_for`` takes them."""
        return self.view, self.legal, self.waiting


class Member:
    """One connected socket: its user, its address and the games it joined (game id -> seat)."""

    __slots__ = ("user_id", "address", "games", "updates", "marks", "version", "checked")

    def __init__(self, user_id, address, version=0):
        self.user_id = user_id
        self.address = address
        self.games = {}
        self.updates = set()  # the games it joined asking for updates
        self.marks = {}  # the account's language mark, read once per socket, not per event (play.user_lang)
        self.version = version  # the account's session version when the socket connected
        self.checked = clock.monotonic()  # when that version was last found current (Hub.still_allowed)


#: Seconds between two checks of a socket's account (logged out everywhere, disabled by a host: the
#: session version moved on) while it sends events; its next event after the change is refused and
#: the socket closed (issue 26 N6). One small read per socket per window, not per event.
ACCOUNT_RECHECK = 1.0


def trim_memory():
    """Give the memory that freed objects left in glibc's heaps back to the system (``malloc_trim``).

    In the threading server every socket runs on threads of its own, and glibc gives threads heaps
    (arenas) of their own: what a game's states and threads freed there stays mapped, and the
    server's resident memory grew ~0.8 MB per finished CPU game (bench/memory_per_game.py) although
    no Python structure grew (tracemalloc). Called after a socket goes (at most every TRIM_EVERY
    seconds); does nothing where there is no glibc."""
    if TRIM is not None:
        TRIM(0)


def _malloc_trim():
    import ctypes
    import ctypes.util

    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError, TypeError):
        return None


TRIM = _malloc_trim()
TRIM_EVERY = 5.0


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


class StateCache:
    """The costly parts of a ``state`` (the seat's view and legal actions, already encoded as JSON)
    of the latest version of each (game, seat), so a repeated ``join`` of an unchanged game builds
    nothing, and the states an action pushes serve the joins after it. An entry is kept under
    (game, seat) and served only at its own version (and game creation time); a newer version
    replaces it. Bounded by the bytes it holds (least recently used first)."""

    def __init__(self, budget):
        self.budget = budget
        self.entries = collections.OrderedDict()
        self.bytes = 0
        self.lock = threading.Lock()

    def latest(self, game_id, seat):
        """(parts, version, created) kept for the seat at whichever version is kept, or None."""
        with self.lock:
            entry = self.entries.get((game_id, seat))
            return None if entry is None else (entry[0], *entry[2])

    def get(self, key):
        """The parts kept for ``key`` = (game, seat, version, created), or None."""
        with self.lock:
            entry = self.entries.get(key[:2])
            if entry is None or entry[2] != key[2:]:
                return None
            self.entries.move_to_end(key[:2])
            return entry

    def put(self, key, entry, size):
        """Keep ``entry`` for ``key`` = (game, seat, version, created), unless a later version of the
        same game is kept already (a join that read the row before an action's push built the next
        version): the kept state stays what the seat's next update is built on."""
        with self.lock:
            kept = self.entries.get(key[:2])
            if kept is not None and kept[2][1] == key[3] and kept[2][0] > key[2]:
                return
            old = self.entries.pop(key[:2], None)
            if old is not None:
                self.bytes -= old[1]
            if size > self.budget:
                return
            self.entries[key[:2]] = (entry, size, key[2:])
            self.bytes += size
            while self.bytes > self.budget:
                _, dropped = self.entries.popitem(last=False)
                self.bytes -= dropped[1]

    def drop_game(self, game_id):
        """Forget a game's states (it ended: its last states were sent; a late join builds again)."""
        with self.lock:
            for seat in (0, 1, None):
                old = self.entries.pop((game_id, seat), None)
                if old is not None:
                    self.bytes -= old[1]

    def __len__(self):
        with self.lock:
            return len(self.entries)


class Pool:
    """A few SQLite connections that socket events borrow one at a time (``lease``), instead of each
    event opening and closing its own: that open and close (with its WAL set-up) was half of the
    server's busy time per action under load (docs/deploy.md). A connection is only ever used by the
    event that holds it, so never by two threads at once (docs/storage.md); more are opened when all
    are lent out, and at most ``keep`` are kept."""

    def __init__(self, path, keep=8):
        self.path, self.keep = path, keep
        self.idle = []
        self.lock = threading.Lock()

    @contextlib.contextmanager
    def lease(self):
        with self.lock:
            db = self.idle.pop() if self.idle else None
        if db is None:
            db = store.connect(self.path)
        try:
            yield db
        finally:
            if db.conn.in_transaction:  # a bug left a transaction open: never lend it out like that
                db.conn.rollback()
            with self.lock:
                if len(self.idle) < self.keep:
                    self.idle.append(db)
                    db = None
            if db is not None:
                db.close()


class Hub:
    """The sockets of one app: who is connected, rate limits, what the services tell the players
    (the notifier of ``webapp.game.notify``), and every background task: the CPU's moves and the
    online games' clock ticker."""

    def __init__(self, app, socketio):
        self.app, self.socketio = app, socketio
        path = app.config.get("DATABASE")
        self.pool = Pool(path) if path else None
        self.lock = threading.Lock()
        self.members = {}
        self.cpu = {}      # game id -> "run again" flag of its running CPU task
        self.names = {}    # game id -> seat names (they never change during a game)
        self.marks = {}    # game id -> {user id: log language from the account's mark} (play.seat_lang)
        self.online = None  # webapp.game.online.Online: presence, clocks, claims of online games
        self.ticking = False  # whether the clock ticker runs (``watch_clocks``)
        self.ticker_lock = threading.Lock()
        self.windows = {}  # (name, limit, seconds) -> Window: the flood limits at their current settings
        self.states = StateCache(int(self.limit("STATE_CACHE_BYTES")))
        self.built = 0     # states built (not served from self.states): what the tests count
        self.logged = Window(1, 60.0)  # one log line a minute per kind of database trouble
        self.trimmed = Window(1, TRIM_EVERY)
        #: webapp.hosting.cluster.Cluster with several processes (MESSAGE_QUEUE), else None: then the caps,
        #: the per-user and per-address limits, the CPU tasks and presence count in this process alone.
        self.cluster = app.extensions.get("brigade_cluster")
        if self.cluster is not None:
            socketio.start_background_task(self.cluster.run, socketio.sleep)

    def limit(self, key):
        """A flood-limit setting (webapp/config.py), derived from RATE_LIMIT when None (DERIVED)."""
        value = self.app.config.get(key)
        if value is None:
            value = max(1, int(self.app.config["RATE_LIMIT"] * DERIVED[key]))
        return value

    def window(self, name, limit, seconds=1.0):
        key = (name, limit, seconds)
        w = self.windows.get(key)
        if w is None:
            w = self.windows.setdefault(key, Window(limit, seconds))
        return w

    # ------------------------------------------------------------ connections

    def connect(self):
        uid = session.get("user_id")
        user = None
        if uid is not None:
            try:
                user = store.get_user(store.get_db(), uid)
            except store.UserNotFound:
                user = None
        if user is None:
            raise ConnectionRefusedError("log in first")
        address = client_address(self.app)
        per_user, per_address = self.limit("SOCKETS_PER_USER"), self.limit("SOCKETS_PER_ADDRESS")
        if self.cluster is not None:  # every process's sockets count (webapp/hosting/cluster.py)
            added, mine, here = self.cluster.open_socket(request.sid, user["id"], address, per_user, per_address)
            if added:
                with self.lock:
                    self.members[request.sid] = Member(user["id"], address, user["session_version"])
                return
        else:
            with self.lock:
                mine = sum(1 for m in self.members.values() if m.user_id == user["id"])
                here = sum(1 for m in self.members.values() if m.address == address)
                if mine < per_user and here < per_address:
                    self.members[request.sid] = Member(user["id"], address, user["session_version"])
                    return
        log.warning("socket of user %s from %s refused: %d of theirs and %d from the address already open",
                    user["id"], address, mine, here)
        if mine >= per_user:
            raise ConnectionRefusedError(f"you have {mine} connections open (at most {per_user}): close a tab")
        raise ConnectionRefusedError(f"too many connections from your address (at most {per_address})")

    def disconnected(self):
        with self.lock:
            member = self.members.pop(request.sid, None)
        if member is not None:
            for game_id, seat in list(member.games.items()):
                self.online.gone(game_id, seat, request.sid)
        self.online.forget_socket(request.sid)
        if self.cluster is not None:
            self.cluster.close_socket(request.sid)
        if self.socketio.async_mode == "threading" and self.trimmed.take("trim"):
            trim_memory()

    @contextlib.contextmanager
    def lease(self):
        """A pooled connection as this event's ``store.get_db()`` (given back, not closed, at the end)."""
        if self.pool is None or "db" in g:
            yield
            return
        with self.pool.lease() as db:
            g.db = db
            try:
                yield
            finally:
                g.pop("db", None)

    # ------------------------------------------------------------ flood control

    def admit(self, member):
        """"ok" within the events-a-second limits of the socket (RATE_LIMIT), of its user's sockets
        together (RATE_LIMIT_USER) and of its address's (RATE_LIMIT_ADDRESS); else "limited" with the
        limit that refused it; "flood" when this socket's refusals go on."""
        checks = [(self.window("socket", self.limit("RATE_LIMIT")), request.sid, "on this connection"),
                  (self.window("user", self.limit("RATE_LIMIT_USER")), member.user_id, "over all your connections"),
                  (self.window("address", self.limit("RATE_LIMIT_ADDRESS")), member.address, "from your address")]
        if self.cluster is not None:
            return self.admit_shared(member, checks)
        with self.lock:  # the three counts move together: no event is counted by one and refused by another
            for window, key, where in checks:
                if window.wait(key):
                    refused = self.window("refused", FLOOD_REFUSALS, FLOOD_WINDOW)
                    return ("limited", f"more than {window.limit} events a second {where}") \
                        if refused.take(request.sid) else ("flood", where)
            for window, key, _ in checks:
                window.hit(key)
        return "ok", None

    def admit_shared(self, member, checks):
        """``admit`` with several processes: the socket's own limit here (a socket lives in one
        process, and its events are handled one after another), the user's and the address's over
        every process's events in Redis (webapp/hosting/cluster.py)."""
        socket_window, sid, where = checks[0]
        refused_by = 0 if socket_window.wait(sid) else None
        if refused_by is None:
            refused_by = {0: None, 1: 1, 2: 2}[self.cluster.admit(member.user_id, member.address, checks[1][0].limit,
                                                                   checks[2][0].limit)]
        if refused_by is None:
            socket_window.hit(sid)
            return "ok", None
        window, _, where = checks[refused_by]
        if self.window("refused", FLOOD_REFUSALS, FLOOD_WINDOW).take(request.sid):
            return "limited", f"more than {window.limit} events a second {where}"
        return "flood", where

    def gate(self, game=None):
        """The sending socket's Member if this event may be handled; else answer (or disconnect) and None."""
        member = self.members.get(request.sid)
        if member is None:
            g.refused = "unknown_socket"
            disconnect()
            return None
        if not self.still_allowed(member):
            g.refused = "revoked"
            log.info("socket %s of user %s closed: the account logged out everywhere or was disabled",
                     request.sid, member.user_id)
            self.error("revoked", gettext("You were logged out: log in again to play on."), game)
            disconnect()
            return None
        verdict, why = self.admit(member)
        g.refused = "flood" if verdict == "flood" else "rate_limited"  # read by the host log if refused
        if verdict == "flood":
            log.warning("socket %s of user %s from %s kept flooding: disconnected", request.sid, member.user_id,
                        member.address)
            disconnect()
            return None
        if verdict == "limited":
            self.error("rate_limited", f"{why}: this one was dropped; keep flooding and the connection is closed",
                       game)
            return None
        return member

    def still_allowed(self, member):
        """Whether the socket's account keeps the session it connected with (not logged out everywhere,
        not disabled: both move the session version on), read at most every ACCOUNT_RECHECK seconds."""
        now = clock.monotonic()
        if now - member.checked < ACCOUNT_RECHECK:
            return True
        version = session_version(store.get_db(), member.user_id)
        if version != member.version:
            return False
        member.checked = now
        return True

    def unavailable(self, exc, game=None):
        """A write that could not get the database (locked past the busy timeout, or read-only):
        tell the sender to try again; log it once a minute, not per event."""
        if self.logged.take(type(exc).__name__ + str(exc)[:40]):
            log.warning("the database refused a socket event's write: %s (logged once a minute)", exc)
        self.error("busy", gettext("The server could not save this just now: nothing was changed; try again in a moment."),
                   game)

    # ------------------------------------------------------------ emitting

    def error(self, code, message, game=None):
        self.reply("error", {"game": game, "code": code, "message": message})

    def reply(self, event, payload):
        """Emit to the sending socket alone, unless it does not keep up (then it is closed). The sender is
        connected to this process: with a message queue the emit skips it (no other process decodes it)."""
        if self.keeping_up(request.sid):
            self.socketio.emit(event, payload, to=request.sid, ignore_queue=True)

    def backlog(self, sid):
        """Packets waiting to be written to the socket (its Engine.IO queue); 0 if unknown."""
        server = self.socketio.server
        try:
            eio_sid = server.manager.eio_sid_from_sid(sid, "/")
            sock = server.eio.sockets.get(eio_sid) if eio_sid else None
            return sock.queue.qsize() if sock is not None else 0
        except (AttributeError, KeyError, NotImplementedError):
            return 0

    def keeping_up(self, sid):
        """False (and the socket is closed) if it has more than OUTBOX_LIMIT packets waiting: a client
        that does not read cannot make the server hold its states without bound. It may connect
        again and ``join`` for the latest state."""
        waiting = self.backlog(sid)
        if waiting <= self.limit("OUTBOX_LIMIT"):
            return True
        log.warning("socket %s has %d packets waiting unread: closed as too slow", sid, waiting)
        self.close_now(sid)
        return False

    def close_now(self, sid):
        """Disconnect the socket here and now: its disconnect handling runs before this returns (a
        task started for it would wait while the socket's own events keep its greenlet busy) and
        nothing more is queued for it. Its Engine.IO connection, which answers no pings, ends at the
        ping timeout (closing it here races python-socketio's handling of packets still arriving)."""
        self.socketio.server.disconnect(sid, namespace="/")

    def slow_in(self, to):
        """The sockets of a room that do not keep up (closed by ``keeping_up``): skipped by an emit."""
        manager = self.socketio.server.manager
        if isinstance(manager, PubSubManager):
            return []
        sids = list(manager.rooms.get("/", {}).get(to, {}) or ())
        return [sid for sid in sids if not self.keeping_up(sid)]

    def send(self, event, payload, to):
        """Emit to a room, skipping its sockets that do not keep up."""
        slow = self.slow_in(to)
        self.socketio.emit(event, payload, to=to, skip_sid=slow or None)

    def seat_names(self, db, row):
        names = self.names.get(row["id"])
        if names is None:
            names = play.seat_names(db, row)
            if row["status"] == "active":
                self.names[row["id"]] = names
        return names

    def parts(self, row, game, seat):
        """The seat's Built view and legal actions at the row's version: from the cache, or built and kept."""
        key = (row["id"], seat, row["version"], row["created"])
        kept = self.states.get(key)
        if kept is not None:
            return kept[0]
        tree = game.view(seat)
        view = orjson.dumps(tree, option=orjson.OPT_NON_STR_KEYS)
        legal = orjson.dumps(game.legal_actions(seat) if seat is not None else [])
        with self.lock:
            self.built += 1
        built = Built(tree, view, legal, sorted(game.waiting_for()))
        # what is kept: the JSON, and the view's Python objects (about 4 times the JSON's bytes)
        self.states.put(key, built, 5 * len(view) + len(legal))
        return built

    def cached(self, row, seat):
        return self.states.get((row["id"], seat, row["version"], row["created"])) is not None

    def state(self, db, row, game, seat, events=(), names=None, extra=None, built=None, lang=None):
        """The ``state`` payload of one seat (or a spectator, whose log is in ``lang``); an online game's
        adds its ``online`` block."""
        built = built or self.parts(row, game, seat)
        if lang is None and seat in (0, 1):  # the seat's language, read from the account once per game
            marks = self.marks.setdefault(row["id"], {}) if row["status"] == "active" else None
            lang = play.seat_lang(row, seat, marks)
        payload = play.state_for(row, game, seat, events, names or self.seat_names(db, row), parts=built.parts(),
                                 lang=lang)
        if online_games.is_online(row):
            payload["online"] = extra if extra is not None else self.online.block(db, row)
        return payload

    def to_game(self, game_id, event, payload):
        """Emit to everyone in the game's room (``Notifier.to_game``): players and spectators alike."""
        self.socketio.emit(event, payload, to=room(game_id))

    def push(self, db, played):
        """Send every seat (and the spectators) of the game its own state after an action: once per
        seat and version, as a full ``state`` to the sockets that take those and as an ``update`` to
        those that asked for updates (docs/protocol.md "Updates")."""
        row, game = played.row, played.game
        names = self.seat_names(db, row)
        extra = self.online.block(db, row) if online_games.is_online(row) else None
        kinds = [(0, 0, None), (1, 1, None)] + [(None, kind, lang) for kind, lang in WATCH.items()]
        for seat, kind, lang in kinds:
            if seat is not None and row["seats"][seat] is None:
                continue
            full, updates = room(row["id"], kind), room(row["id"], kind, updates=True)
            to_full, to_updates = self.listening(full), self.listening(updates)
            if not (to_full or to_updates):
                continue
            before = self.states.latest(row["id"], seat) if to_updates else None
            built = self.parts(row, game, seat)
            state = self.state(db, row, game, seat, played.events, names, extra, built=built, lang=lang)
            if to_full:
                self.send("state", state, to=full)
            if to_updates:
                self.send(*self.update(state, built, before, row), to=updates)
        if row["status"] != "active":
            self.names.pop(row["id"], None)
            self.marks.pop(row["id"], None)
            self.states.drop_game(row["id"])
            play.PER_GAME.forget(game.state.static)  # its last log is written

    @staticmethod
    def update(state, built, before, row):
        """("update", payload) taking a socket from the seat's state ``before`` (parts, version,
        created: the one the server built and sent before) to ``state``; ("state", state) when there is
        no such state or the changes would not be smaller than the view."""
        if before is None or before[2] != row["created"] or before[1] >= state["version"]:
            return "state", state
        old = before[0]
        ops = orjson.dumps(diff(old.tree, built.tree), option=orjson.OPT_NON_STR_KEYS)
        if len(ops) >= built.view_size:
            return "state", state
        payload = {"game": state["game"], "version": state["version"], "base": before[1], "seat": state["seat"],
                   "status": state["status"], "waiting_for": state["waiting_for"], "view": orjson.Fragment(ops),
                   "events": state["events"], "log": state["log"]}
        if built.legal_json != old.legal_json:
            payload["legal_actions"] = built.legal
        if "online" in state:
            payload["online"] = state["online"]
        return "update", payload

    def listening(self, to):
        """False if nobody is in the room (then its state is not built); always True with a message
        queue, whose other processes' rooms this one cannot see."""
        manager = self.socketio.server.manager
        if isinstance(manager, PubSubManager):
            return True
        return bool(manager.rooms.get("/", {}).get(to))

    def enter(self, member, row, updates=None):
        """Put this socket into the game's rooms (its seat's, or the spectators'; of full states, or of
        updates if ``updates``, else as it joined before); return the seat."""
        seat = play.seat_of(row, member.user_id)
        kind = watch_kind(member.user_id) if seat is None else seat
        if updates is None:
            updates = row["id"] in member.updates
        join_room(room(row["id"]))
        join_room(room(row["id"], kind, updates=updates))
        leave_room(room(row["id"], kind, updates=not updates))
        for other in (WATCH if seat is None else ()):  # a spectator who changed language since
            if other != kind:
                leave_room(room(row["id"], other))
                leave_room(room(row["id"], other, updates=True))
        with self.lock:
            member.games[row["id"]] = seat
            if updates:
                member.updates.add(row["id"])
            else:
                member.updates.discard(row["id"])
        if online_games.is_online(row):
            self.online.arrived(store.get_db(), row, seat, request.sid)
        return seat

    # ------------------------------------------------------------ the CPU

    def kick_cpu(self, game_id):
        """Make sure a background task plays the CPU of this game (one task per game)."""
        with self.lock:
            if game_id in self.cpu:
                self.cpu[game_id] = True  # the running task looks again before it stops
                return
            self.cpu[game_id] = False
        lease = None
        if self.cluster is not None:  # one CPU task per game over every process (webapp/hosting/cluster.py)
            lease = self.cluster.lease(f"cpu:{game_id}", CPU_LEASE)
            if not self.cluster.take(lease):
                with self.lock:
                    del self.cpu[game_id]
                self.socketio.start_background_task(self.cpu_elsewhere, game_id)
                return
        self.socketio.start_background_task(self.run_cpu, game_id, lease)

    def run_cpu(self, game_id, lease=None):
        delay = self.app.config["CPU_DELAY"]

        def pause():
            if lease is not None and not self.cluster.renew(lease):
                raise LeaseLost(game_id)
            if delay:
                self.socketio.sleep(delay)

        db = store.connect(self.app.config["DATABASE"])
        try:
            while True:
                with self.lock:
                    self.cpu[game_id] = False
                failed = True
                try:
                    pause()
                    play.cpu_turns(db, game_id, on_action=lambda played: self.push(db, played), delay=pause)
                    failed = False
                except LeaseLost:
                    log.warning("the CPU lease of game %s lapsed: another process plays it", game_id)
                    with self.lock:
                        del self.cpu[game_id]
                    return
                except Exception:  # a bug must not kill the task silently with the flag set
                    log.exception("the CPU of game %s failed", game_id)
                with self.lock:
                    if not self.cpu[game_id]:
                        del self.cpu[game_id]
                        break
            if lease is not None:
                # Another process's player may have moved between this task's last look and the
                # lease's release, and found it taken: look once more now that it is free.
                self.cluster.give_back(lease)
                if not failed:
                    self.cpu_waiting(*play.load(db, game_id))
        finally:
            db.close()

    def cpu_elsewhere(self, game_id):
        """Another process holds this game's CPU lease. While its moves come, nothing to do; if the game
        stands still with the CPU to move until the lease could have lapsed, that process is gone (a
        crash): play here."""
        db = store.connect(self.app.config["DATABASE"])
        try:
            row, game = play.load(db, game_id)
            version = row["version"]
            for _ in range(int(CPU_LEASE / CPU_WATCH) + 2):
                self.socketio.sleep(CPU_WATCH)
                row, game = play.load(db, game_id)
                if row["version"] != version or play.cpu_to_move(row, game) is None:
                    return
                lease = self.cluster.lease(f"cpu:{game_id}", CPU_LEASE)
                if self.cluster.take(lease):
                    with self.lock:
                        mine = game_id not in self.cpu
                        if mine:
                            self.cpu[game_id] = False
                    if mine:
                        log.warning("game %s: the process that played its CPU is gone; this one plays it", game_id)
                        self.socketio.start_background_task(self.run_cpu, game_id, lease)
                    else:
                        self.cluster.give_back(lease)
                    return
        finally:
            db.close()

    def cpu_waiting(self, row, game):
        if play.cpu_to_move(row, game) is not None:
            self.kick_cpu(row["id"])

    # ------------------------------------------------------------ the clock ticker

    def watch_clocks(self):
        """Make sure the online games' clock ticker runs while there is something to watch
        (``Notifier.watch_clocks``): one task per process."""
        with self.ticker_lock:
            if self.ticking or not self.online.watching():
                return
            self.ticking = True
        self.socketio.start_background_task(self.run_ticker)

    def run_ticker(self):
        """Every ONLINE_TICK seconds, ``Online.look``: end the games whose clock ran out or whose absent
        player passed the automatic claim. Stops when nothing is left to watch (``watch_clocks`` starts
        it again); the check and the flag move under one lock, so a game tracked meanwhile is never
        left without a ticker."""
        online = self.online
        db = store.connect(self.app.config["DATABASE"])
        try:
            while True:
                self.socketio.sleep(online.tick_seconds())
                with self.ticker_lock:
                    if not online.watching():
                        self.ticking = False
                        return
                try:
                    online.look(db)
                except Exception:  # a bug must not stop every game's clock
                    log.exception("the online ticker failed")
        finally:
            online.let_go()
            db.close()


def register(app, socketio):
    """Attach the protocol's handlers to ``socketio``."""
    hub = Hub(app, socketio)
    hub.online = online_games.Online(app, notifier=hub)
    app.extensions["brigade_hub"] = hub
    app.extensions["brigade_online"] = hub.online

    def guarded(name, keys):
        """The common frame of a client event: a known socket, the rate limit, the payload's shape,
        and PlayError turned into an ``error`` to the sender alone."""
        def wrap(fn):
            def handler(payload=None, *extra):
                begun, outcome = time.perf_counter(), "error"  # the host log's line (never the payload)
                game = payload.get("game") if isinstance(payload, dict) else None
                game = game if isinstance(game, int) and not isinstance(game, bool) else None
                member = hub.gate(game)
                if member is None:
                    known = hub.members.get(request.sid)
                    hostlog.log_event(name, known.user_id if known else None, None, g.get("refused", "refused"))
                    return
                # refusals (PlayError messages through gettext) in the language the user reads the game in:
                # the socket's request has no g.user for webapp/i18n.py's select_locale to read
                g.locale_choice = play.user_lang(member.user_id, member.marks)
                try:
                    with hub.lease():
                        try:
                            fn(member, **check_payload(name, payload, keys, extra))
                            outcome = "ok"
                        except play.PlayError as exc:
                            outcome = exc.code  # the refusal's reason as a word: illegal, stale, forbidden…
                            hub.error(exc.code, exc.message, exc.game if exc.game is not None else game)
                        except sqlite3.OperationalError as exc:
                            if not any(words in str(exc) for words in UNAVAILABLE):
                                raise
                            outcome = "busy"
                            hub.unavailable(exc, game)
                finally:
                    hostlog.log_event(name, member.user_id, (time.perf_counter() - begun) * 1000, outcome)
            handler.__name__ = f"on_{name}"
            socketio.on_event(name, handler)
            return fn
        return wrap

    @socketio.on_error_default
    def on_error(exc):  # a bug: the sender hears of it, the connection and the server go on
        metrics.count_error(type(exc).__name__)
        log.exception("socket event %r failed", getattr(request, "event", None))
        hub.error("internal", "the server failed on this event; it was not applied")

    @socketio.on("connect")
    def on_connect(auth=None):
        try:
            hub.connect()
            metrics.count_socket(+1)
            hostlog.log_event("connect", hub.members[request.sid].user_id, None, "ok")
        except ConnectionRefusedError:
            hostlog.log_event("connect", session.get("user_id"), None, "refused")
            raise
        except Exception:  # never let a failure here accept a socket without a user
            log.exception("socket connect failed")
            raise ConnectionRefusedError("the server could not check your session") from None

    @socketio.on("disconnect")
    def on_disconnect(reason=None):
        member = hub.members.get(request.sid)
        hub.disconnected()
        if member is not None:
            metrics.count_socket(-1)
            hostlog.log_event("disconnect", member.user_id, None, "ok")

    @socketio.on(REFUSED)
    def on_refused(reason=None, *extra):
        """A packet JsonPacket refused (not JSON, a reserved event name, no name): answered, never run."""
        if hub.gate() is not None:
            hostlog.log_event("(refused packet)", hub.members[request.sid].user_id, None, "bad_request")
            hub.error("bad_request", reason if isinstance(reason, str) else "this message was refused")

    @guarded("join", {"game": "id", "updates?": "flag"})
    def on_join(member, game, updates=False):
        db = store.get_db()
        row = play.load_row(db, game)
        if online_games.is_invitation(row):  # never started: no board to show
            seat = hub.enter(member, row, updates)  # a waiting invitation: the room hears "started" when it starts
            answer = {"game": game, "status": row["status"]}
            if seat == 0:
                stored = online_games.info(db, game)
                answer.update(code=stored["code"], url=f"/join/{stored['code']}")
            hub.reply("invitation", answer)
            return
        seat = play.seat_of(row, member.user_id)
        if not hub.cached(row, seat) and not hub.window("built", hub.limit("STATES_PER_SECOND")).take(member.user_id):
            raise online_games.RateLimited(f"more than {hub.limit('STATES_PER_SECOND')} new states a second: "
                                           "join again in a moment", game)
        # a finished game's cached state needs no Game at all; an active one may wait for the CPU
        g = play.game_of(db, row) if row["status"] == "active" or not hub.cached(row, seat) else None
        seat = hub.enter(member, row, updates)
        hub.reply("state", hub.state(db, row, g, seat, lang=play.user_lang(member.user_id, member.marks) if seat is None else None))
        hub.cpu_waiting(row, g)

    @guarded("action", {"game": "id", "action": "action", "version": "version"})
    def on_action(member, game, action, version):
        db = store.get_db()
        row = play.load_row(db, game)
        seat = play.player_seat(row, member.user_id)
        if online_games.is_online(row):  # the clocks are a policy of online games (R18.3)
            played = hub.online.act(db, row, seat, action, version)
        else:  # CPU and story games: the one write path, nothing in between
            played = play.apply(db, row, seat, action, version)
        if played.seat is not None and member.games.get(game, "none") != played.seat:
            hub.enter(member, played.row)
        if played.seat is not None:  # an end by timeout was pushed already
            hub.push(db, played)
        hub.cpu_waiting(played.row, played.game)

    @guarded("leave", {"game": "id"})
    def on_leave(member, game):
        with hub.lock:
            seat = member.games.pop(game, None)
            member.updates.discard(game)
        leave_room(room(game))
        for kind in (WATCH if seat is None else [seat]):
            for updates in (False, True):
                leave_room(room(game, kind, updates=updates))
        hub.online.gone(game, seat, request.sid)

    @guarded("claim", {"game": "id"})
    def on_claim(member, game):
        hub.online.claim(store.get_db(), game, member.user_id)  # pushes the final state itself

    @guarded("emote", {"game": "id", "emote": "emote"})
    def on_emote(member, game, emote):
        hub.online.emote(store.get_db(), request.sid, game, member.user_id, emote)

    @guarded("rematch", {"game": "id"})
    def on_rematch(member, game):
        hub.online.rematch(store.get_db(), game, member.user_id)

    @socketio.on("*")
    def on_unknown(event, *args):
        if hub.gate() is not None:
            hostlog.log_event("(unknown event)", hub.members[request.sid].user_id, None, "bad_request")
            hub.error("bad_request", f"unknown event {short(event)}; send one of {', '.join(EVENTS)}")

    hub.online.resume()

    return hub


def check_payload(name, payload, keys, extra):
    """The payload's fields as keyword arguments, or BadRequest saying what is wrong."""
    if extra:
        raise play.BadRequest(f"{name}: send one payload object, got {1 + len(extra)} arguments")
    if not isinstance(payload, dict):
        raise play.BadRequest(f"{name}: the payload is an object like {example(keys)}, got {type(payload).__name__}")
    size = payload_size(payload)
    if size is None:
        raise play.BadRequest(f"{name}: the payload is not plain JSON") from None
    if size > MAX_PAYLOAD:
        raise play.BadRequest(f"{name}: the payload is {size} bytes; at most {MAX_PAYLOAD}")
    names = {key.rstrip("?") for key in keys}
    missing = sorted(key for key in keys if not key.endswith("?") and key not in payload)
    unknown = sorted(str(k)[:20] for k in set(payload) - names)
    if missing or unknown:
        raise play.BadRequest(f"{name}: expected {example(keys)}"
                              + (f"; missing {', '.join(missing)}" if missing else "")
                              + (f"; unknown {', '.join(unknown)}" if unknown else ""))
    for key, kind in keys.items():
        if key.rstrip("?") in payload:
            CHECKS[kind](name, key.rstrip("?"), payload[key.rstrip("?")])
    return dict(payload)


#: Where orjson's text of a payload may differ in length from the standard module's compact, ASCII-escaped
#: text: a number with a fraction or exponent (a float: "1e16" against "1e+16"), DEL (escaped by the
#: standard module), and any byte beyond ASCII (escaped as \uXXXX by it).
NOT_LIKE_JSON = re.compile(rb"[0-9][.eE]|[\x7f-\xff]")


def payload_size(payload):
    """The length of the payload as compact JSON (``json.dumps(payload, separators=(",", ":"))``), or
    None if it is not plain JSON. orjson's text has that length when it holds no float and only ASCII
    below DEL (what every real payload is); otherwise the standard module measures it. (A NaN would
    read as orjson's null, but the packet reader refuses NaN before any handler: ``JsonPacket``.)"""
    try:
        text = orjson.dumps(payload)
        if not NOT_LIKE_JSON.search(text):
            return len(text)
    except TypeError:  # an integer beyond 64 bits, a lone surrogate: the standard module decides
        pass
    try:
        return len(json.dumps(payload, separators=(",", ":")))
    except (TypeError, ValueError):
        return None


def example(keys):
    """The payload's shape for a message: ``{"game": …}``, an optional key as ``"updates"?: …``."""
    return "{" + ", ".join(f'"{k[:-1]}"?: …' if k.endswith("?") else f'"{k}": …' for k in keys) + "}"


def check_id(name, key, value):
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < MAX_INT:
        raise play.BadRequest(f"{name}: {key!r} is a game id (a positive integer), got {short(value)}")


def check_version(name, key, value):
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < MAX_INT:
        raise play.BadRequest(f"{name}: {key!r} is the version of your last state (an integer), got {short(value)}")


def check_flag(name, key, value):
    if not isinstance(value, bool):
        raise play.BadRequest(f"{name}: {key!r} is true or false, got {short(value)}")


def check_emote(name, key, value):
    if not isinstance(value, str) or not 0 < len(value) <= MAX_STRING:
        raise play.BadRequest(f"{name}: {key!r} is an emote id (a short string), got {short(value)}")


def check_action(name, key, action):
    """An action dict: a ``type`` and a few ids, ints or lists of ids (the engine checks the rest)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise play.BadRequest(f"{name}: 'action' is an object with a 'type', got {short(action)}")
    if len(action) > MAX_KEYS:
        raise play.BadRequest(f"{name}: an action has at most {MAX_KEYS} keys")
    for k, v in action.items():
        if len(k) > MAX_STRING:
            raise play.BadRequest(f"{name}: action key {short(k)} is too long")
        if isinstance(v, str):
            ok = len(v) <= MAX_STRING
        elif isinstance(v, bool):
            ok = False
        elif isinstance(v, int):
            ok = abs(v) < MAX_INT
        elif isinstance(v, list):
            ok = len(v) <= MAX_LIST and all(isinstance(x, str) and len(x) <= MAX_STRING for x in v)
        else:
            ok = False
        if not ok:
            raise play.BadRequest(f"{name}: action field {k!r} must be an id, a number or a list of ids, "
                                  f"got {short(v)}")


def short(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


CHECKS = {"id": check_id, "version": check_version, "action": check_action, "emote": check_emote, "flag": check_flag}
#: The client events (docs/protocol.md).
EVENTS = ("join", "action", "leave", "claim", "emote", "rematch")
