"""What the server holds per game returns to its size once CPU games end (issue 12: the threading
server grew ~0.8 MB per finished CPU game). A real threaded Werkzeug server (Flask-SocketIO's
threading mode) runs in this process so its structures can be counted; a bot plays each game to
its end over a real python-socketio connection.

tracemalloc found no Python structure growing with games on the server before issue 12: the
growth was freed memory kept in glibc's per-thread heaps, which the server now hands back
(``memory.trim_memory``, webapp/sockets/memory.py); bench/memory_per_game.py prints the resident memory per game. This test
guards the structures: sockets, rooms, members, CPU tasks, names, the game and state caches, the
rate limiters' keys and the threads all return to what they were."""

import socket
import threading
import time

import pytest
import requests
from werkzeug.serving import make_server

from webapp import create_app
from webapp.game import gamecache
from webapp.tools.bot import Bot, log_in, start_cpu_game

from .socketkit import PASSWORD

pytestmark = pytest.mark.slow

GAMES = 4


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def holdings(app):
    hub = app.extensions["brigade_hub"]
    server = app.extensions["socketio"].server
    rooms = sum(len(r) for r in server.manager.rooms.values())
    return {"engine.io sockets": len(server.eio.sockets), "environs": len(server.environ), "rooms": rooms,
            "members": len(hub.members), "cpu tasks": len(hub.cpu), "names": len(hub.names),
            "cached games": sum(1 for k in gamecache.GAMES.entries if k[0] == app.config["DATABASE"]),
            "cached states": len(hub.states), "online tracks": len(hub.online.tracks)}


def test_finished_cpu_games_leave_nothing_behind_in_the_threading_server(tmp_path):
    app = create_app({"INSTANCE_PATH": tmp_path / "instance", "CPU_DELAY": 0, "RATE_LIMIT": 1000})
    port = free_port()
    server = make_server("127.0.0.1", port, app, threaded=True)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    url = f"http://127.0.0.1:{port}"
    try:
        http = requests.Session()
        log_in(http, url, "memory", PASSWORD, register=True)
        results = []

        def games(n):
            for _ in range(n):
                game_id = start_cpu_game(http, url)
                results.append(Bot(url, http.cookies.get_dict(), game_id, seed=len(results), timeout=120,
                                   rate=1000).run())

        def settled(before, threads=None, timeout=60):
            """Until the app holds what it held ``before`` (and runs at most ``threads`` threads)."""
            deadline = time.monotonic() + timeout
            while (holdings(app) != before or (threads is not None and threading.active_count() > threads)) \
                    and time.monotonic() < deadline:
                time.sleep(0.1)

        serving_threads = threading.active_count()
        games(1)  # the first game starts Engine.IO's service thread
        # until the first game's client threads are gone too (at most 30 s: a thread more, and the
        # baseline below holds it)
        settled({k: 0 for k in holdings(app)}, serving_threads + 1, timeout=30)
        threads, before = threading.active_count(), holdings(app)
        games(GAMES)
        assert all(r["status"] == "finished" for r in results), results
        settled(before, threads)
        print(f"\nafter {GAMES} games: {holdings(app)}, {threading.active_count()} threads (before: {before}, "
              f"{threads})")
        assert holdings(app) == before
        assert threading.active_count() <= threads
    finally:
        server.shutdown()
        serving.join(10)
