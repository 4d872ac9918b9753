"""Building each seat's ``state`` (or ``update``) and pushing it to the seat's rooms after a change
(docs/protocol.md "state", "Updates"): once per seat and version, kept in the ``StateCache``."""

import threading

import orjson

from webapp.game import gamecache, seatnames, seatstate, takeback

from .rooms import WATCH, room
from .statecache import Built, StateCache, encoded
from .updates import diff


class StatePusher:
    """The states of one app's games as its sockets are sent them. ``online`` (webapp.game.online.Online)
    adds an online game's ``online`` block; ``outbox`` emits."""

    def __init__(self, outbox, cache_bytes):
        self.outbox = outbox
        self.online = None
        self.states = StateCache(cache_bytes)
        self.names = {}    # game id -> seat names (they never change during a game)
        self.marks = {}    # game id -> {user id: log language from the account's mark} (seatnames.seat_lang)
        self.built = 0     # states built (not served from self.states): what the tests count
        self.lock = threading.Lock()

    def seat_names(self, db, row):
        names = self.names.get(row["id"])
        if names is None:
            names = seatnames.seat_names(db, row)
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
        view = encoded(tree)
        legal = orjson.dumps(game.legal_actions(seat) if seat is not None else [])
        with self.lock:
            self.built += 1
        built = Built(tree, view, legal, sorted(game.waiting_for()))
        # what is kept: the JSON, and the view's Python objects (about 4 times the JSON's bytes)
        self.states.put(key, built, 5 * len(view) + len(legal))
        return built

    def cached(self, row, seat):
        return self.states.get((row["id"], seat, row["version"], row["created"])) is not None

    def state(self, db, row, game, seat, events=(), names=None, extra=None, built=None, lang=None, played=None):
        """The ``state`` payload of one seat (or a spectator, whose log is in ``lang``); an online game's
        adds its ``online`` block, a game against the CPU the seat's ``take_back`` flag (``played``: the
        Played that made this version, if any: webapp/game/takeback.py ``offered``)."""
        built = built or self.parts(row, game, seat)
        if lang is None and seat in (0, 1):  # the seat's language, read from the account once per game
            marks = self.marks.setdefault(row["id"], {}) if row["status"] == "active" else None
            lang = seatnames.seat_lang(row, seat, marks)
        payload = seatstate.state_for(row, game, seat, events, names or self.seat_names(db, row), parts=built.parts(),
                                      lang=lang)
        online = extra if extra is not None else self.online.block(db, row)  # None but in an online game
        if online is not None:
            payload["online"] = online
        elif seat is not None and (flag := takeback.offered(db, row, game, seat, played)) is not None:
            payload["take_back"] = flag
        return payload

    def push(self, db, played):
        """Send every seat of the game (and the spectators) its own state after an action: once per
        seat and version, as a full ``state`` to the sockets that take those and as an ``update`` to
        those that asked for updates (docs/protocol.md "Updates")."""
        row, game = played.row, played.game
        names = self.seat_names(db, row)
        extra = self.online.block(db, row)
        kinds = [(0, 0, None), (1, 1, None)] + [(None, kind, lang) for kind, lang in WATCH.items()]
        rooms, send = self.outbox.rooms(), self.outbox.send  # who is in which room, read once per push
        for seat, kind, lang in kinds:
            if seat is not None and row["seats"][seat] is None:
                continue
            full, updates = room(row["id"], kind), room(row["id"], kind, updates=True)
            to_full = rooms is None or bool(rooms.get(full))
            to_updates = rooms is None or bool(rooms.get(updates))
            if not (to_full or to_updates):
                continue
            before = self.states.latest(row["id"], seat) if to_updates else None
            built = self.parts(row, game, seat)
            state = self.state(db, row, game, seat, played.events, names, extra, built=built, lang=lang, played=played)
            if to_full:
                send("state", state, to=full)
            if to_updates:
                send(*self.update(state, built, before, row), to=updates)
        if row["status"] != "active":
            self.names.pop(row["id"], None)
            self.marks.pop(row["id"], None)
            self.states.drop_game(row["id"])
            gamecache.PER_GAME.forget(game.state.static)  # its last log is written

    @staticmethod
    def update(state, built, before, row):
        """("update", payload) taking a socket from the seat's state ``before`` (parts, version,
        created: the one the server built and sent before) to ``state``; ("state", state) when there is
        no such state or the changes would not be smaller than the view."""
        if before is None or before[2] != row["created"] or before[1] >= state["version"]:
            return "state", state
        old = before[0]
        ops = encoded(diff(old.tree, built.tree))
        if len(ops) >= built.view_size:
            return "state", state
        payload = {"game": state["game"], "version": state["version"], "base": before[1], "seat": state["seat"],
                   "status": state["status"], "waiting_for": state["waiting_for"], "view": orjson.Fragment(ops),
                   "events": state["events"], "log": state["log"]}
        if built.legal_json != old.legal_json:
            payload["legal_actions"] = built.legal
        if "online" in state:
            payload["online"] = state["online"]
        if "take_back" in state:
            payload["take_back"] = state["take_back"]
        return "update", payload
