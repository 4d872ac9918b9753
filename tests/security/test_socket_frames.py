"""Issue 26 N4, written as the attack: Engine.IO frames the server cannot read at all (an empty
WebSocket frame, a space, a NUL, a first character that is no packet type) logged a python-engineio
traceback and dropped the socket, about 430 times a fuzz run. Each is now answered with the documented
``bad_request``, the socket goes on, and the log holds no traceback; in both serving modes."""

import pytest

from tests.online.helpers import closing_clients

from .socketkit import Client, ConfiguredServer, start_cpu_game, user

pytestmark = pytest.mark.slow

FRAMES = ["", " ", "\x00", "\x00\x00\x00", "\t", "x", "-1", "\u3042", " 42[\"join\",1]"]


@pytest.fixture(scope="module", params=["gevent", "threading"])
def server(request, tmp_path_factory):
    srv = ConfiguredServer(tmp_path_factory.mktemp(f"frames-{request.param}") / "instance",
                           {"RATE_LIMIT": 10_000}, server=request.param)
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture
def clients():
    yield from closing_clients(Client)


def test_n4_unreadable_frames_are_answered_and_the_socket_goes_on(server, clients):
    http = user(server, "frames")
    game_id = start_cpu_game(http, server.url)
    c = clients(server, http)
    before = server.log_text().count("Traceback")
    for n, frame in enumerate(FRAMES, 1):
        c.sio.eio.ws.send(frame)  # the raw WebSocket frame, below Socket.IO and Engine.IO
        c.wait(lambda c, n=n: len(c.of("error")) >= n)
    assert [e["code"] for e in c.of("error")] == ["bad_request"] * len(FRAMES)
    assert c.join(game_id)["version"] == 0  # the socket goes on
    log = server.log_text()
    assert log.count("Traceback") == before and "Unknown receive error" not in log, log[-3000:]
