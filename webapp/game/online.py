"""Online games between friends (R18): invitations, clocks, presence, claims, rematches, emotes, replays.

Two layers:

* functions over a database connection (``create_invitation``, ``join``, ``act_clocked``…): what is
  stored. An online game is a ``games`` row with ``mode = "online"`` plus an ``online_games`` row
  (schema m003) holding its invitation code, its clocks and its rematch offer. An invitation is a
  game in status ``waiting`` with seat 1 open and no state yet; the friend's join fills seat 1,
  rolls the dice (``Game.new(first=None)``, R5.1) and makes it ``active``.
* ``Online``, one per app (``app.extensions["brigade_online"]``): what only a running server knows.
  Which sockets sit at which seat (presence, R18.4), the emote rate limits, and the ticker's work:
  ending games whose clock ran out (R18.3) or whose absent player passed the automatic claim (R18.4).
  It tells the players through a notifier (``webapp.game.notify.Notifier``) that the sockets layer
  sets at registration; that layer also runs the ticker, as it runs every background task
  (docs/architecture.md).

Clocks (R18.3) are stored, so they survive a restart: per seat the milliseconds left, and the
wall-clock time (ms since the epoch) its current wait began, or null while the game does not wait
for that seat; ``version`` is the game version they belong to. They are written in the same
transaction as the action (``play.apply(..., also=...)``) or the end of the game that moves them,
so they can never disagree with the game. Presence is not stored: after a restart every seat
counts as away from the moment the server started.

Every move still goes through ``webapp.game.play`` (load, seat, version, ``Game.apply``, store).
"""

import json
import logging
import math
import secrets
import threading

from flask_babel import gettext, ngettext  # the request's language; English outside a request

from webapp import clock, store
from webapp.config import DEFAULTS
from webapp.game import gamelog, play
from webapp.game.replay import steps as replay_steps
from webapp.store import online as store_online
from webapp.engine import Game
from webapp.hosting import metrics
from webapp.hosting.ratelimit import Window

log = logging.getLogger(__name__)

MODE = "online"
#: The emotes a player may send (no free text, R18); clients show them in their own words.
EMOTES = ("greet", "well_played", "oops", "thinking", "thanks", "wow", "good_game", "hurry")
#: Invitation codes: 10 characters without look-alikes (no 0/O, 1/I/L): 31^10 ≈ 8·10^14 codes, about
#: 49 bits, so guessing one at the join rate limit (docs/security.md) takes longer than any
#: invitation stays open. Dashes and spaces in a typed code are ignored.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 10
#: The seed an invitation is stored with until its game starts: the real one is drawn by ``join``
#: (docs/security.md), so nothing the inviter can read before then tells the deal.
NO_SEED = 0



#: Seconds the ticker's lease lives unless renewed (each tick renews it): how long the online games'
#: clocks may stand still when the process running the ticker dies.
TICKER_LEASE = 5.0


class Full(play.Forbidden):
    """Both seats of the game are taken (the user may watch it)."""


class RateLimited(play.PlayError):
    code = "rate_limited"


#: Wall-clock milliseconds since the epoch: what stored clocks count in (they survive restarts).
now_ms = clock.now_ms


def is_online(row):
    return row.get("mode") == MODE


def is_invitation(row):
    """An online game that never started: an open invitation, or one cancelled (or ended by the host)
    before a friend took the second seat. A game that started and was then ended is not one."""
    return is_online(row) and (row["status"] == "waiting" or (row["status"] == "aborted" and row["seats"][1] is None))


# ---------------------------------------------------------------- clocks (pure)


def clock_new(limit_ms, waiting=(), now=None, version=0):
    """Fresh clocks of ``limit_ms`` each, running for the seats in ``waiting``."""
    now = now_ms() if now is None else now
    return {"limit_ms": limit_ms, "left": [limit_ms, limit_ms],
            "from": [now if s in waiting else None for s in (0, 1)], "version": version}


def clock_left(clock, now):
    """Milliseconds left on each seat's clock at ``now`` (negative once run out)."""
    return [clock["left"][s] - (now - clock["from"][s]) if clock["from"][s] is not None else clock["left"][s]
            for s in (0, 1)]


def clock_moved(clock, waiting, now, version):
    """The clocks after the game moved to ``version``, which waits for ``waiting``: a seat that stops
    being waited for is charged the time since its wait began; one that starts being waited for starts
    now; one still waited for runs on from when its wait began."""
    left, since = list(clock["left"]), list(clock["from"])
    for s in (0, 1):
        if since[s] is not None and s not in waiting:
            left[s] = max(0, left[s] - (now - since[s]))
            since[s] = None
        elif since[s] is None and s in waiting:
            since[s] = now
    return {"limit_ms": clock["limit_ms"], "left": left, "from": since, "version": version}


def timed_out(clock, now):
    """(winner, "timeout") if a waited-for seat's clock ran out, else None. Both out at once (the
    simultaneous leader choice, R5.7): a draw (R18.4)."""
    left = clock_left(clock, now)
    out = [s for s in (0, 1) if clock["from"][s] is not None and left[s] <= 0]
    if len(out) == 2:
        return None, "timeout"
    if out:
        return 1 - out[0], "timeout"
    return None


def public_clock(clock, now):
    """The clocks as a ``state`` shows them: ms left now, and which are running."""
    return {"limit_ms": clock["limit_ms"], "left_ms": [max(0, x) for x in clock_left(clock, now)],
            "running": [clock["from"][s] is not None for s in (0, 1)]}


# ---------------------------------------------------------------- stored rows


def info(db, game_id):
    """The online_games row of a game as a dict (clock and rematch decoded), or None."""
    return store_online.get_online_game(db, game_id)


def write_clock(db, game_id, clock):
    store_online.set_clock(db, game_id, clock)


def normal_code(code):
    """An invitation code as stored: upper case, without spaces or dashes."""
    return "".join(ch for ch in str(code).upper() if ch not in " -")[:32]


def new_code():
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def insert_online(db, game_id, clock):
    """The game's online_games row with a fresh code (retried on the rare collision); return the code."""
    for _ in range(20):
        code = new_code()
        if not store_online.code_taken(db, code):
            store_online.add_online_game(db, game_id, code, clock)
            return code
    raise RuntimeError("no free invitation code after 20 tries")


def game_by_code(db, code):
    """The game id an invitation code names; NotFound otherwise."""
    game_id = store_online.game_id_by_code(db, normal_code(code))
    if game_id is None:
        raise play.NotFound(gettext("No game has this code: check it with your friend."))
    return game_id


# ---------------------------------------------------------------- invitations and joining


def clock_ms_from_minutes(minutes, config):
    """The clock a form's minutes ask for, checked against the configured range; BadRequest otherwise."""
    low = float(config.get("ONLINE_CLOCK_MIN_MINUTES", DEFAULTS["ONLINE_CLOCK_MIN_MINUTES"]))
    high = float(config.get("ONLINE_CLOCK_MAX_MINUTES", DEFAULTS["ONLINE_CLOCK_MAX_MINUTES"]))
    try:
        value = float(minutes)
    except (TypeError, ValueError):
        raise play.BadRequest(gettext("The clock is a number of minutes.")) from None
    if not (math.isfinite(value) and low <= value <= high and value > 0):
        raise play.BadRequest(gettext("The clock is between %(low)s and %(high)s minutes.", low=f"{low:g}", high=f"{high:g}"))
    return int(round(value * 60_000))


def create_invitation(db, user, deck_id, clock_ms, config=None, max_open=None, rated=False):
    """A new invitation by ``user`` with one of their playable decks (under the host's ``config``,
    ``play.deck_for``); return (game id, code). ``rated``: the inviter's wish that the game count on
    the ladder (it does when the friend wishes it too, webapp/social/ratings.py)."""
    uid = play.user_id_of(user)
    if isinstance(clock_ms, bool) or not isinstance(clock_ms, int) or clock_ms <= 0:
        raise play.BadRequest(f"the clock is a positive number of milliseconds, got {clock_ms!r}")
    deck = play.deck_for(db, uid, deck_id, config)
    setup = {"mode": MODE, "decks": [play.deck_list(deck["cards"]), None], "deck_ids": [deck["id"], None],
             "seats": [{"user_id": uid}, None], "first": None,
             "leader_mode": "simultaneous", "clock_ms": clock_ms, "rated": [bool(rated), False]}
    # No seed yet: it is drawn when the friend joins (``join``), so the inviter cannot learn it.
    with store.transaction(db):  # the count and the insert in one write transaction: races cannot pass the cap
        if max_open is not None:
            open_now = store_online.count_open_invitations(db, uid)
            if open_now >= max_open:
                raise play.Forbidden(ngettext("You have %(num)s open invitation: cancel it first.",
                                              "You have %(num)s open invitations: cancel one first.", open_now))
        game_id = store.create_game(db, MODE, NO_SEED, setup, state=None, status="waiting")
        code = insert_online(db, game_id, clock_new(clock_ms))
    return game_id, code


def invitation(db, code):
    """The game row an invitation code names (any status); NotFound."""
    return play.load_row(db, game_by_code(db, code))


def join(db, code, user, deck_id, config=None, now=None, rated=False):
    """Take seat 1 of the invitation with the user's deck and start the game; return its row.

    The game's seed is drawn now, not when the invitation was made, so nothing the inviter could
    read before (the invitation, its pages) foretells the deal. The dice decide who goes first
    (R5.1) and both players choose leaders at once (R5.7); both clocks start. Refused: Forbidden for
    one's own invitation or a cancelled one, Full when someone else took the seat first (nothing
    changes then). ``rated``: the friend's wish that the game count on the ladder.
    """
    uid = play.user_id_of(user)
    row = invitation(db, code)
    if row["status"] != "waiting":
        if play.seat_of(row, uid) is not None:
            return row
        if row["status"] == "aborted":
            raise play.Forbidden(gettext("This invitation was cancelled."), row["id"])
        raise Full(gettext("Both seats of this game are taken: you may watch it."), row["id"])
    if row["seats"][0] == uid:
        raise play.Forbidden(gettext("This is your own invitation: send its link or code to a friend."), row["id"])
    deck = play.deck_for(db, uid, deck_id, config)
    setup = dict(row["setup"])
    setup["decks"] = [setup["decks"][0], play.deck_list(deck["cards"])]
    setup["deck_ids"] = [setup["deck_ids"][0], deck["id"]]
    setup["seats"] = [setup["seats"][0], {"user_id": uid}]
    setup["rated"] = [bool((setup.get("rated") or [False])[0]), bool(rated)]
    setup["seed"] = secrets.randbelow(2**63)
    game = play.new_game(setup)
    now = now_ms() if now is None else now
    clock = clock_new(setup["clock_ms"], game.waiting_for(), now, row["version"])
    with store.transaction(db):
        if not store_online.take_second_seat(db, row["id"], uid, setup, play.snapshot_text(game)):
            raise Full(gettext("Someone else took the seat first: you may watch the game."), row["id"])
        write_clock(db, row["id"], clock)
    return play.load_row(db, row["id"])


def cancel(db, game_id, user_id):
    """The inviter withdraws an invitation nobody joined yet."""
    if not store_online.cancel_invitation(db, game_id, user_id):
        raise play.Forbidden(gettext("Only the inviter can cancel an invitation nobody joined yet."), game_id)


# ---------------------------------------------------------------- rematches


def rematch_game(db, row):
    """A new active game of the same two players and decks, the first player swapped; return its id."""
    setup = row["setup"]
    if any(uid is None for uid in row["seats"]):
        raise play.Illegal(gettext("A player of this game left Brigade: no rematch."), row["id"])
    first = Game.from_json(row["state"]).state.first
    new = dict(setup, seed=secrets.randbelow(2**63), first=1 - first, rematch_of=row["id"])
    scenario = setup.get("scenario")
    if scenario and scenario.get("phase") == "leaders":  # a game started at its first decision (tests): the other goes first
        new["scenario"] = dict(scenario, first=1 - first, active=1 - first)
    game = play.new_game(new)
    game_id = store.create_game(db, MODE, new["seed"], new, state=play.snapshot_text(game))
    insert_online(db, game_id, clock_new(new["clock_ms"], game.waiting_for()))
    return game_id


def offer_rematch(db, game_id, user_id):
    """Offer a rematch, or accept the opponent's offer; return the stored rematch dict
    ``{"offered_by": seat, "game": new game id or None}``."""
    row = play.load_row(db, game_id)
    if not is_online(row):
        raise play.Illegal(gettext("Rematches are for online games."), game_id)
    seat = play.player_seat(row, user_id)
    if row["status"] != "finished":
        raise play.Illegal(gettext("A rematch is offered once the game is over."), game_id)
    with store.transaction(db):
        offer = info(db, game_id)["rematch"]
        if offer.get("game") is None:
            if offer.get("offered_by") in (None, seat):
                offer = {"offered_by": seat, "game": None}
            else:
                offer = dict(offer, game=rematch_game(db, row))
            store_online.set_rematch(db, game_id, offer)
    return offer


# ---------------------------------------------------------------- replays


def replay(db, game_id, lang="en"):
    """A finished game stepped action by action from its setup and stored actions (webapp/game/replay.py),
    each step with the public (spectator) view only; the log in ``lang``."""
    row = play.load_row(db, game_id)
    if row["status"] != "finished":
        raise play.Illegal(gettext("A replay is shown once the game is over."), game_id)
    names = play.seat_names(db, row)
    steps = []
    for step in replay_steps(row["setup"], store.list_actions(db, game_id)):
        game = step.game
        if not steps:
            inst = play.instances(game)
        steps.append({"version": step.version, "player": step.player, "type": step.action and step.action["type"],
                      "events": step.events, "log": gamelog.describe(step.events, inst, names, None, lang=lang),
                      "view": game.view(None)})
    if game.result is None and row["result"] is not None:  # ended from outside the rules: timeout, claim
        final = Game.from_json(row["state"])
        events = [{"type": "game_over", "winner": row["result"].get("winner"), "reason": row["result"].get("reason")}]
        steps.append({"version": row["version"], "player": None, "type": None, "events": events,
                      "log": gamelog.describe(events, inst, names, None, lang=lang), "view": final.view(None)})
    seen = {u["card"] for st in steps for u in st["view"]["units"]}
    seen |= {cid for st in steps for p in st["view"]["players"] for cid in p["discard"]}
    pool = game.state.static.pool
    cards = {cid: pool[cid].data["name"]["en"] for cid in sorted(seen) if cid in pool}
    return {"game": game_id, "mode": row["mode"], "players": names, "result": row["result"], "cards": cards,
            "steps": steps}


# ---------------------------------------------------------------- the lobby


def lobby_row(r, user_id=None):
    setup = json.loads(r["setup"])
    seat = 0 if r["seat0_user_id"] == user_id else 1 if r["seat1_user_id"] == user_id and user_id else None
    names = [r["name0"] or "Player 1", r["name1"] or ("—" if r["status"] == "waiting" else "Player 2")]
    # A code is the key to a seat: only the inviter of a waiting invitation ever sees it.
    code = r["code"] if r["status"] == "waiting" and seat == 0 else None
    return {"id": r["id"], "status": r["status"], "code": code, "created": r["created"], "updated": r["updated"],
            "clock_minutes": setup.get("clock_ms", 0) / 60_000, "names": names, "seat": seat,
            "opponent": names[1 - seat] if seat is not None else None,
            "result": json.loads(r["result"]) if r["result"] else None}


def lobby(db, user_id, finished=10):
    """What the lobby lists for a user of their own games: open invitations, games in progress, recent
    finished games. (Friends' games to watch are webapp/social/watching.py's ``watchable``.)"""
    return {kind: [lobby_row(r, user_id) for r in rows]
            for kind, rows in store_online.lobby_games(db, user_id, finished).items()}


# ---------------------------------------------------------------- the running server's side


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
        self.lock = threading.RLock()
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
        own = db is None
        db = store.connect(path) if own else db
        try:
            found = store_online.active_clocks(db)
        finally:
            if own:
                db.close()
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
        """The ``online`` part of a ``state`` of an online game (the same for every reader)."""
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
        instead (R18.3). Other games never come here: their actions go to ``play.apply`` directly."""
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
        name = play.seat_names(db, row)[other]
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
