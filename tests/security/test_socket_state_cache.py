"""`join` of an unchanged game is answered from the states kept per (game, version, seat), and a
socket that does not read its states is closed instead of queueing them without bound (issue 12).

Before issue 12 every `join` built the seat's view and legal actions again: a crowded position
took 40-70 ms and 1.4 MB each, so one socket within its rate limit stalled the server. Builds are
counted here by wrapping Game.view and Game.legal_actions (no timing)."""

import collections

import pytest

from tests.play.conftest import wait_for_cpu
from tests.online.helpers import wait_until
from tests.play.helpers import received, states
from webapp import create_app
from webapp.game import play
from webapp.engine import Game


@pytest.fixture
def app(instance):
    """The play folder's app (the CPU moves at once) rather than this folder's online one; the other
    fixtures come from tests/security/conftest.py."""
    return create_app({"TESTING": True, "INSTANCE_PATH": instance, "CPU_DELAY": 0})


@pytest.fixture
def builds(monkeypatch):
    """Counts of Game.view and Game.legal_actions calls from now on."""
    calls = collections.Counter()
    view, legal = Game.view, Game.legal_actions

    def counted_view(self, *args, **kwargs):
        calls["view"] += 1
        return view(self, *args, **kwargs)

    def counted_legal(self, *args, **kwargs):
        calls["legal"] += 1
        return legal(self, *args, **kwargs)
    monkeypatch.setattr(Game, "view", counted_view)
    monkeypatch.setattr(Game, "legal_actions", counted_legal)
    return calls


def test_a_repeated_join_of_an_unchanged_game_builds_nothing(app, db, connect_as, alice, friend, loaner, builds):
    app.config["RATE_LIMIT"] = 10_000
    game_id = play.create_cpu_game(db, alice, loaner, seed=12_000_001)
    player, watcher = connect_as(alice), connect_as(friend)
    builds.clear()
    for _ in range(50):
        player.emit("join", {"game": game_id})
        watcher.emit("join", {"game": game_id})
    mine, theirs = states(received(app, player)), states(received(app, watcher))
    assert len(mine) == len(theirs) == 50
    assert all(s == mine[0] for s in mine) and all(s == theirs[0] for s in theirs)
    assert mine[0]["seat"] == 0 and mine[0]["legal_actions"] and theirs[0]["seat"] is None
    print(f"\n100 joins built {builds['view']} views and {builds['legal']} lists of legal actions")
    assert builds["view"] == 2 and builds["legal"] == 1  # one per seat (and the spectator), once

    # an action pushes the new version's states; joins after it are served from them
    player.emit("action", {"game": game_id, "action": mine[0]["legal_actions"][0], "version": 0})
    pushed = states(received(app, player))
    received(app, watcher)
    assert pushed and pushed[-1]["version"] > 0
    before = dict(builds)
    for _ in range(20):
        player.emit("join", {"game": game_id})
        watcher.emit("join", {"game": game_id})
    latest = states(received(app, player))
    assert len(latest) == 20 and latest[-1]["version"] == pushed[-1]["version"]
    assert len(states(received(app, watcher))) == 20
    assert dict(builds) == before


def test_the_state_cache_holds_at_most_its_byte_budget(app, db, connect_as, alice, loaner):
    app.config["RATE_LIMIT"] = 10_000
    hub = app.extensions["brigade_hub"]
    hub.states.budget = 3 * 4096
    client = connect_as(alice)
    for n in range(12):
        client.emit("join", {"game": play.create_cpu_game(db, alice, loaner, seed=n)})
    assert len(states(received(app, client))) == 12
    assert hub.states.bytes <= hub.states.budget and 0 < len(hub.states) < 12


def test_a_socket_that_does_not_read_is_closed_and_the_others_still_get_their_states(
        app, db, connect_as, alice, friend, loaner, monkeypatch):
    app.config["RATE_LIMIT"] = 10_000
    hub = app.extensions["brigade_hub"]
    game_id = play.create_cpu_game(db, alice, loaner, seed=12_000_002)
    player, watcher = connect_as(alice), connect_as(friend)
    player.emit("join", {"game": game_id})
    watcher.emit("join", {"game": game_id})
    first = states(received(app, player))[-1]
    received(app, watcher)
    slow = {sid for sid, m in hub.members.items() if m.user_id == alice["id"]}
    # the player's socket has more than OUTBOX_LIMIT packets waiting unread (a reader that stopped)
    monkeypatch.setattr(hub, "backlog", lambda sid: app.config["OUTBOX_LIMIT"] + 1 if sid in slow else 0)
    player.emit("action", {"game": game_id, "action": first["legal_actions"][0], "version": 0})
    wait_for_cpu(app)
    assert not states(received(app, player))
    assert states(received(app, watcher))[-1]["version"] > 0
    wait_until(lambda: not player.is_connected())  # closed: it may connect again and join
