"""A client that never reads what it is sent cannot make the server queue states for it without
bound (issue 12): a raw WebSocket (a tiny receive buffer, never read after the handshake) sends
`join` after `join`; once more than OUTBOX_LIMIT packets wait for it, the server closes it, and
goes on serving others. Before issue 12 every state stayed queued in server memory."""

import socket
import time

import pytest
import requests
import websocket

from .socketkit import ConfiguredServer, cookie_of, start_cpu_game, user, wait_until

pytestmark = pytest.mark.slow


@pytest.fixture(params=["gevent", "threading"])
def server(request, tmp_path):
    srv = ConfiguredServer(tmp_path / "instance", {"RATE_LIMIT": 2000, "OUTBOX_LIMIT": 64}, server=request.param)
    srv.start()
    yield srv
    srv.stop()


def test_a_socket_that_never_reads_is_closed_once_its_queue_is_full(server):
    http = user(server, "slow")
    game_id = start_cpu_game(http, server.url)
    ws = websocket.create_connection(
        server.url.replace("http", "ws") + "/socket.io/?EIO=4&transport=websocket",
        header=[f"Cookie: {cookie_of(http)}", f"X-Forwarded-For: {http.address}"],
        sockopt=((socket.SOL_SOCKET, socket.SO_RCVBUF, 4096),), timeout=10)
    assert ws.recv().startswith("0")  # Engine.IO's open packet
    ws.send("40")
    assert ws.recv().startswith("40")  # Socket.IO connected; from here on nothing is read
    sent = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and "closed as too slow" not in server.log_text():
        try:
            for _ in range(50):
                ws.send(f'42["join",{{"game":{game_id}}}]')
                sent += 1
        except (OSError, websocket.WebSocketException):
            break  # the server closed it already
        time.sleep(0.05)
    print(f"\n{server.server}: {sent} joins sent unread before the server closed the socket")
    wait_until(lambda: "closed as too slow" in server.log_text(), timeout=30)
    try:  # more joins on the closed socket run nothing: it was closed once, for good
        for _ in range(200):
            ws.send(f'42["join",{{"game":{game_id}}}]')
    except (OSError, websocket.WebSocketException):
        pass
    time.sleep(1.0)
    assert server.log_text().count("closed as too slow") == 1
    assert requests.get(f"{server.url}/healthz", timeout=5).json() == {"ok": True}
    ws.close()
