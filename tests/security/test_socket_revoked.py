"""Issue 26 N6, written as the attack: a host disabled a player (docs/admin.md: "their sessions have
ended"), and that player's open socket went on playing. Now a socket's account is checked again while
it sends events (at most every ``ACCOUNT_RECHECK`` seconds): once the account was disabled, or logged
out everywhere, its next event is refused with ``revoked``, nothing of it is applied, and the socket is
closed. The recheck window is passed by advancing the app's clock (webapp/clock.py), not by waiting."""

import pytest

from tests.play.helpers import received
from webapp.game import play
from webapp.sockets import members
from webapp.store import list_actions
from webapp.store.admin import set_disabled
from webapp.store.users import revoke_sessions


@pytest.mark.parametrize("revoke", [lambda db, uid: set_disabled(db, uid, True), revoke_sessions])
def test_n6_a_revoked_account_plays_no_more_on_its_open_socket(app, db, connect_as, alice, loaner, clock, revoke):
    game_id = play.create_cpu_game(db, alice, loaner, seed=5)
    sock = connect_as(alice)
    sock.emit("join", {"game": game_id})
    state = [p for name, p in received(app, sock) if name == "state"][-1]
    leaders = next(a for a in state["legal_actions"] if a["type"] == "choose_leaders")
    revoke(db, alice["id"])
    db.conn.commit()
    clock.advance(members.ACCOUNT_RECHECK + 0.01)
    sock.emit("action", {"game": game_id, "action": leaders, "version": state["version"]})
    got = received(app, sock)
    assert ("error", {"code": "revoked", "message": "You were logged out: log in again to play on."}) in \
        [(n, {k: p[k] for k in ("code", "message")}) for n, p in got if n == "error"]
    assert not sock.is_connected()
    assert list_actions(db, game_id) == []  # nothing was applied


class Stopped:
    """The socket layer's clock held still (moved only by ``advance``), so the count of reads does not
    depend on how fast the machine runs the events."""

    def __init__(self):
        self.at = 1000.0

    def monotonic(self):
        return self.at

    def advance(self, seconds):
        self.at += seconds


def test_n6_an_account_in_good_standing_is_read_once_a_window(app, db, connect_as, alice, loaner, monkeypatch):
    clock = Stopped()
    monkeypatch.setattr(members, "clock", clock)
    reads = []
    real = members.session_version
    monkeypatch.setattr(members, "session_version", lambda db, uid: reads.append(uid) or real(db, uid))
    game_id = play.create_cpu_game(db, alice, loaner, seed=5)
    sock = connect_as(alice)
    for _ in range(5):
        sock.emit("join", {"game": game_id})
    assert reads == []  # connected just now: no read
    clock.advance(members.ACCOUNT_RECHECK + 0.01)
    for _ in range(5):
        sock.emit("join", {"game": game_id})
    assert reads == [alice["id"]] and sock.is_connected()
    assert [n for n, _ in received(app, sock)].count("state") == 10
