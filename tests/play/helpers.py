"""Helpers for socket tests: reading what a client received, playing a seat, checking for leaks."""

import json

from webapp.game import play, replay
from webapp.tools.bot import SentView
from webapp.store import list_actions

from .conftest import wait_for_cpu


def received(app, client):
    """Everything the client was sent since the last call, once the app's CPU tasks are idle."""
    wait_for_cpu(app)
    return [(m["name"], m["args"][0] if m["args"] else None) for m in take(client)]


def take(client):
    """The client's queue, emptied (works after the server disconnected it, unlike get_received)."""
    queue, client.queue = client.queue, []
    return queue


def states(messages):
    return [payload for name, payload in messages if name == "state"]


def errors(messages):
    return [payload for name, payload in messages if name == "error"]


def play_seat(app, client, game_id, policy, limit=3000):
    """Play the client's seat with ``policy`` until the game ends; return every message it got."""
    client.emit("join", {"game": game_id})
    seen = received(app, client)
    for _ in range(limit):
        latest = states(seen)[-1]
        if latest["status"] != "active":
            return seen
        assert latest["seat"] in latest["waiting_for"], "the game waits for nobody"
        action = policy.choose(SentView(latest), latest["seat"])
        client.emit("action", {"game": game_id, "action": action, "version": latest["version"]})
        got = received(app, client)
        assert not errors(got), errors(got)
        seen += got
    raise AssertionError("the game did not end")


class Truth:
    """The server's own game at each version (rebuilt from setup + actions), and which instance ids
    were ever public (on the board or in a discard pile, seen by a spectator) up to that version."""

    def __init__(self, db, game_id):
        row = play.load_row(db, game_id)
        self.seed = row["seed"]
        self.game = replay.new_game(row["setup"])
        self.actions = {a["seq"]: a for a in list_actions(db, game_id)}
        self.version = 0
        self.public = set()
        self.note()

    def note(self):
        view = self.game.view(None)
        self.public |= {u["id"] for u in view["units"]}
        for p in view["players"]:
            self.public |= set(p["discard_ids"])

    def at(self, version):
        while self.version < version:
            a = self.actions[self.version + 1]
            self.game.apply(a["player"], a["action"])
            self.version += 1
            self.note()
        assert self.version == version, "payloads must be checked in version order"
        return self.game

    def secret_ids(self, version, seat):
        """Instance ids the seat must not be told at this version: the other hand(s) and both decks."""
        s = self.at(version).state
        names = s.static.names
        hands = (0, 1) if seat is None else (1 - seat,)
        ids = {names[c] for p in hands for c in s.hand[p]} | {names[c] for p in (0, 1) for c in s.deck[p]}
        return ids - self.public


def assert_no_leak(db, game_id, payloads):
    """No state payload names a card hidden from its seat at its version, nor the seed (R18.6)."""
    checked = 0
    by_seat = {}
    for p in payloads:
        by_seat.setdefault(p["seat"], []).append(p)
    for seat, mine in by_seat.items():
        truth = Truth(db, game_id)
        for p in sorted(mine, key=lambda p: p["version"]):
            text = json.dumps(p)
            secret = truth.secret_ids(p["version"], seat)
            leaked = sorted(i for i in secret if f'"{i}"' in text)
            assert not leaked, f"version {p['version']} to seat {seat} names hidden cards {leaked}"
            assert str(truth.seed) not in text and '"rng"' not in text and '"seed"' not in text
            if seat is not None:
                assert p["view"] == truth.game.view(seat)
                assert p["legal_actions"] == truth.game.legal_actions(seat)
            else:
                assert p["view"] == truth.game.view(None) and p["legal_actions"] == []
            checked += 1
    return checked
