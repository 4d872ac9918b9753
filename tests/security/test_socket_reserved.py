"""Attacks with Socket.IO's own event names and with packets that are not JSON (issue 12), against a
real server in its default serving mode (gevent) with real python-socketio clients.

On the server before issue 12: an emitted ``connect`` ran the connect handler again (a fresh flood
counter, and a socket whose games were forgotten, so its seat stayed "connected" for ever); an
emitted ``disconnect`` ran the disconnect handler (the seat went "away" while the socket stayed);
``NaN``, ``Infinity``, a lone surrogate or ``1e400`` got no answer and a traceback in the log."""


import pytest

from .socketkit import Client, ConfiguredServer, invite_and_join, start_cpu_game, user
from tests.online.helpers import closing_clients

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ConfiguredServer(tmp_path_factory.mktemp("reserved") / "instance",
                           {"RATE_LIMIT": 5, "ONLINE_CLOCK_MIN_MINUTES": 0, "TESTING": True})  # TESTING: advance
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def clients():
    yield from closing_clients(Client)


def codes(client):
    return [p["code"] for p in client.of("error")]


def test_an_emitted_connect_is_refused_and_does_not_reset_the_flood_counter(server, clients):
    http = user(server, "flood")
    game_id = start_cpu_game(http, server.url)
    c = clients(server, http)
    for _ in range(4):  # RATE_LIMIT = 5: with the connect below, the socket's window is full
        c.sio.emit("join", {"game": game_id})
    c.sio.emit("connect", {})
    c.sio.emit("join", {"game": game_id})  # a reset counter would let this one through
    c.wait(lambda c: len(c.of("state")) + len(c.of("error")) >= 6)
    assert len(c.states(game_id)) == 4
    errors = c.of("error")
    assert [e["code"] for e in errors] == ["bad_request", "rate_limited"], errors
    assert "reserve" in errors[0]["message"]


def test_an_emitted_connect_does_not_keep_a_seat_connected_for_ever(server, clients):
    ann, ben = user(server, "ann"), user(server, "ben")
    game_id = invite_and_join(server, ann, ben)
    a, b = clients(server, ann), clients(server, ben)
    a.join(game_id)
    b.join(game_id)
    a.wait(lambda c: c.of("presence") and all(s["connected"] for s in c.of("presence")[-1]["presence"]))
    b.sio.emit("connect", {})
    b.wait(lambda c: "bad_request" in codes(c))
    b.close()
    # ben's only socket is gone: ann hears that he is away (and could claim the game later)
    a.wait(lambda c: not c.of("presence")[-1]["presence"][1]["connected"])


def test_an_emitted_disconnect_does_not_run_the_disconnect_handler(server, clients):
    ann, ben = user(server, "ann"), user(server, "ben")
    game_id = invite_and_join(server, ann, ben)
    a, b = clients(server, ann), clients(server, ben)
    a.join(game_id)
    b.join(game_id)
    a.wait(lambda c: c.of("presence") and all(s["connected"] for s in c.of("presence")[-1]["presence"]))
    heard = len(a.of("presence"))
    b.sio.emit("disconnect", {})
    b.sio.emit("disconnecting")
    b.sio.emit("*", {"game": game_id})
    b.wait(lambda c: codes(c).count("bad_request") == 3)
    assert b.join(game_id)["seat"] == 1  # still a member: its events are handled
    a.join(game_id)  # anything sent to ann before this answer has arrived by now
    assert len(a.of("presence")) == heard, a.of("presence")[heard:]
    assert all(s["connected"] for s in a.states(game_id)[-1]["online"]["presence"])


MALFORMED = [
    '2["join",NaN]',
    '2["join",Infinity]',
    '2["join",-Infinity]',
    '2["join","\\ud800"]',          # a lone surrogate, as a JSON escape
    '2["join",{"game":"\\udfff"}]',
    '2["join",1e400]',
    '2["join",' + "1" + "0" * 400 + "]",  # 10^400
    '2["join",{"game":1e400}]',
    "2[]",
    "2{}",
    '2"join"',
    "2[42]",
    '2[{"a":1}]',
    '2["join",{"game":1}',           # cut short
    "2x",
    "x",
]


def test_packets_that_are_not_json_are_answered_and_log_no_traceback(server, clients):
    http = user(server, "odd")
    game_id = start_cpu_game(http, server.url)
    c = clients(server, http)
    before = server.log_text().count("Traceback")
    for n, text in enumerate(MALFORMED, 1):  # paced under RATE_LIMIT (5 a second here) on the server's clock
        c.raw(text)
        c.wait(lambda c, n=n: len(c.of("error")) >= n)
        server.advance(0.25)
    assert set(codes(c)) == {"bad_request"}, c.of("error")
    assert any("not valid JSON" in e["message"] for e in c.of("error"))
    assert c.join(game_id)["version"] == 0  # the socket goes on
    log = server.log_text()
    assert log.count("Traceback") == before, log[-3000:]
