"""Emitting to sockets and rooms, closing a socket that does not read what it is sent
(``OUTBOX_LIMIT`` packets waiting)."""

import logging

from flask import request
from socketio.pubsub_manager import PubSubManager

log = logging.getLogger(__name__)


class Outbox:
    """What one app's server emits. ``limit`` reads a setting (``floods.limit``)."""

    def __init__(self, socketio, limit):
        self.socketio, self.limit = socketio, limit

    def reply(self, event, payload):
        """Emit to the sending socket alone, unless it does not keep up (then it is closed). The sender is
        connected to this process: with a message queue the emit skips it (no other process decodes it)."""
        if self.keeping_up(request.sid):
            self.socketio.emit(event, payload, to=request.sid, ignore_queue=True)

    def backlog(self, sid):
        """Packets waiting to be written to the socket (its Engine.IO queue); 0 if unknown."""
        server = self.socketio.server
        try:
            eio_sid = server.manager.eio_sid_from_sid(sid, "/")
            sock = server.eio.sockets.get(eio_sid) if eio_sid else None
            return sock.queue.qsize() if sock is not None else 0
        except (AttributeError, KeyError, NotImplementedError):
            return 0

    def keeping_up(self, sid):
        """False (and the socket is closed) if it has more than OUTBOX_LIMIT packets waiting: a client
        that does not read cannot make the server hold its states without bound. It may connect
        again and ``join`` for the latest state."""
        waiting = self.backlog(sid)
        if waiting <= self.limit("OUTBOX_LIMIT"):
            return True
        log.warning("socket %s has %d packets waiting unread: closed as too slow", sid, waiting)
        self.close_now(sid)
        return False

    def close_now(self, sid):
        """Disconnect the socket here and now: its disconnect handling runs before this returns (a
        task started for it would wait while the socket's own events keep its greenlet busy) and
        nothing more is queued for it. Its Engine.IO connection, which answers no pings, ends at the
        ping timeout (closing it here races python-socketio's handling of packets still arriving)."""
        self.socketio.server.disconnect(sid, namespace="/")

    def slow_in(self, to):
        """The sockets of a room that do not keep up (closed by ``keeping_up``): skipped by an emit."""
        manager = self.socketio.server.manager
        if isinstance(manager, PubSubManager):
            return []
        sids = list(manager.rooms.get("/", {}).get(to, {}) or ())
        return [sid for sid in sids if not self.keeping_up(sid)]

    def send(self, event, payload, to):
        """Emit to a room, skipping its sockets that do not keep up."""
        slow = self.slow_in(to)
        self.socketio.emit(event, payload, to=to, skip_sid=slow or None)

    def emit(self, event, payload, to):
        """Emit to a room, every socket in it."""
        self.socketio.emit(event, payload, to=to)

    def rooms(self):
        """This process's rooms, {room: its sockets} (a room nobody is in is absent or empty), as the
        server keeps them (read, never changed); None with a message queue, whose other processes'
        rooms this one cannot see (every room may have someone in it). A state nobody's room would receive
        is not built (``StatePusher.push`` reads this once for all of a game's rooms)."""
        manager = self.socketio.server.manager
        if isinstance(manager, PubSubManager):
            return None
        return manager.rooms.get("/", {})
