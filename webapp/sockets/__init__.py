"""Live play over Socket.IO (docs/protocol.md): the server object and its registration.

Each app gets its own ``flask_socketio.SocketIO`` (``app.extensions["socketio"]``): tests build
many apps, and a module-level server would follow only the last one. The handlers in
``handlers.py`` are thin adapters over the ``Hub`` (``hub.py``) and the game services; the module map
is in docs/architecture.md.
"""

import json
import types

import engineio.packet
import engineio.socket
import orjson
from flask_socketio import SocketIO
from socketio.packet import ACK, CONNECT, DISCONNECT, EVENT, Packet
from werkzeug.exceptions import HTTPException

from webapp.serving import SERVER
from webapp.hosting import cluster

from . import handlers
from .payloads import REFUSED, RESERVED
from .statecache import encoded
from webapp.web.sessions import SOCKET_SESSION

#: The largest Socket.IO message the server reads at all; a bigger one closes the connection.
#: Real messages are a few hundred bytes (docs/protocol.md); handlers refuse anything over
#: ``payloads.MAX_PAYLOAD`` with a ``bad_request`` error before that.
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
            return encoded(obj).decode()
        except TypeError:
            return json.dumps(obj, separators=(",", ":"))

    @staticmethod
    def loads(text, **kwargs):
        return orjson.loads(text)


class JsonPacket(Packet):
    """A packet of a server that sends JSON only: python-socketio's own walks every value of every
    payload looking for bytes to send as attachments, a quarter of the server's time per action.

    Reading a client's packet never fails: a packet that is not valid JSON (``NaN``, ``Infinity``, a
    lone surrogate, ``1e400``), whose event name is not a string, or that names a reserved event
    becomes the event ``REFUSED`` with the reason, which the handlers answer with ``bad_request``.
    python-socketio would otherwise log a traceback per bad packet and answer nothing."""

    json = FastJson

    @classmethod
    def data_is_binary(cls, data):
        return isinstance(data, (bytes, bytearray))

    def __init__(self, *args, encoded_packet=None, **kwargs):
        super().__init__(*args, encoded_packet=encoded_packet, **kwargs)
        if encoded_packet is not None and not encoded_packet:  # an empty message: Packet skips decode
            self.packet_type, self.id, self.data = EVENT, None, [REFUSED, "the message is empty"]

    def decode(self, encoded_packet):
        try:
            attachments = super().decode(encoded_packet)
        except (ValueError, TypeError, IndexError, RecursionError):
            # orjson's JSONDecodeError is a ValueError; so are a bad type digit or id
            self.packet_type, self.id, self.data = EVENT, None, [REFUSED, "the message is not valid JSON "
                                                                 "(NaN, Infinity, lone surrogates and numbers "
                                                                 "beyond a double are refused)"]
            return 0
        if self.packet_type not in (CONNECT, DISCONNECT, EVENT, ACK):
            # binary packets (the server takes JSON only: their attachments would be refused one by
            # one), a client's CONNECT_ERROR, unknown types
            self.packet_type, self.id, self.data = EVENT, None, [REFUSED, "only JSON events are accepted"]
            return 0
        if self.packet_type == EVENT:
            data = self.data
            if not isinstance(data, list) or not data or not isinstance(data[0], str):
                self.data = [REFUSED, "an event is a list: its name (a string), then its payload"]
            elif data[0] in RESERVED or data[0] == REFUSED:
                self.data = [REFUSED, f"{data[0][:20]!r} is an event name Socket.IO reserves; "
                                      "a client may not send it"]
        return attachments


#: Where a socket's handshake environ keeps the URL adapter its events' request contexts share.
URL_ADAPTER = "brigade.url_adapter"


def matched_once(match):
    """A URL adapter's ``match`` that matches the socket's one URL (the handshake's) once: Flask matches
    it again for every event's request context, and for Socket.IO's path that is werkzeug's routing
    raising NotFound each time. The answer (a result or the HTTP exception) is kept per arguments."""
    answers = {}

    def once(*args, **kwargs):
        key = (args, tuple(sorted(kwargs.items())))
        answer = answers.get(key)
        if answer is None:
            try:
                answer = answers[key] = (True, match(*args, **kwargs))
            except HTTPException as exc:
                answer = answers[key] = (False, exc)
        if answer[0]:
            result = answer[1]
            return (result[0], dict(result[1])) if isinstance(result, tuple) and len(result) == 2 else result
        raise answer[1].with_traceback(None)  # (its traceback would grow with every raise)

    return once


def url_adapter_per_socket(app):
    """Every Socket.IO event runs in a Flask request context made from its socket's handshake environ,
    and Flask binds the URL map to that environ each time (a twentieth of the server's time per
    action, bench/online_load.py): keep the first event's adapter in the environ for the later ones.
    A socket's environ never changes, so neither would the adapter; HTTP requests are untouched."""
    create = app.create_url_adapter

    def create_url_adapter(request):
        environ = getattr(request, "environ", None)
        if environ is None or SOCKET_SESSION not in environ:
            return create(request)
        adapter = environ.get(URL_ADAPTER)
        if adapter is None:
            adapter = environ[URL_ADAPTER] = create(request)
            if adapter is not None:
                adapter.match = matched_once(adapter.match)
        return adapter

    app.create_url_adapter = create_url_adapter


class TolerantFrame(engineio.packet.Packet):
    """An Engine.IO frame as the server reads it: one it cannot read at all (empty, a space, a NUL, any
    first character that is not a packet type) becomes an empty message, which ``JsonPacket`` turns
    into ``REFUSED`` and the handlers answer with ``bad_request`` (docs/security.md "Sockets"). python-engineio reads
    a WebSocket frame outside its handler's ``try``: such a frame logged a traceback and dropped the
    socket."""

    def decode(self, encoded_packet):
        try:
            super().decode(encoded_packet)
        except (ValueError, TypeError, IndexError):
            self.packet_type, self.binary, self.data = engineio.packet.MESSAGE, False, ""


def read_frames_tolerantly():
    """Make python-engineio's socket read frames with ``TolerantFrame``. Only its socket module's
    reference changes (a copy of the packet module with that class): what the server writes, and any
    other user of python-engineio in the process, keep the original. Idempotent."""
    if engineio.socket.packet.Packet is TolerantFrame:
        return
    tolerant = types.ModuleType(engineio.packet.__name__)
    tolerant.__dict__.update(vars(engineio.packet))
    tolerant.Packet = TolerantFrame
    engineio.socket.packet = tolerant


def init_app(app):
    """Create the app's SocketIO server (threading mode, or gevent's: ``webapp.serving.SERVER``, docs/deploy.md)
    and register the handlers."""
    # Several processes (docs/deploy.md): MESSAGE_QUEUE = "redis://…" carries every emit to the other
    # processes' sockets, and webapp.hosting.cluster shares leases, caps, limits and presence. Unset: one process.
    read_frames_tolerantly()
    queue = cluster.url_of(app.config)
    if queue:
        app.extensions["brigade_cluster"] = cluster.Cluster(queue, app.config["MESSAGE_QUEUE_PREFIX"])
    socketio = SocketIO(
        app,
        async_mode=SERVER,
        # Handlers of one socket run one after another, in the order sent, on that socket's own
        # thread: a flood from one socket queues behind itself and never spawns a thread per message.
        async_handlers=False,
        max_http_buffer_size=MAX_MESSAGE,
        manage_session=True,
        serializer=JsonPacket,
        message_queue=queue,
        channel=app.config["MESSAGE_QUEUE_PREFIX"] + ":socketio",
    )
    handlers.register(app, socketio)
    url_adapter_per_socket(app)
    return socketio


def socketio_of(app):
    """The app's SocketIO server."""
    return app.extensions["socketio"]
