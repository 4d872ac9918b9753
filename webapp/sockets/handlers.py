"""Socket.IO handlers (docs/protocol.md): each checks its payload's shape and hands over to the ``Hub``
or a game service; ``guarded`` is the frame they share (a known socket, the flood limits, the payload
check, a refusal as an ``error`` to the sender alone, the host log's line).

Online games between friends (clocks, presence, claims, emotes, rematches) are ``webapp.game.online``'s;
the Hub (``hub.py``) is the services' notifier and the owner of the app's background tasks.
"""

import logging
import sqlite3
import time

from flask import g, request, session
from flask_socketio import ConnectionRefusedError, join_room

from webapp import store
from webapp.store import db as store_db
from webapp.game import play, seatnames
from webapp.game import online as online_games
from webapp.hosting import hostlog, metrics
from webapp.social import presence
from webapp.social.chat import Chat

from .hub import Hub
from .payloads import REFUSED, check_payload, short

log = logging.getLogger(__name__)

#: The client events (docs/protocol.md).
EVENTS = ("join", "action", "take_back", "leave", "claim", "emote", "rematch", "chat", "chat_history", "chat_mute", "chat_report")


def register(app, socketio):
    """Attach the protocol's handlers to ``socketio``."""
    hub = Hub(app, socketio)
    hub.online = online_games.Online(app, notifier=hub)
    app.extensions["brigade_hub"] = hub
    app.extensions["brigade_online"] = hub.online
    chat = app.extensions["brigade_chat"] = Chat(app, notifier=hub)
    presence.attach(app)
    guarded = guard(hub, socketio)

    @socketio.on_error_default
    def on_error(exc):  # a bug: the sender hears of it, the connection and the server go on
        metrics.count_error(type(exc).__name__)
        log.exception("socket event %r failed", getattr(request, "event", None))
        hub.error("internal", "the server failed on this event; it was not applied")

    @socketio.on("connect")
    def on_connect(auth=None):
        try:
            hub.connect()
            presence.connect(hub.members[request.sid].user_id, request.sid)
            join_room(f"user:{hub.members[request.sid].user_id}")
            metrics.count_socket(+1)
            hostlog.log_event("connect", hub.members[request.sid].user_id, None, "ok")
        except ConnectionRefusedError:
            hostlog.log_event("connect", session.get("user_id"), None, "refused")
            raise
        except Exception:  # never let a failure here accept a socket without a user
            log.exception("socket connect failed")
            raise ConnectionRefusedError("the server could not check your session") from None

    @socketio.on("disconnect")
    def on_disconnect(reason=None):
        member = hub.members.get(request.sid)
        hub.disconnected()
        if member is not None:
            presence.disconnect(member.user_id, request.sid)
            metrics.count_socket(-1)
            hostlog.log_event("disconnect", member.user_id, None, "ok")

    @socketio.on(REFUSED)
    def on_refused(reason=None, *extra):
        """A packet JsonPacket refused (not JSON, a reserved event name, no name): answered, never run."""
        if hub.gate() is not None:
            hostlog.log_event("(refused packet)", hub.members[request.sid].user_id, None, "bad_request")
            hub.error("bad_request", reason if isinstance(reason, str) else "this message was refused")

    @guarded("join", {"game": "id", "updates?": "flag"})
    def on_join(member, game, updates=False):
        hub.join(member, game, updates)

    @guarded("action", {"game": "id", "action": "action", "version": "version"})
    def on_action(member, game, action, version):
        hub.act(member, game, action, version)

    @guarded("take_back", {"game": "id", "version": "version"})
    def on_take_back(member, game, version):
        hub.take_back(member, game, version)

    @guarded("leave", {"game": "id"})
    def on_leave(member, game):
        hub.leave(member, game)

    @guarded("claim", {"game": "id"})
    def on_claim(member, game):
        hub.online.claim(store.get_db(), game, member.user_id)  # pushes the final state itself

    @guarded("emote", {"game": "id", "emote": "emote"})
    def on_emote(member, game, emote):
        hub.online.emote(store.get_db(), request.sid, game, member.user_id, emote)

    @guarded("rematch", {"game": "id"})
    def on_rematch(member, game):
        hub.online.rematch(store.get_db(), game, member.user_id)

    @guarded("chat", {"game": "id", "text": "text", "channel?": "channel"})
    def on_chat(member, game, text, channel=None):
        hub.joined(member, game)  # a chat's readers are the sockets in the game's rooms
        chat.post(store.get_db(), game, member.user_id, text, channel)

    @guarded("chat_history", {"game": "id"})
    def on_chat_history(member, game):
        hub.joined(member, game)
        hub.reply("chat_history", chat.history(store.get_db(), game, member.user_id))

    @guarded("chat_mute", {"game": "id", "muted": "flag"})
    def on_chat_mute(member, game, muted):
        hub.reply("chat_muted", chat.mute(store.get_db(), game, member.user_id, muted))

    @guarded("chat_report", {"game": "id", "message": "message"})
    def on_chat_report(member, game, message):
        hub.reply("chat_reported", chat.report(store.get_db(), game, member.user_id, message))

    @socketio.on("*")
    def on_unknown(event, *args):
        if hub.gate() is not None:
            hostlog.log_event("(unknown event)", hub.members[request.sid].user_id, None, "bad_request")
            hub.error("bad_request", f"unknown event {short(event)}; send one of {', '.join(EVENTS)}")

    hub.online.resume()

    return hub


def guard(hub, socketio):
    """The decorator that registers a client event (``name``, its payload's ``keys``: payloads.CHECKS) in
    the common frame: a known socket, the rate limit, the payload's shape, a pooled connection, and
    PlayError turned into an ``error`` to the sender alone."""

    def guarded(name, keys):
        def wrap(fn):
            def handler(payload=None, *extra):
                begun, outcome = time.perf_counter(), "error"  # the host log's line (never the payload)
                game = payload.get("game") if isinstance(payload, dict) else None
                game = game if isinstance(game, int) and not isinstance(game, bool) else None
                member = hub.gate(game)
                if member is None:
                    known = hub.members.get(request.sid)
                    hostlog.log_event(name, known.user_id if known else None, None, g.get("refused", "refused"))
                    return
                # refusals (PlayError messages through gettext) in the language the user reads the game in:
                # the socket's request has no g.user for webapp/i18n.py's select_locale to read
                g.locale_choice = seatnames.user_lang(member.user_id, member.marks)
                try:
                    with hub.lease():
                        try:
                            fn(member, **check_payload(name, payload, keys, extra))
                            outcome = "ok"
                        except play.PlayError as exc:
                            outcome = exc.code  # the refusal's reason as a word: illegal, stale, forbidden…
                            hub.error(exc.code, exc.message, exc.game if exc.game is not None else game)
                        except sqlite3.OperationalError as exc:
                            if store_db.trouble(exc) is None:
                                raise
                            outcome = "busy"
                            hub.unavailable(exc, game)
                finally:
                    hostlog.log_event(name, member.user_id, (time.perf_counter() - begun) * 1000, outcome)
            handler.__name__ = f"on_{name}"
            socketio.on_event(name, handler)
            return fn
        return wrap

    return guarded
