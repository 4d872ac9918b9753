"""The ``take_back`` event and the seat's ``take_back`` flag (docs/protocol.md) through Flask-SocketIO's
test client, with a real session, at tests/browser/positions/table-take-back.json."""

from webapp.game import play
from webapp.store import list_actions

from .helpers import errors, received, states
from .test_takeback import TO_L3, start


def unit_land(state, unit):
    return next(u["land"] for u in state["view"]["units"] if u["id"] == unit)


def test_a_march_is_taken_back_over_the_socket_and_the_flag_follows(app, db, connect_as, alice, friend):
    game_id = start(db, [alice])
    me, watcher = connect_as(alice), connect_as(friend)  # a friend may watch her CPU games
    me.emit("join", {"game": game_id})
    first = states(received(app, me))[-1]
    assert first["take_back"] is False
    watcher.emit("join", {"game": game_id})
    assert "take_back" not in states(received(app, watcher))[-1]  # a spectator's state has none

    me.emit("action", {"game": game_id, "action": TO_L3, "version": first["version"]})
    marched = states(received(app, me))[-1]
    assert unit_land(marched, "me-orc") == "L3" and marched["take_back"] is True
    received(app, watcher)

    me.emit("take_back", {"game": game_id, "version": marched["version"]})
    got = received(app, me)
    assert not errors(got), errors(got)
    back = states(got)[-1]
    assert back["version"] == marched["version"] + 1
    assert unit_land(back, "me-orc") == "L1" and back["take_back"] is False
    assert back["view"] == first["view"] and back["legal_actions"] == first["legal_actions"]
    assert back["events"] == [{"type": "taken_back", "player": 0}]
    assert back["log"] == ["You take back your last move."]
    seen = states(received(app, watcher))[-1]  # the spectator sees the unit go back too
    assert seen["version"] == back["version"] and unit_land(seen, "me-orc") == "L1"
    assert seen["log"] == ["alice takes back their last move."]
    assert list_actions(db, game_id) == []

    # the same take-back again (a double click, a second tab): stale, nothing changes
    me.emit("take_back", {"game": game_id, "version": marched["version"]})
    assert [e["code"] for e in errors(received(app, me))] == ["stale"]
    assert play.load_row(db, game_id)["version"] == back["version"]
    # nothing left to take back: refused in words that name no card
    me.emit("take_back", {"game": game_id, "version": back["version"]})
    refusal = errors(received(app, me))
    assert [e["code"] for e in refusal] == ["illegal"] and "p0c" not in refusal[0]["message"]


def test_updates_carry_the_flag_and_a_stranger_or_a_bad_payload_is_refused(app, db, connect_as, alice, bob):
    game_id = start(db, [alice])
    me = connect_as(alice)
    me.emit("join", {"game": game_id, "updates": True})
    first = states(received(app, me))[-1]
    me.emit("action", {"game": game_id, "action": TO_L3, "version": first["version"]})
    update = [p for name, p in received(app, me) if name == "update"][-1]
    assert update["take_back"] is True

    stranger = connect_as(bob)
    stranger.emit("take_back", {"game": game_id, "version": update["version"]})
    assert [(e["code"], e["message"]) for e in errors(received(app, stranger))] == [
        ("not_found", "There is no such game.")]
    stranger.emit("take_back", {"game": game_id})
    assert [e["code"] for e in errors(received(app, stranger))] == ["bad_request"]
    assert len(list_actions(db, game_id)) == 1

    me.emit("take_back", {"game": game_id, "version": update["version"]})
    after = [p for name, p in received(app, me) if name == "update"][-1]
    assert after["take_back"] is False and after["base"] == update["version"]
