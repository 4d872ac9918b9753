"""The Socket.IO protocol (docs/protocol.md) through Flask-SocketIO's test client with a real session."""

import pytest

from webapp.game import play
from webapp.ai import BaselinePlayer, RandomPlayer
from webapp.store import list_actions, load_game

from .helpers import assert_no_leak, play_seat, received, states, take


@pytest.fixture
def game_id(db, alice, loaner):
    return play.create_cpu_game(db, alice, loaner, seed=77_000_000_001)


@pytest.fixture
def alice_socket(connect_as, alice):
    return connect_as(alice)


def stored(db, game_id):
    row = load_game(db, game_id)
    return row["version"], row["state"], len(list_actions(db, game_id))


def joined(app, client, game_id):
    client.emit("join", {"game": game_id})
    return states(received(app, client))[-1]


# ---------------------------------------------------------------- connecting and joining


def test_a_visitor_who_is_not_logged_in_is_refused_at_connect(connect_as):
    assert not connect_as(None).is_connected()


def test_a_session_of_a_user_who_no_longer_exists_is_refused(app, socketio, alice):
    http = app.test_client()
    with http.session_transaction() as sess:
        sess["user_id"] = alice["id"] + 1000
    assert not socketio.test_client(app, flask_test_client=http).is_connected()


def test_join_sends_the_seat_its_own_state(app, db, alice_socket, game_id):
    alice_socket.emit("join", {"game": game_id})
    got = received(app, alice_socket)
    assert [name for name, _ in got] == ["state"]
    state = got[0][1]
    _, game = play.load(db, game_id)
    assert (state["game"], state["version"], state["seat"], state["mode"], state["status"]) == (
        game_id, 0, 0, "cpu", "active")
    assert state["view"] == game.view(0) and state["legal_actions"] == game.legal_actions(0)
    assert state["waiting_for"] == [0] and state["events"] == [] and state["log"] == []
    assert state["players"] == [{"name": "alice", "cpu": False}, {"name": "CPU", "cpu": True}]


def test_a_user_without_a_seat_watches_with_the_spectator_view(app, db, connect_as, friend, game_id):
    state = joined(app, connect_as(friend), game_id)
    _, game = play.load(db, game_id)
    assert state["seat"] is None and state["legal_actions"] == []
    assert state["view"] == game.view(None)
    assert "hand" not in state["view"]["players"][0]


def test_joining_a_game_that_does_not_exist(app, alice_socket):
    alice_socket.emit("join", {"game": 424242})
    assert received(app, alice_socket) == [
        ("error", {"game": 424242, "code": "not_found", "message": "no game has id 424242"})]


# ---------------------------------------------------------------- acting


def test_an_action_updates_every_member_with_its_own_view_then_the_cpu_moves(app, db, alice_socket, connect_as,
                                                                             friend, game_id):
    watcher = connect_as(friend)
    state = joined(app, alice_socket, game_id)
    joined(app, watcher, game_id)
    action = state["legal_actions"][0]
    alice_socket.emit("action", {"game": game_id, "action": action, "version": 0})
    mine, theirs = states(received(app, alice_socket)), states(received(app, watcher))
    assert [s["version"] for s in mine] == [1, 2] and [s["version"] for s in theirs] == [1, 2]
    assert mine[0]["events"] == [{"type": "leaders_chosen", "player": 0}]
    assert mine[0]["log"] == ["You choose leaders."] and theirs[0]["log"] == ["alice chooses leaders."]
    assert mine[0]["view"]["players"][0]["leader_choice"] == action["cards"]
    assert "leader_choice" not in theirs[0]["view"]["players"][0]  # R5.7 hidden until both chose
    assert mine[1]["events"][0] == {"type": "leaders_chosen", "player": 1}  # the CPU, in the background
    assert mine[1]["waiting_for"] == [0] and mine[1]["legal_actions"]
    assert theirs[1]["legal_actions"] == []
    assert [(a["seq"], a["player"]) for a in list_actions(db, game_id)] == [(1, 0), (2, 1)]


def test_an_action_without_a_join_joins_the_sender(app, db, alice_socket, game_id):
    _, game = play.load(db, game_id)
    alice_socket.emit("action", {"game": game_id, "action": game.legal_actions(0)[0], "version": 0})
    assert [s["version"] for s in states(received(app, alice_socket))] == [1, 2]


def test_leave_stops_the_updates(app, db, alice_socket, connect_as, friend, game_id):
    watcher = connect_as(friend)
    joined(app, watcher, game_id)
    watcher.emit("leave", {"game": game_id})
    state = joined(app, alice_socket, game_id)
    alice_socket.emit("action", {"game": game_id, "action": state["legal_actions"][0], "version": 0})
    received(app, alice_socket)
    assert received(app, watcher) == []


def test_acting_in_someone_elses_game_is_forbidden_and_changes_nothing(app, db, connect_as, friend, game_id):
    intruder = connect_as(friend)
    joined(app, intruder, game_id)
    before = stored(db, game_id)
    _, game = play.load(db, game_id)
    intruder.emit("action", {"game": game_id, "action": game.legal_actions(0)[0], "version": 0})
    got = received(app, intruder)
    assert [(n, p["code"], p["game"]) for n, p in got] == [("error", "forbidden", game_id)]
    assert stored(db, game_id) == before


def test_a_stale_version_is_refused_and_changes_nothing(app, db, alice_socket, game_id):
    state = joined(app, alice_socket, game_id)
    alice_socket.emit("action", {"game": game_id, "action": state["legal_actions"][0], "version": 0})
    latest = states(received(app, alice_socket))[-1]
    before = stored(db, game_id)
    alice_socket.emit("action", {"game": game_id, "action": latest["legal_actions"][0], "version": 1})
    got = received(app, alice_socket)
    assert [(n, p["code"]) for n, p in got] == [("error", "stale")]
    assert "version 2" in got[0][1]["message"]
    assert stored(db, game_id) == before


def test_an_illegal_action_is_refused_with_the_engines_reason(app, db, alice_socket, game_id):
    joined(app, alice_socket, game_id)
    before = stored(db, game_id)
    alice_socket.emit("action", {"game": game_id, "action": {"type": "end_turn"}, "version": 0})
    got = received(app, alice_socket)
    assert [(n, p["code"]) for n, p in got] == [("error", "illegal")]
    assert got[0][1]["message"]
    assert stored(db, game_id) == before


MALFORMED = {
    "no payload": ("action",),
    "a string": ("action", "resign"),
    "a list": ("action", [1, 2]),
    "empty": ("action", {}),
    "no version": ("action", {"game": "GID", "action": {"type": "resign"}}),
    "no action": ("action", {"game": "GID", "version": 0}),
    "game as text": ("action", {"game": "1", "action": {"type": "resign"}, "version": 0}),
    "game true": ("action", {"game": True, "action": {"type": "resign"}, "version": 0}),
    "game negative": ("action", {"game": -3, "action": {"type": "resign"}, "version": 0}),
    "game huge": ("action", {"game": 10**30, "action": {"type": "resign"}, "version": 0}),
    "version as text": ("action", {"game": "GID", "action": {"type": "resign"}, "version": "0"}),
    "version fraction": ("action", {"game": "GID", "action": {"type": "resign"}, "version": 0.5}),
    "action a string": ("action", {"game": "GID", "action": "resign", "version": 0}),
    "action without type": ("action", {"game": "GID", "action": {"card": "p0c1"}, "version": 0}),
    "action type a number": ("action", {"game": "GID", "action": {"type": 5}, "version": 0}),
    "huge type": ("action", {"game": "GID", "action": {"type": "r" * 100_000}, "version": 0}),
    "huge id": ("action", {"game": "GID", "action": {"type": "summon", "card": "p" * 3000}, "version": 0}),
    "long list": ("action", {"game": "GID", "action": {"type": "discard", "cards": ["p0c1"] * 500}, "version": 0}),
    "nested object": ("action", {"game": "GID", "action": {"type": "summon", "card": {"id": "p0c1"}}, "version": 0}),
    "many keys": ("action", {"game": "GID", "action": {"type": "resign", **{f"k{i}": 1 for i in range(20)}},
                             "version": 0}),
    "extra key": ("action", {"game": "GID", "action": {"type": "resign"}, "version": 0, "seat": 1}),
    "two arguments": ("action", {"game": "GID", "action": {"type": "resign"}, "version": 0}, {"seat": 1}),
    "join without game": ("join", {}),
    "join game as text": ("join", {"game": "GID-text"}),
    "join a number": ("join", 5),
    "leave a list": ("leave", ["GID"]),
    "unknown event": ("teleport", {"game": "GID"}),
}


def fill(value, game_id):
    if value == "GID":
        return game_id
    if isinstance(value, dict):
        return {k: fill(v, game_id) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, game_id) for v in value]
    return value


@pytest.mark.parametrize("message", MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_payload_is_answered_with_bad_request_and_changes_nothing(app, db, alice_socket, game_id,
                                                                               message):
    joined(app, alice_socket, game_id)
    before = stored(db, game_id)
    event, *args = fill(list(message), game_id)
    alice_socket.emit(event, *args)
    got = received(app, alice_socket)
    assert [(n, p["code"]) for n, p in got] == [("error", "bad_request")], got
    assert len(got[0][1]["message"]) < 300
    assert stored(db, game_id) == before
    assert alice_socket.is_connected()
    assert joined(app, alice_socket, game_id)["version"] == before[0]  # still served


def test_a_server_bug_is_answered_with_internal_and_the_socket_goes_on(app, db, alice_socket, game_id, monkeypatch):
    state = joined(app, alice_socket, game_id)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(play, "apply", broken)  # the action path of every game
    alice_socket.emit("action", {"game": game_id, "action": state["legal_actions"][0], "version": 0})
    assert [(n, p["code"]) for n, p in received(app, alice_socket)] == [("error", "internal")]
    monkeypatch.undo()
    assert joined(app, alice_socket, game_id)["version"] == 0


# ---------------------------------------------------------------- floods


def test_a_burst_over_20_events_a_second_is_answered_with_rate_limited(app, alice_socket, game_id):
    for _ in range(30):
        alice_socket.emit("join", {"game": game_id})
    got = received(app, alice_socket)
    assert [n for n, _ in got].count("state") == 20
    assert [p["code"] for n, p in got if n == "error"] == ["rate_limited"] * 10
    assert alice_socket.is_connected()


def test_a_sustained_flood_is_disconnected_and_other_games_go_on(app, db, alice_socket, connect_as, bob, loaner):
    bobs_game = play.create_cpu_game(db, bob, loaner, seed=5)
    alices_game = play.create_cpu_game(db, play.store.get_user(db, 1), loaner, seed=6)
    calm = connect_as(bob)
    first = joined(app, calm, bobs_game)
    sent = 0
    while alice_socket.is_connected() and sent < 1000:
        alice_socket.emit("action", {"game": alices_game, "action": {"type": "end_turn"}, "version": 0})
        sent += 1
    assert not alice_socket.is_connected() and sent < 200
    got = [(m["name"], m["args"][0]) for m in take(alice_socket)]
    assert {p["code"] for n, p in got} == {"illegal", "rate_limited"}
    assert stored(db, alices_game)[0] == 0
    calm.emit("action", {"game": bobs_game, "action": first["legal_actions"][0], "version": 0})
    assert [s["version"] for s in states(received(app, calm))] == [1, 2]
    assert connect_as(play.store.get_user(db, 1)).is_connected()  # the flooder may come back


# ---------------------------------------------------------------- whole games, and what is never sent


@pytest.fixture
def unlimited(app):
    """Lift the rate limit: the test client plays far faster than 20 decisions a second."""
    app.config["RATE_LIMIT"] = 10_000


def test_a_whole_cpu_game_is_played_to_a_result_by_the_bot_policy(app, db, alice_socket, game_id, unlimited):
    seen = play_seat(app, alice_socket, game_id, BaselinePlayer(seed=3))
    final = states(seen)[-1]
    row = load_game(db, game_id)
    assert row["status"] == "finished" and final["status"] == "finished"
    assert final["view"]["result"] == row["result"] and final["version"] == row["version"]
    assert final["events"][-1]["type"] == "game_over" and final["log"][-1].startswith("Game over")
    assert play.rebuild(db, game_id).to_json() == row["state"]


@pytest.mark.parametrize("seed, policy", [(11, "baseline"), (12, "random"), (13, "baseline"), (14, "random")])
def test_no_payload_ever_holds_the_opponents_hand_or_a_deck(app, db, connect_as, alice, friend, loaner, seed, policy,
                                                          unlimited):
    game_id = play.create_cpu_game(db, alice, loaner, seed=10**15 + seed)
    player, watcher = connect_as(alice), connect_as(friend)
    joined(app, watcher, game_id)
    mine = states(play_seat(app, player, game_id,
                            BaselinePlayer(seed=seed) if policy == "baseline" else RandomPlayer(seed=seed)))
    theirs = states(received(app, watcher))
    assert load_game(db, game_id)["status"] == "finished"
    assert len(theirs) >= load_game(db, game_id)["version"]
    assert assert_no_leak(db, game_id, mine + theirs) == len(mine) + len(theirs)
