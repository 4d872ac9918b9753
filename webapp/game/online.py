"""Online games between friends on the running server (R18): ``Online``, one per app
(``app.extensions["brigade_online"]``), knows what only a running server knows. Which sockets sit at
which seat (presence, R18.4), the emote rate limits, a player's action with its clocks (``Online.act``,
R18.3), claims, and the ticker's work: ending games whose clock ran out (R18.3) or whose absent player
passed the automatic claim (R18.4). It tells the players through a notifier
(``webapp.game.notify.Notifier``) that the sockets layer sets at registration; that layer also runs
the ticker, as it runs every background task (docs/architecture.md).

Online games are a play mode (``modes.Mode``, registered at the end of this module): a player's action
goes through ``play.move`` to ``Online.act``, which writes the clocks in the same transaction as the
action (``play.apply(..., also=...)``), so they never disagree with the game. What is stored of an online
game (invitations, joining, rematches) is webapp/game/invitations.py's, its clock maths
webapp/game/onlineclock.py's. Presence is not stored: after a restart every seat counts as away from
the moment the server started.
"""

import contextlib
import logging
import math
import threading

from flask import current_app
from flask_babel import gettext  # the request's language; English outside a request

from webapp import store
from webapp.clock import now_ms
from webapp.game import modes, play
from webapp.game.invitations import MODE, before_start, info, is_online, offer_rematch, write_clock
from webapp.game.onlineclock import clock_moved, clock_new, public_clock, timed_out
from webapp.game.seatnames import seat_names
from webapp.hosting import metrics
from webapp.hosting.ratelimit import Window
from webapp.store import online as store_online

log = logging.getLogger(__name__)

#: The emotes a player may send (no free text, R18); clients show them in their own words.
EMOTES = ("greet", "well_played", "oops", "thinking", "thanks", "wow", "good_game", "hurry")

#: Seconds the ticker's lease lives unless renewed (each tick renews it): how long the online games'
#: clocks may stand still when the process running the ticker dies.
TICKER_LEASE = 5.0


class RateLimited(play.PlayError):
    code = "rate_limited"


class Track:
    """What the server keeps in memory of one active online game: its clocks (a copy of the stored
    ones), the sockets at each seat, and since when each seat has had none."""

    __slots__ = ("game_id", "clock", "sockets", "away_since", "here")

    def __init__(self, game_id, clock, now):
        self.game_id, self.clock = game_id, clock
        self.sockets = (set(), set())
        self.away_since = [now, now]
        self.here = None  # with several processes: whether each seat has a socket on any of them

    def connected(self, seat):
        return bool(self.sockets[seat]) if self.here is None else self.here[seat]


class Online:
    """Presence, clocks, claims, emotes and rematches of one app's online games. ``notifier``
    (``webapp.game.notify.Notifier``) carries what the players must hear and runs the ticker."""

    def __init__(self, app, notifier):
        self.app, self.notifier = app, notifier
        #: Held for a few dict reads and writes, never across a call that takes it again: a plain Lock, as
        #: an RLock under gevent is Python code (its owner's ident looked up on every acquire).
        self.lock = threading.Lock()
        #: Held around every write of an online game: this process's writers queue here, woken at
        #: once, rather than in SQLite's busy handler, which sleeps 1, 2, 5, … 100 ms between tries.
        self.write_lock = threading.Lock()
        self.tracks = {}
        self.emote_windows = {}  # (limit, seconds) -> Window of sockets' emotes (webapp.hosting.ratelimit)
        self.stopped = False
        #: webapp.hosting.cluster.Cluster with several processes: presence over all of them, one ticker.
        self.cluster = app.extensions.get("brigade_cluster")
        self.ticker_lease = self.cluster.lease("ticker", TICKER_LEASE) if self.cluster is not None else None
        self.leading = False

    # ------------------------------------------------------------ settings

    def seconds(self, key):
        return float(self.app.config[key])

    @property
    def claim_ms(self):
        return int(self.seconds("ONLINE_CLAIM_AFTER") * 1000)

    @property
    def auto_ms(self):
        return int(self.seconds("ONLINE_AUTO_AFTER") * 1000)

    # ------------------------------------------------------------ tracking

    def resume(self, start=True, db=None):
        """At start: track every active online game in the database (their clocks run on; their
        players count as away from now until they reconnect). With several processes the ticker's
        holder does it again at each tick (``start=False``): games another process started or moved
        are tracked with their stored clocks, games over are dropped."""
        path = self.app.config.get("DATABASE")
        if not path:
            return
        with store.pool_of(self.app, path).lent() if db is None else contextlib.nullcontext(db) as db:
            found = store_online.active_clocks(db)
        now = now_ms()
        with self.lock:
            for r in found:
                clock = r["clock"]
                t = self.tracks.setdefault(r["game_id"], Track(r["game_id"], clock, now))
                if clock.get("version", -1) > t.clock.get("version", -1):
                    t.clock = clock
            if not start:
                active = {r["game_id"] for r in found}
                for game_id in [g for g in self.tracks if g not in active]:
                    del self.tracks[game_id]
        if start and found:
            log.info("tracking %d online games in progress", len(found))
        if start and (found or self.cluster is not None):
            self.notifier.watch_clocks()

    def track(self, db, row):
        """The Track of an active online game (made from the stored clocks if new), or None."""
        if not is_online(row) or row["status"] != "active":
            return None
        with self.lock:
            t = self.tracks.get(row["id"])
        if t is not None:
            return t
        stored = info(db, row["id"])
        if stored is None:
            return None
        with self.lock:
            t = self.tracks.setdefault(row["id"], Track(row["id"], stored["clock"], now_ms()))
        self.notifier.watch_clocks()
        return t

    def forget(self, game_id):
        with self.lock:
            self.tracks.pop(game_id, None)

    def updated(self, played, clock):
        """After an action or an end: keep the Track's clocks, forget the game once it is over."""
        with self.lock:
            t = self.tracks.get(played.row["id"])
            if played.row["status"] != "active":
                self.tracks.pop(played.row["id"], None)
            elif t is not None and clock is not None and clock["version"] >= t.clock.get("version", -1):
                t.clock = clock  # two actions' threads may get here out of order: keep the newest

    # ------------------------------------------------------------ presence

    def arrived(self, db, row, seat, sid):
        """A socket of ``seat``'s user joined the game; tell the room if the seat was away."""
        if seat is None:
            return
        t = self.track(db, row)
        if t is None:
            return
        with self.lock:
            back = not t.sockets[seat]
            t.sockets[seat].add(sid)
            t.away_since[seat] = None
        if self.cluster is not None:  # back only if no process had a socket at the seat
            back = self.cluster.seat_join(row["id"], seat, sid)
            self.share(t)
        if back:
            self.emit_presence(t)

    def gone(self, game_id, seat, sid):
        """A socket left the game (or disconnected); the seat is away once its last socket is gone."""
        if seat is None:
            return
        with self.lock:
            t = self.tracks.get(game_id)
            if t is None or sid not in t.sockets[seat]:
                return
            t.sockets[seat].discard(sid)
            away = not t.sockets[seat]
            if away:
                t.away_since[seat] = now_ms()
        if self.cluster is not None:  # away only if it was the seat's last socket on any process
            away = self.cluster.seat_leave(game_id, seat, sid)
            self.share(t)
        if away:
            self.emit_presence(t)

    def share(self, *tracks):
        """With several processes: read each seat's presence over all of them into the tracks."""
        if self.cluster is None or not tracks:
            return
        answers = self.cluster.seat_states([(t.game_id, s) for t in tracks for s in (0, 1)])
        with self.lock:
            for i, t in enumerate(tracks):
                seats = answers[2 * i:2 * i + 2]
                if None in seats:  # Redis failed: keep what was last known
                    continue
                t.here = [seats[0][0], seats[1][0]]
                t.away_since = [seats[s][1] for s in (0, 1)]

    def forget_socket(self, sid):
        for window in list(self.emote_windows.values()):
            window.clear(sid)

    def emote_window(self, limit, seconds):
        """The per-socket emote limiter at the current settings (ONLINE_EMOTE_LIMIT, ONLINE_EMOTE_WINDOW)."""
        key = (limit, seconds)
        window = self.emote_windows.get(key)
        if window is None:
            window = self.emote_windows.setdefault(key, Window(limit, seconds))
        return window

    def presence(self, t, now):
        """Per seat: connected, how long away, and (while the game waits for an away seat and the
        other is connected) the ms until the other may claim and until the automatic claim."""
        self.share(t)
        out = []
        with self.lock:
            for s in (0, 1):
                here = t.connected(s)
                entry = {"connected": here, "away_ms": None if here else max(0, now - t.away_since[s]),
                         "claim_in_ms": None, "auto_in_ms": None}
                since = t.clock["from"][s]
                if not here and since is not None and t.connected(1 - s):
                    start = max(t.away_since[s], since)
                    entry["claim_in_ms"] = max(0, start + self.claim_ms - now)
                    entry["auto_in_ms"] = max(0, start + self.auto_ms - now)
                out.append(entry)
        return out

    def emit_presence(self, t):
        self.notifier.to_game(t.game_id, "presence", {"game": t.game_id, "presence": self.presence(t, now_ms())})

    # ------------------------------------------------------------ what a state adds

    def block(self, db, row):
        """The ``online`` part of a ``state`` of an online game (the same for every reader); None for
        another game."""
        if not is_online(row):
            return None
        now = now_ms()
        t = self.track(db, row)
        stored = None
        if t is None or row["status"] != "active":
            stored = info(db, row["id"]) or {"clock": clock_new(0), "rematch": {"offered_by": None, "game": None},
                                             "code": None}
            clock = stored["clock"]
        else:
            clock = t.clock
            if clock.get("version") != row["version"]:  # moved by another process: the stored clocks are newer
                stored = info(db, row["id"])
                clock = stored["clock"] if stored else clock
                stored = None
        if stored is None:
            stored = {"rematch": {"offered_by": None, "game": None}}
        presence = self.presence(t, now) if t is not None else [
            {"connected": False, "away_ms": None, "claim_in_ms": None, "auto_in_ms": None} for _ in (0, 1)]
        return {"clock": public_clock(clock, now), "presence": presence,
                "rematch": {"offered_by": stored["rematch"].get("offered_by"), "game": stored["rematch"].get("game")},
                "rematch_of": row["setup"].get("rematch_of"), "emotes": list(EMOTES)}

    # ------------------------------------------------------------ acting with clocks

    def act(self, db, row, seat, action, version):
        """``play.apply`` for an online game (``row``; ``seat`` the player's, ``play.player_seat``), with
        its clocks: an action that comes after its seat's clock ran out ends the game by timeout
        instead (R18.3). The online mode's ``act`` (``play.move``); other games' actions go to ``play.apply``."""
        game_id = row["id"]
        if not is_online(row):
            raise play.Illegal("clocks are for online games", game_id)
        if row["status"] == "waiting":
            raise play.Illegal(gettext("The game has not started: your friend has not joined yet."), game_id)
        now = now_ms()
        clock = self.stored_clock(db, row)
        if clock is not None and row["status"] == "active":
            verdict = timed_out(clock, now)
            if verdict is not None:
                played = self.finish(db, game_id, *verdict, now=now)
                if played is not None:
                    return played
                raise play.Stale(f"game {game_id} moved on; send join", game_id)
        moved = {}

        def keep_clock(db, new_version, game):
            moved["clock"] = clock_moved(clock, game.waiting_for(), now, new_version)
            write_clock(db, game_id, moved["clock"])

        played = play.apply(db, row, seat, action, version, also=keep_clock if clock is not None else None,
                            lock=self.write_lock)
        self.updated(played, moved.get("clock"))
        return played

    def stored_clock(self, db, row):
        """The game's stored clocks (None: no online_games row): the Track's copy when it is at the
        row's version, else read. The clocks are written with the version they belong to, in the
        same transaction as the game's row, and this process's Track keeps each copy it writes, so a
        copy at the row's version is what is stored; another process's write moved the version on."""
        with self.lock:
            t = self.tracks.get(row["id"])
            if t is not None and t.clock.get("version") == row["version"]:
                return t.clock
        stored = info(db, row["id"])
        return stored["clock"] if stored else None

    def finish(self, db, game_id, winner, reason, now=None):
        """End the game (timeout, disconnect) with its clocks stopped, push every member's state;
        return Played, or None if the game was over or moved on meanwhile."""
        now = now_ms() if now is None else now
        stored = info(db, game_id)
        moved = {}

        def stop_clocks(db, new_version, game):
            if stored is not None:
                moved["clock"] = clock_moved(stored["clock"], set(), now, new_version)
                write_clock(db, game_id, moved["clock"])

        try:
            played = play.end(db, game_id, winner, reason, also=stop_clocks, lock=self.write_lock)
        except (play.Illegal, store.StaleVersion):
            return None
        self.updated(played, moved.get("clock"))
        self.notifier.push(db, played)
        return played

    # ------------------------------------------------------------ claims (R18.4)

    def claim(self, db, game_id, user_id):
        """The user claims the win against an opponent away past ONLINE_CLAIM_AFTER on their move."""
        row = play.load_row(db, game_id)
        if not is_online(row):
            raise play.Illegal(gettext("Only online games can be claimed."), game_id)
        seat = play.player_seat(row, user_id)
        if row["status"] != "active":
            raise play.Illegal(gettext("This game is not being played."), game_id)
        t = self.track(db, row)
        other = 1 - seat
        now = now_ms()
        since = info(db, game_id)["clock"]["from"][other]  # the stored clocks: the truth on whose move it is
        self.share(t)
        with self.lock:
            here, away = t.connected(other), t.away_since[other]
        name = seat_names(db, row)[other]
        if here:
            raise play.Illegal(gettext("%(name)s is connected: nothing to claim.", name=name), game_id)
        if since is None:
            raise play.Illegal(gettext("The game waits for you, not for %(name)s: a claim needs their move.", name=name), game_id)
        wait = max(away, since) + self.claim_ms - now
        if wait > 0:
            raise play.Illegal(gettext("%(name)s has been away on their move for less than %(after)s s: you may claim in "
                                       "%(wait)s s.", name=name, after=f"{self.seconds('ONLINE_CLAIM_AFTER'):g}",
                                       wait=math.ceil(wait / 1000)), game_id)
        played = self.finish(db, game_id, seat, "disconnect", now=now)
        if played is None:
            raise play.Stale(f"game {game_id} moved on; send join", game_id)
        return played

    # ------------------------------------------------------------ the ticker's work
    # The ticker itself (a background task that calls ``look`` every ``tick_seconds()`` while
    # ``watching()``) belongs to the notifier's owner, the sockets layer (``Notifier.watch_clocks``).

    def stop(self):
        """Stop the ticker (tests); tracked games stay tracked."""
        with self.lock:
            self.stopped = True

    def watching(self):
        """Whether the ticker has anything to watch: tracked games, or other processes' games (with
        several processes); never once stopped."""
        with self.lock:
            return not self.stopped and (bool(self.tracks) or self.cluster is not None)

    def tick_seconds(self):
        return self.seconds("ONLINE_TICK")

    def look(self, db):
        """One look of the ticker: end the games that are due, if this process leads (``lead``)."""
        if self.lead(db):
            self.tick(db)
        metrics.count_ticker_look()

    def let_go(self):
        """The ticker stopped: give the ticker lease back to the other processes, if held."""
        if self.leading:
            self.leading = False
            self.cluster.give_back(self.ticker_lease)

    def lead(self, db):
        """Whether this process ends games whose clock ran out: always with one process; with several,
        the one holding the ticker lease (taken when free, renewed each tick; a process that dies
        frees it within TICKER_LEASE seconds). Every process first re-reads the active online games,
        so its tracks and clocks follow what the others did."""
        if self.cluster is None:
            return True
        leading = self.cluster.take(self.ticker_lease)
        if leading != self.leading:
            self.leading = leading
            log.info("process %s %s the clock ticker of the online games", self.cluster.process,
                     "runs" if leading else "no longer runs")
        self.resume(start=False, db=db)  # every process: its tracks follow the games the others moved or ended
        return leading

    def verdict(self, t, clock, now):
        """(winner, reason) if the game must end now: a clock ran out (R18.3), or a player away on
        their move past ONLINE_AUTO_AFTER while the other is connected (R18.4); else None."""
        out = timed_out(clock, now)
        if out is None:
            for s in (0, 1):
                since = clock["from"][s]
                if (since is not None and not t.connected(s) and t.connected(1 - s)
                        and now - max(t.away_since[s], since) >= self.auto_ms):
                    return 1 - s, "disconnect"
        return out

    def due(self, now):
        """The tracked games that look due from memory: [game id]."""
        with self.lock:
            tracks = list(self.tracks.values())
        self.share(*tracks)
        with self.lock:
            return [t.game_id for t in self.tracks.values() if self.verdict(t, t.clock, now) is not None]

    def tick(self, db):
        """One look at every tracked game: end those that are due, judged again on the stored clocks."""
        now = now_ms()
        for game_id in self.due(now):
            row = play.load_row(db, game_id)
            stored = info(db, game_id)
            with self.lock:
                t = self.tracks.get(game_id)
                if t is None or row["status"] != "active" or stored is None:
                    self.tracks.pop(game_id, None)
                    continue
                if stored["clock"]["version"] >= t.clock.get("version", -1):
                    t.clock = stored["clock"]  # the memory may be behind the database
                verdict = self.verdict(t, stored["clock"], now)
            if verdict is not None:
                self.finish(db, game_id, *verdict, now=now)

    # ------------------------------------------------------------ emotes

    def emote(self, db, sid, game_id, user_id, emote):
        """Relay one of the fixed emotes from a player to the game's room; rate limited per socket."""
        if emote not in EMOTES:
            raise play.BadRequest(f"unknown emote {emote[:32]!r}; one of {', '.join(EMOTES)}", game_id)
        row = play.load_row(db, game_id)
        seat = play.seat_of(row, user_id)
        if seat is None:
            raise play.Forbidden(gettext("Only the players send emotes."), game_id)
        limit, window = int(self.app.config["ONLINE_EMOTE_LIMIT"]), self.seconds("ONLINE_EMOTE_WINDOW")
        if limit < 1 or not self.emote_window(limit, window).take(sid):  # 0: no emotes at all
            raise RateLimited(gettext("At most %(limit)s emotes in %(window)s s.", limit=limit, window=f"{window:g}"), game_id)
        self.notifier.to_game(game_id, "emote", {"game": game_id, "seat": seat, "emote": emote})

    # ------------------------------------------------------------ starting games

    def started(self, db, row):
        """A game just started (a join or a rematch): track it and tell whoever waits in its room."""
        self.track(db, row)
        self.notifier.to_game(row["id"], "started", {"game": row["id"], "url": f"/play/{row['id']}"})

    def ended_by_host(self, db, played):
        """A game the host ended (``play.end_by_host``): both boards (and the spectators) get its
        last state at once, with the host's words; an online game's clocks stop being watched."""
        with self.lock:
            self.tracks.pop(played.row["id"], None)
        self.notifier.push(db, played)

    def cancelled(self, game_id):
        """An invitation was withdrawn: whoever waits on it (the inviter's other tabs) hears it."""
        self.notifier.to_game(game_id, "invitation", {"game": game_id, "status": "aborted"})

    def rematch(self, db, game_id, user_id):
        """Offer or accept a rematch; tell the room; start the new game once accepted."""
        offer = offer_rematch(db, game_id, user_id)
        payload = {"game": game_id, "offered_by": offer["offered_by"], "new_game": offer["game"],
                   "url": f"/play/{offer['game']}" if offer["game"] else None}
        if offer["game"] is not None:
            self.track(db, play.load_row(db, offer["game"]))
        self.notifier.to_game(game_id, "rematch", payload)
        return offer


# ---------------------------------------------------------------- the online mode

#: What other services do when an online game ends, each ``(db, row)`` and never raising: the ladder's
#: ratings (webapp/social/ratings.py) add theirs with ``when_over``, as a service above this one.
ENDINGS = []


def when_over(step):
    """Run ``step(db, row)`` after every online game that ends (once, however often it is added)."""
    if step not in ENDINGS:
        ENDINGS.append(step)


def game_over(db, row):
    """The online mode's end of a game (``Mode.game_over``): the steps added with ``when_over``."""
    for step in ENDINGS:
        step(db, row)


def act(db, row, seat, action, version):
    """The online mode's action (``Mode.act``, through ``play.move``): the running app's ``Online.act``,
    which keeps the clocks (R18.3)."""
    return current_app.extensions["brigade_online"].act(db, row, seat, action, version)


modes.register_mode(MODE, modes.Mode(opponent_name=lambda row, lang: None, reward_source=lambda row: None,
                                     game_over=game_over, act=act,
                                     before_start=before_start))
