"""The ``Hub``: one app's sockets, and the services' notifier (``webapp.game.notify.Notifier``).

It keeps who is connected (``members``), lets an event through or not (``gate``: the account still
allowed, the flood limits), lends the event a database connection (``lease``), puts sockets into a
game's rooms (``enter``), and answers the game events (``join``, ``act``, ``leave``) by calling the game
services. What it tells the players goes out through its own emitting (``Outbox``) and the state pusher
(``statepush.py``); its background tasks are the CPU's moves (``cpurunner.py``), the online games'
clock ticker (``ticker.py``) and the play-anyone queue's ticker (``queueticker.py``), plus the cluster's heartbeat with several processes.
"""

import logging
import sqlite3
import threading

from flask import g, request, session
from flask_babel import gettext
from flask_socketio import ConnectionRefusedError, disconnect, join_room, leave_room

from webapp import i18n, store
from webapp.game import play, seatnames, takeback
from webapp.game import online as online_games
from webapp.hosting.ratelimit import Window
from webapp.social import presence, watching

from . import memory
from .cpurunner import CpuRunner
from .floods import Floods, limit
from .members import Member, client_address, still_allowed
from .outbox import Outbox
from .rooms import WATCH, room, rooms_of, watch_kind
from .statepush import StatePusher
from .queueticker import QueueTicker
from .ticker import ClockTicker

log = logging.getLogger(__name__)


def N_(text):
    """Marks a msgid for pybabel extract; translated per reader in ``Hub.cpu_unavailable``."""
    return text


#: What a game's sockets hear when the CPU's move could not be written (code ``busy``).
CPU_BUSY = N_("The server could not save the CPU's move just now: it will try again in a moment.")


class EventLease:
    """``Hub.lease``: a plain context manager (one per event that touches a game, cheaper than a
    generator's) that lends a pooled connection as ``g.db`` for the block."""

    __slots__ = ("pool", "db")

    def __init__(self, pool):
        self.pool, self.db = pool, None

    def __enter__(self):
        if self.pool is not None and "db" not in g:
            self.db = g.db = self.pool.borrow()

    def __exit__(self, *exc):
        db, self.db = self.db, None
        if db is not None:
            g.pop("db", None)
            self.pool.give_back(db)
        return False


class Hub(Outbox):
    """The sockets of one app: who is connected, rate limits, what the services tell the players
    (the notifier of ``webapp.game.notify``), and every background task: the CPU's moves, the
    online games' clock ticker and the play-anyone queue's ticker."""

    def __init__(self, app, socketio):
        super().__init__(socketio, self.limit)
        self.app = app
        path = app.config.get("DATABASE")
        self.pool = store.pool_of(app, path) if path else None  # the one its pages borrow from too
        self.lock = threading.Lock()
        self.members = {}
        #: webapp.hosting.cluster.Cluster with several processes (MESSAGE_QUEUE), else None: then the caps,
        #: the per-user and per-address limits, the CPU tasks and presence count in this process alone.
        self.cluster = app.extensions.get("brigade_cluster")
        self.floods = Floods(app.config, self.cluster)
        self.pusher = StatePusher(self, int(self.limit("STATE_CACHE_BYTES")))
        self.states, self.names = self.pusher.states, self.pusher.names
        self.runner = CpuRunner(app, socketio, self.push, self.cluster, unavailable=self.cpu_unavailable)
        self.cpu = self.runner.tasks  # game id -> "run again" flag of its running CPU task
        self.ticker = ClockTicker(app, socketio)
        self.queue_ticker = QueueTicker(app, socketio)
        self._online = None
        self.logged = Window(1, 60.0)  # one log line a minute per kind of database trouble
        self.trimmed = Window(1, memory.TRIM_EVERY)
        if self.cluster is not None:
            socketio.start_background_task(self.cluster.run, socketio.sleep)

    @property
    def online(self):
        """webapp.game.online.Online: presence, clocks, claims of online games."""
        return self._online

    @online.setter
    def online(self, online):
        self._online = self.pusher.online = self.ticker.online = self.queue_ticker.online = online

    def limit(self, key):
        """A flood-limit setting (webapp/config.py), derived from RATE_LIMIT when None."""
        return limit(self.app.config, key)

    def window(self, name, limit, seconds=1.0):
        return self.floods.window(name, limit, seconds)

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
            memory.trim_memory()

    def lease(self):
        """A pooled connection as this event's ``store.get_db()`` (given back, not closed, at the end);
        nothing to do when the event has one already, or without a pool."""
        return EventLease(self.pool)

    # ------------------------------------------------------------ letting an event through

    def gate(self, game=None):
        """The sending socket's Member if this event may be handled; else answer (or disconnect) and None."""
        member = self.members.get(request.sid)
        if member is None:
            g.refused = "unknown_socket"
            disconnect()
            return None
        if not still_allowed(member, self.lease):  # its recheck on a pooled connection
            g.refused = "revoked"
            log.info("socket %s of user %s closed: the account logged out everywhere or was disabled",
                     request.sid, member.user_id)
            self.error("revoked", gettext("You were logged out: log in again to play on."), game)
            disconnect()
            return None
        verdict, why = self.floods.admit(member, request.sid)
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

    def unavailable(self, exc, game=None):
        """A write the database could not take (locked past the busy timeout, read-only, a full disk):
        tell the sender to try again; log it once a minute, not per event."""
        self.trouble_logged(exc, "a socket event's write")
        self.error("busy", gettext("The server could not save this just now: nothing was changed; try again in a moment."),
                   game)

    def cpu_unavailable(self, db, game_id, exc):
        """The CPU's move in ``game_id`` could not be written (``store.db.trouble``; the CPU runner tries
        again after a back-off): one log line a minute, as for the socket events, and everyone in the
        game's rooms told ``busy``, each in the language they read the game in."""
        self.trouble_logged(exc, f"the CPU's move in game {game_id}")

        def busy(lang):
            return {"game": game_id, "code": "busy", "message": i18n.catalog(lang).gettext(CPU_BUSY)}
        try:
            seats = play.load_row(db, game_id)["seats"]
        except (play.NotFound, sqlite3.OperationalError):  # gone, or not even readable: nobody to tell
            return
        for seat, user_id in enumerate(seats):
            if user_id is not None:
                self.to_seat(game_id, seat, "error", busy(seatnames.user_lang(user_id)))
        for kind, lang in WATCH.items():
            for name in rooms_of(game_id, kind):
                self.emit("error", busy(lang), to=name)

    def trouble_logged(self, exc, what):
        """Log database trouble once a minute per kind (not once per event or per CPU retry)."""
        if self.logged.take(type(exc).__name__ + str(exc)[:40]):
            log.warning("the database refused %s: %s (logged once a minute)", what, exc)

    def error(self, code, message, game=None):
        self.reply("error", {"game": game, "code": code, "message": message})

    # ------------------------------------------------------------ the game events

    def join(self, member, game, updates=False):
        """``join``: load, the game's answer while it never started (``play.before_start``: an invitation),
        else the seat's (or spectator's) state."""
        db = store.get_db()
        row = play.load_row(db, game)
        watching.check(db, row, member.user_id)  # who may watch (the players' choice): refused as a missing game
        seat = play.seat_of(row, member.user_id)
        waiting = play.before_start(db, row, seat)  # its mode's way; no board to show
        if waiting is not None:
            self.enter(member, row, updates)  # a waiting invitation: the room hears "started" when it starts
            self.reply("invitation", waiting)
            return
        if not self.cached(row, seat) and not self.window("built", self.limit("STATES_PER_SECOND")).take(member.user_id):
            raise online_games.RateLimited(f"more than {self.limit('STATES_PER_SECOND')} new states a second: "
                                           "join again in a moment", game)
        # a finished game's cached state needs no Game at all; an active one may wait for the CPU
        loaded = play.game_of(db, row) if row["status"] == "active" or not self.cached(row, seat) else None
        seat = self.enter(member, row, updates)
        if seat is not None and row["status"] == "active":
            presence.enter_game(member.user_id, request.sid, game)
        self.reply("state", self.pusher.state(db, row, loaded, seat,
                                              lang=seatnames.user_lang(member.user_id, member.marks) if seat is None else None))
        self.runner.waiting(row, loaded)

    def act(self, member, game, action, version):
        """``action``: the player's action through the game service, then every seat's new state."""
        db = store.get_db()
        played = play.move_as(db, game, member.user_id, action, version)  # its mode's way
        if played.seat is not None and member.games.get(game, "none") != played.seat:
            self.enter(member, played.row)
        if played.seat is not None:  # an end by timeout was pushed already
            self.push(db, played)
        self.runner.waiting(played.row, played.game)

    def take_back(self, member, game, version):
        """``take_back``: the player's last move undone through the service (CPU and story games), then
        every seat's state of the game without it."""
        db = store.get_db()
        played = takeback.take_back(db, game, member.user_id, version)
        if member.games.get(game, "none") != played.seat:
            self.enter(member, played.row)
        self.push(db, played)
        self.runner.waiting(played.row, played.game)

    def leave(self, member, game):
        """``leave``: out of the game's rooms (its presence noted)."""
        with self.lock:
            seat = member.games.pop(game, None)
            member.updates.discard(game)
        leave_room(room(game))
        for kind in (WATCH if seat is None else [seat]):
            for name in rooms_of(game, kind):
                leave_room(name)
        self.online.gone(game, seat, request.sid)
        presence.leave_game(member.user_id, request.sid)

    @staticmethod
    def joined(member, game):
        """Forbidden unless this socket joined the game (its rooms are where the game's messages go)."""
        if game not in member.games:
            raise play.Forbidden(gettext("Open the game first."), game)

    def cached(self, row, seat):
        return self.pusher.cached(row, seat)

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
        self.online.arrived(store.get_db(), row, seat, request.sid)  # presence: online games' alone
        return seat

    # ------------------------------------------------------------ the notifier (webapp.game.notify)

    def to_game(self, game_id, event, payload):
        """Emit to everyone in the game's room (``Notifier.to_game``): players and spectators alike."""
        self.emit(event, payload, to=room(game_id))

    def to_user(self, user_id, event, payload):
        """Emit to every socket of the user (``Notifier.to_user``; each joins its user's room at connect)."""
        self.emit(event, payload, to=f"user:{user_id}")

    def to_seat(self, game_id, seat, event, payload):
        """Emit to one player's sockets in the game (``Notifier.to_seat``): its full-state and update rooms."""
        for name in rooms_of(game_id, seat):
            self.emit(event, payload, to=name)

    def to_spectators(self, game_id, event, payload):
        """Emit to the game's spectators alone (``Notifier.to_spectators``), every language's rooms."""
        for kind in WATCH:
            for name in rooms_of(game_id, kind):
                self.emit(event, payload, to=name)

    def push(self, db, played):
        """Every seat's (and the spectators') own state after ``played`` (``Notifier.push``)."""
        self.pusher.push(db, played)

    def watch_clocks(self):
        """Make sure the online games' clock ticker runs (``Notifier.watch_clocks``)."""
        self.ticker.watch()

    def watch_queue(self):
        """Make sure the play-anyone queue's ticker runs (``Notifier.watch_queue``)."""
        self.queue_ticker.watch()
