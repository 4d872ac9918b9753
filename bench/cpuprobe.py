"""The server's CPU per part of an event, for bench/online_load.py and bench/socket_floor.py ``--cpu-split``.

py-spy's shares of this server are weighted by wall time, not CPU: under gevent it counted 7,285
samples in 40 s (91 % of its 200 a second) of a process that used 19 % of a core, and with
``--gil`` it misses SQLite, which runs without the GIL. This probe times chosen functions with
``time.thread_time`` (the server is one thread; a part that lets another greenlet run meanwhile,
like the host log's line, counts that greenlet's work too, so such parts are left out) and writes
the totals to ``$BRIGADE_INSTANCE_PATH/cpu-split.json`` every 300 events. Measurement only: the
server started with it (``start_server(..., cpu_split=True)``) spends about 1-2 µs more per part.
"""

import functools
import json
import os
import time

#: (where, attribute, name): the parts timed. Nested parts are inside their callers' figures.
PARTS = [
    ("flask.ctx:RequestContext", "push", "request context push"),
    ("flask.ctx:RequestContext", "pop", "request context pop"),
    ("webapp.sockets.hub:Hub", "gate", "gate"),
    ("webapp.sockets.handlers", "check_payload", "payload check"),
    ("webapp.sockets.hub:Hub", "act", "act (the game's work)"),
    ("webapp.game.play", "load_row", "  row read"),
    ("webapp.game.play", "move", "  move"),
    ("webapp.store", "append_action", "    SQLite transaction (with the clocks)"),
    ("webapp.engine:Game", "apply", "    rules (Game.apply)"),
    ("webapp.game.play", "snapshot_text", "    snapshot text"),
    ("webapp.sockets.hub:Hub", "push", "  states pushed"),
    ("webapp.sockets.statepush:StatePusher", "parts", "    views and legal actions"),
    ("webapp.game.seatstate", "state_for", "    state payloads"),
    ("webapp.game.gamelog", "describe", "      log sentences"),
    ("webapp.sockets.statepush", "diff", "    update differences"),
    ("webapp.sockets.outbox:Outbox", "send", "    emitting"),
    ("webapp.sockets.hub:Hub", "error", "error reply (the floor's answer)"),
    ("engineio.async_drivers._websocket_wsgi:SimpleWebSocketWSGI", "send", "WebSocket writes"),
]
EVERY = 300
TOTALS = {}
_events = [0]


def _resolve(where):
    module, _, cls = where.partition(":")
    obj = __import__(module, fromlist=["_"])
    return getattr(obj, cls) if cls else obj


def _wrap(owner, attr, name, counts_events=False):
    fn = owner.__dict__[attr] if isinstance(owner, type) else getattr(owner, attr)
    if isinstance(fn, (staticmethod, classmethod)):
        raise TypeError(f"{name}: only plain functions and methods are timed")
    slot = TOTALS.setdefault(name, [0, 0.0])
    out = os.path.join(os.environ["BRIGADE_INSTANCE_PATH"], "cpu-split.json")

    @functools.wraps(fn)
    def timed(*args, **kwargs):
        begun = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            slot[0] += 1
            slot[1] += time.thread_time() - begun
            if counts_events:
                _events[0] += 1
                if _events[0] % EVERY == 0:
                    with open(out + ".tmp", "w") as f:
                        json.dump({"events": _events[0], "process_cpu_s": time.process_time(), "parts": TOTALS}, f)
                    os.replace(out + ".tmp", out)
    setattr(owner, attr, timed)


def install():
    """Wrap the parts (gevent patches the standard library first, as the server's own start does)."""
    import webapp.serving  # noqa: F401  (the gevent switch: before anything imports socket or threading)
    import flask_socketio
    _wrap(flask_socketio.SocketIO, "_handle_event", "events", counts_events=True)
    for where, attr, name in PARTS:
        _wrap(_resolve(where), attr, name)


def read(instance, per):
    """The split kept in ``instance`` as {part: [calls, ms per ``per``]} (None if the server wrote none)."""
    try:
        with open(os.path.join(instance, "cpu-split.json")) as f:
            data = json.load(f)
    except FileNotFoundError:
        return None
    return {name: [calls, round(1000 * seconds / per(data), 3)] for name, (calls, seconds) in data["parts"].items()}
