"""Live play over Socket.IO (docs/protocol.md): the server object and its registration.

Each app gets its own ``flask_socketio.SocketIO`` (``app.extensions["socketio"]``): tests build
many apps, and a module-level server would follow only the last one. The handlers in
``handlers.py`` are thin adapters over ``webapp.play``.
"""

import json

import orjson
from flask_socketio import SocketIO
from socketio.packet import Packet

from webapp import SERVER

#: The largest Socket.IO message the server reads at all; a bigger one closes the connection.
#: Real messages are a few hundred bytes (docs/protocol.md); handlers refuse anything over
#: ``handlers.MAX_PAYLOAD`` with a ``bad_request`` error before that.
MAX_MESSAGE = 64 * 1024


class FastJson:
    """The JSON module of the server's packets: orjson, an eighth of the standard module's time for a
    ``state`` payload (bench/online_load.py), which was a third of the server's time per action.
    The text is the same JSON; a number too big for a 64-bit integer reads as a float (never a
    slow giant int), and anything orjson cannot write goes through the standard module."""

    JSONDecodeError = orjson.JSONDecodeError

    @staticmethod
    def dumps(obj, **kwargs):
        try:
            return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            return json.dumps(obj, separators=(",", ":"))

    @staticmethod
    def loads(text, **kwargs):
        return orjson.loads(text)


class JsonPacket(Packet):
    """A packet of a server that sends JSON only: python-socketio's own walks every value of every
    payload looking for bytes to send as attachments, a quarter of the server's time per action."""

    json = FastJson

    @classmethod
    def data_is_binary(cls, data):
        return isinstance(data, (bytes, bytearray))


def init_app(app):
    """Create the app's SocketIO server (threading mode, or gevent's: ``webapp.SERVER``, docs/deploy.md)
    and register the handlers."""
    from . import handlers

    app.config.setdefault("CPU_DELAY", 0.35)   # seconds between the CPU's actions, so a browser can animate them
    app.config.setdefault("RATE_LIMIT", 20)    # events a second on one socket (docs/protocol.md)
    socketio = SocketIO(
        app,
        async_mode=SERVER,
        # Handlers of one socket run one after another, in the order sent, on that socket's own
        # thread: a flood from one socket queues behind itself and never spawns a thread per message.
        async_handlers=False,
        max_http_buffer_size=MAX_MESSAGE,
        manage_session=True,
        serializer=JsonPacket,
    )
    handlers.register(app, socketio)
    return socketio


def socketio_of(app):
    """The app's SocketIO server."""
    return app.extensions["socketio"]
